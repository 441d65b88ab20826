/**
 * The upgrade reconciler's check that a SidecarSet is effective for new pods: the pod webhook configuration, as the
 * API server holds it, has the SidecarSet's entry (docs/adr/0037-sidecarset-effective-with-its-webhook-entry.md).
 */
import type { KubeClient } from '@regatta/kube';
import { parseNamespaceScope } from '@regatta/runtime';
import type { AnySidecarSet } from '../injection/types.js';
import type { SidecarSetView } from '../upgrade/types.js';
import { podWebhookConfigurationName, podWebhookEntryInStep } from './pod-webhook-configuration.js';

/**
 * The check, or undefined when the program serves no webhooks (REGATTA_WEBHOOK_ADDR unset: no configuration is
 * kept, there is nothing to wait for). The configuration's name and namespace scope are the program's
 * (REGATTA_NAMESPACE_SELECTOR), as the kit's keeper applies it.
 */
export function podWebhookInStepCheck(
  client: Pick<KubeClient, 'getOrUndefined'>,
  env: NodeJS.ProcessEnv,
): ((set: SidecarSetView) => Promise<boolean>) | undefined {
  if (!env['REGATTA_WEBHOOK_ADDR']) return undefined;
  const scope = parseNamespaceScope('REGATTA_NAMESPACE_SELECTOR', env['REGATTA_NAMESPACE_SELECTOR']);
  const ref = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    name: podWebhookConfigurationName(scope),
  };
  // cast through unknown: the upgrade's view types only the fields it reads; the entry is built from the whole stored object
  return async (set) =>
    podWebhookEntryInStep(await client.getOrUndefined(ref), set as unknown as AnySidecarSet, scope);
}
