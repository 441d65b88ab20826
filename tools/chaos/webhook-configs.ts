// A program's admission webhook configurations as the checks see them: R2 waits for a program's entries, R2 and R3
// delete its configurations when it goes (a dead program's, failurePolicy Fail, would refuse later checks' writes).
import { isNotFound, type KubeObject } from '@regatta/kube';
import type { World } from './world.js';

const ADMISSION = 'admissionregistration.k8s.io/v1';
const KINDS = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

/** The webhook entries' names of the configurations called `config` (mutating and validating). */
export async function webhookEntries(w: World, config: string): Promise<string[]> {
  const names: string[] = [];
  for (const kind of KINDS) {
    const c = await w.client.getOrUndefined<KubeObject & { webhooks?: { name: string }[] }>({
      apiVersion: ADMISSION,
      kind,
      name: config,
    });
    names.push(...(c?.webhooks?.map((h) => h.name) ?? []));
  }
  return names;
}

/**
 * Deletes `regatta-<app>` and the configurations named after it (the SidecarSet program's `regatta-sidecarset-pods`,
 * a pod entry per SidecarSet). Gone already is what a delete wants; any other error is the run's.
 */
export async function deleteConfigurations(w: World, app: string): Promise<void> {
  for (const kind of KINDS) {
    const configs = await w.client.list({ apiVersion: ADMISSION, kind });
    for (const c of configs.items) {
      const name = c.metadata?.name ?? '';
      if (name === `regatta-${app}` || name.startsWith(`regatta-${app}-`))
        await w.client.delete({ apiVersion: ADMISSION, kind, name }).catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
    }
  }
}
