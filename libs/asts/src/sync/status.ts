/**
 * Status step (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `updateStatefulSetStatus`): the counts
 * over the slots and condemned pods (with this round's in-memory creations not counted: they have no phase), the
 * claims per template, `FailedCreatePod`/`FailedUpdatePod` conditions, written only when something OpenKruise
 * compares changed, on the workload's status cadence (a change only in counts waits for the interval and asks for
 * a requeue, docs/adr/0050-workload-status-write-cadence.md).
 */
import { conditionsToWrite, withResizeInfeasibleCondition } from '@regatta/inplace-update';
import { type Condition, setCondition } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { type StatusCadence, writeStatusOnCadence } from '@regatta/workload';
import {
  type ComputedStatus,
  type PersistentVolumeClaim,
  claimName,
  computeStatus,
  countReplicas,
  ordinalOf,
  statefulSetStatusCadence,
  statusChanged,
  volumeClaimsStatus,
} from '../planning/index.js';
import { STATEFULSET_GVK, type StatefulSetStatus, minReadySecondsOf, nameOf } from '../statefulset-object.js';
import type { AstsSync } from './context.js';

export interface StatusStepInput {
  slots: readonly (Pod | undefined)[];
  condemned: readonly Pod[];
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  /** The reconciler's last status write per StatefulSet. */
  cadence: StatusCadence;
  /** A step failed: write any change at once (the error's back-off brings the next reconcile). */
  failed: boolean;
}

export async function statusStep(s: AstsSync, input: StatusStepInput): Promise<ComputedStatus> {
  const { set, spec } = s;
  const now = s.now();
  const ns = set.metadata?.namespace;
  const counts = countReplicas(
    [input.slots, input.condemned],
    minReadySecondsOf(spec),
    input.currentRevision,
    input.updateRevision,
    now,
  );
  const volumeClaims = volumeClaimsStatus(
    (spec.volumeClaimTemplates ?? []) as PersistentVolumeClaim[],
    input.slots.filter((p) => p?.metadata?.uid),
    (template, pod) =>
      s.d.pvcs.get(ns, claimName(template, nameOf(set), ordinalOf(pod))) as PersistentVolumeClaim | undefined,
  );
  const status = computeStatus({
    generation: set.metadata?.generation ?? 0,
    counts,
    currentRevision: input.currentRevision,
    updateRevision: input.updateRevision,
    collisionCount: input.collisionCount,
    selector: spec.selector,
    volumeClaims,
    rollingUpdate: spec.updateType === 'RollingUpdate',
  });
  let conditions: Condition[] = set.status?.conditions ?? [];
  for (const f of s.failures)
    conditions = setCondition(
      conditions,
      { type: f.type, status: 'True', reason: '', message: f.message },
      now,
      {
        keepWhileUnchanged: true,
      },
    );
  // pods whose node refused their resize (docs/adr/0087-in-place-resource-resize.md)
  conditions = withResizeInfeasibleCondition(
    conditions,
    input.slots.filter((p): p is Pod => p !== undefined),
    (list, c) => setCondition(list, c, now),
    s.resizeRefused,
  );
  // the last condition removed goes out as an empty list: a merge patch without `conditions` would keep it
  const toWrite = conditionsToWrite(set.status?.conditions, conditions);
  if (toWrite) status.conditions = toWrite;
  const written = await writeStatusOnCadence(s.d.client, {
    workload: set,
    kind: STATEFULSET_GVK,
    status,
    changed: (stored, next) => statusChanged(stored as StatefulSetStatus | undefined, next),
    ownWrites: s.ownWrites,
    cadence: input.cadence,
    rules: statefulSetStatusCadence(spec.replicas, spec.updateStrategy?.rollingUpdate?.partition ?? 0),
    now,
    urgent: input.failed || s.failures.length > 0,
  });
  s.delays.push(written.requeueAfterMs);
  return status;
}
