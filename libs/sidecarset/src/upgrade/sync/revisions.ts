/**
 * Step 1b: register the latest revision (OpenKruise `registerLatestRevision`): reuse, roll back or create it in the
 * controller's namespace (libs/revision's control), put the custom-version label on it, truncate the history.
 */
import type { Pod } from '@regatta/lifecycle';
import { type ControllerRevision, syncRevisions } from '@regatta/revision';
import { isNotFound } from '@regatta/kube';
import { SIDECARSET_CUSTOM_VERSION_LABEL, SIDECARSET_NAME_LABEL } from '../keys.js';
import { customVersionOf, newSidecarSetRevision, revisionsToDelete } from '../revisions.js';
import type { UpgradeSync } from './context.js';

const REVISION = { apiVersion: 'apps/v1', kind: 'ControllerRevision' } as const;

export interface LatestRevision {
  latest: ControllerRevision;
  collisionCount: number;
}

export async function registerLatestRevision(s: UpgradeSync, pods: readonly Pod[]): Promise<LatestRevision> {
  const { d, set } = s;
  const name = set.metadata?.name ?? '';
  const ns = d.controllerNamespace;
  // revisions are listed as if the SidecarSet lived in the controller's namespace (upstream MockSidecarSetForRevision)
  const owner = { ...set, metadata: { ...set.metadata, namespace: ns } };
  const listed = d.revisions.list({ namespace: ns }) as ControllerRevision[];
  const sync = await syncRevisions(d.client, {
    owner,
    selector: { matchLabels: { [SIDECARSET_NAME_LABEL]: name } },
    revisions: listed,
    collisionCount: set.status?.collisionCount ?? 0,
    currentRevision: undefined,
    candidate: (revision, collisionCount) => newSidecarSetRevision(set, ns, revision, collisionCount),
  });
  let latest = sync.updateRevision;
  const custom = customVersionOf(set);
  if (custom && latest.metadata?.labels?.[SIDECARSET_CUSTOM_VERSION_LABEL] !== custom) {
    latest = await d.client.patch<ControllerRevision>(
      { ...REVISION, namespace: ns, name: latest.metadata?.name ?? '' },
      { metadata: { labels: { [SIDECARSET_CUSTOM_VERSION_LABEL]: custom } } },
      { type: 'merge' },
    );
  }
  const { remove, overLimit } = revisionsToDelete(set, pods, sync.sorted);
  for (const r of remove) {
    await d.client
      .delete({ ...REVISION, namespace: ns, name: r.metadata?.name ?? '' })
      .catch((err: unknown) => {
        if (!isNotFound(err))
          s.log.warn({ err, revision: r.metadata?.name }, 'could not delete an old SidecarSet revision');
      });
  }
  if (overLimit > 0)
    s.log.info({ overLimit }, 'SidecarSet history above its limit: the rest is still in use');
  return { latest, collisionCount: sync.collisionCount };
}
