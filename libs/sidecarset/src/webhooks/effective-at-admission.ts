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
 * How long an admission waits for the configurations to be applied. The API server gives the whole webhook call 10 s
 * (pod-webhook-configuration.ts `timeoutSeconds`) and fails closed after it: an apply still hanging (an API write whose
 * answer never comes) is left to finish in the background, or to the keeper's next pass, and the SidecarSet is allowed.
 */
export const APPLY_AT_ADMISSION_MS = 3000;

/**
 * Records the SidecarSet and applies the configurations now. A failure to apply, or an apply slower than `waitMs`, is
 * logged, not answered: the SidecarSet is then effective once the cache holds it
 * (docs/adr/0037-sidecarset-effective-with-its-webhook-entry.md), as when this replica does not lead (only the leader
 * writes the configurations).
 */
export function admitAndApply(
  admitted: AdmittedSidecarSets,
  configurations: WebhookConfigurationsNow,
  log: Pick<Logger, 'warn' | 'debug'>,
  waitMs = APPLY_AT_ADMISSION_MS,
): (set: AnySidecarSet) => Promise<void> {
  return async (set) => {
    admitted.admit(set);
    const name = set.metadata?.name;
    const apply = configurations.applyNow().then(
      (applied) => {
        if (!applied)
          log.debug({ sidecarSet: name }, 'pod webhook entry not applied at admission (not the leader)');
      },
      (err: unknown) =>
        log.warn(
          { err, sidecarSet: name },
          'could not apply the pod webhook entry of an admitted SidecarSet',
        ),
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), waitMs);
    });
    try {
      if ((await Promise.race([apply, late])) === 'late') {
        log.warn(
          { sidecarSet: name, waitMs },
          'pod webhook entry of an admitted SidecarSet not applied in time; allowed, the configuration keeper applies it',
        );
      }
    } finally {
      clearTimeout(timer);
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
