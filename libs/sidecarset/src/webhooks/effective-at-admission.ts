/**
 * The SidecarSet validating webhook's side of docs/adr/0040-sidecarset-effective-at-admission.md: a SidecarSet it
 * allows is recorded as admitted and the pod webhook's configuration (which now has an entry for it) is applied before
 * the answer; and the revision `injectionStrategy.revision` names is read from the API server when not cached.
 */
import type { WebhookConfigurationsNow } from '@regatta/kit';
import type { KubeClient, KubeObject } from '@regatta/kube';
import type { Logger } from '@regatta/runtime';
import type { AnySidecarSet } from '../injection/types.js';
import { SIDECARSET_NAME_LABEL } from '../upgrade/keys.js';
import type { AdmittedSidecarSets } from './admitted-sidecarsets.js';

/**
 * Records the SidecarSet and applies the configurations now. A failure to apply is logged, not answered: the
 * SidecarSet is then effective once the cache holds it (docs/adr/0037-sidecarset-effective-with-its-webhook-entry.md),
 * as when this replica does not lead (only the leader writes the configurations).
 */
export function admitAndApply(
  admitted: AdmittedSidecarSets,
  configurations: WebhookConfigurationsNow,
  log: Pick<Logger, 'warn' | 'debug'>,
): (set: AnySidecarSet) => Promise<void> {
  return async (set) => {
    admitted.admit(set);
    const name = set.metadata?.name;
    try {
      if (!(await configurations.applyNow())) {
        log.debug({ sidecarSet: name }, 'pod webhook entry not applied at admission (not the leader)');
      }
    } catch (err) {
      log.warn({ err, sidecarSet: name }, 'could not apply the pod webhook entry of an admitted SidecarSet');
    }
  };
}

/** The SidecarSet's revisions in the controller's namespace, as the API server holds them. */
export function storedSidecarSetRevisions(
  client: Pick<KubeClient, 'list'>,
  namespace: string,
): (sidecarSet: string) => Promise<readonly KubeObject[]> {
  return async (sidecarSet) =>
    (
      await client.list(
        { apiVersion: 'apps/v1', kind: 'ControllerRevision', namespace },
        { labelSelector: { matchLabels: { [SIDECARSET_NAME_LABEL]: sidecarSet } } },
      )
    ).items;
}
