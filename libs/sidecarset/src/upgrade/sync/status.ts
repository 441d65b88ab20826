/** Step 2: status (OpenKruise `calculateStatus` / `updateSidecarSetStatus`), written only when it changed. */
import type { Pod } from '@regatta/lifecycle';
import { calculateStatus, statusChanged } from '../status.js';
import { SIDECARSET_GVK } from '../revisions.js';
import type { SidecarSetStatusView } from '../types.js';
import type { UpgradeSync } from './context.js';

/**
 * Step 2: the status. A new generation is reported observed only once the pod webhook configuration sends the
 * SidecarSet's pods to the webhook (docs/adr/0037-sidecarset-effective-with-its-webhook-entry.md): `held` says the
 * former `observedGeneration` was kept and the reconcile must come back.
 */
export async function statusStep(
  s: UpgradeSync,
  pods: readonly Pod[],
  latestRevision: string,
  collisionCount: number,
): Promise<{ status: Required<SidecarSetStatusView>; held: boolean }> {
  const status = calculateStatus(s.set, pods, latestRevision, collisionCount);
  const observed = s.set.status?.observedGeneration ?? 0;
  let held = false;
  if (status.observedGeneration > observed && s.d.podWebhookInStep && !(await s.d.podWebhookInStep(s.set))) {
    status.observedGeneration = observed;
    held = true;
  }
  if (statusChanged(s.set.status, status)) {
    await s.d.client.patchStatus(
      { ...SIDECARSET_GVK, name: s.set.metadata?.name ?? '' },
      { status },
      { type: 'merge' },
    );
  }
  return { status, held };
}
