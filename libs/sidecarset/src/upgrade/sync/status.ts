/** Step 2: status (OpenKruise `calculateStatus` / `updateSidecarSetStatus`), written only when it changed. */
import type { Pod } from '@regatta/lifecycle';
import { calculateStatus, statusChanged } from '../status.js';
import { SIDECARSET_GVK } from '../revisions.js';
import type { SidecarSetStatusView } from '../types.js';
import type { UpgradeSync } from './context.js';

export async function statusStep(
  s: UpgradeSync,
  pods: readonly Pod[],
  latestRevision: string,
  collisionCount: number,
): Promise<Required<SidecarSetStatusView>> {
  const status = calculateStatus(s.set, pods, latestRevision, collisionCount);
  if (statusChanged(s.set.status, status)) {
    await s.d.client.patchStatus(
      { ...SIDECARSET_GVK, name: s.set.metadata?.name ?? '' },
      { status },
      { type: 'merge' },
    );
  }
  return status;
}
