/** Step 2: status (OpenKruise `calculateStatus` / `updateSidecarSetStatus`), written only when it changed. */
import type { Pod } from '@regatta/lifecycle';
import { type StatusCadence, writeStatusOnCadence } from '@regatta/workload';
import { calculateStatus, sidecarSetStatusCadence, statusChanged } from '../status.js';
import { SIDECARSET_GVK } from '../revisions.js';
import type { SidecarSetStatusView } from '../types.js';
import type { UpgradeSync } from './context.js';

export interface StatusStepInput {
  pods: readonly Pod[];
  latestRevision: string;
  collisionCount: number;
  /** The pods the partition lets through: the upgrade is done once that many are updated. */
  expectedUpdated: number;
  cadence: StatusCadence;
  /** Write any change at once (a later step of this reconcile failed). */
  urgent?: boolean;
}

export interface StatusStepResult {
  status: Required<SidecarSetStatusView>;
  /** The former `observedGeneration` was kept: the reconcile must come back. */
  held: boolean;
  /** > 0: a counter-only change waits for the cadence; reconcile again after this long to write it. */
  requeueAfterMs: number;
}

/**
 * Step 2: the status. A new generation is reported observed only once the pod webhook configuration sends the
 * SidecarSet's pods to the webhook (docs/adr/0037-sidecarset-effective-with-its-webhook-entry.md). Counter-only
 * changes follow the workloads' write cadence (docs/adr/0050): the status write is on the path to the next pods'
 * upgrade, and a write per round of a large upgrade held every round up by one API round trip.
 */
export async function statusStep(s: UpgradeSync, input: StatusStepInput): Promise<StatusStepResult> {
  const status = calculateStatus(s.set, input.pods, input.latestRevision, input.collisionCount);
  const observed = s.set.status?.observedGeneration ?? 0;
  let held = false;
  if (status.observedGeneration > observed && s.d.podWebhookInStep && !(await s.d.podWebhookInStep(s.set))) {
    status.observedGeneration = observed;
    held = true;
  }
  const { requeueAfterMs } = await writeStatusOnCadence(s.d.client, {
    workload: s.set,
    kind: SIDECARSET_GVK,
    status,
    changed: (stored, next) => statusChanged(stored as SidecarSetStatusView | undefined, next),
    cadence: input.cadence,
    rules: sidecarSetStatusCadence(input.expectedUpdated),
    now: s.now(),
    ...(input.urgent ? { urgent: true } : {}),
  });
  return { status, held, requeueAfterMs };
}
