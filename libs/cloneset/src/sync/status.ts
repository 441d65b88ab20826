/**
 * Status step (OpenKruise `pkg/controller/cloneset/cloneset_status.go`): the status computed from the active pods
 * the cache shows now (this round's writes are seen on the next), the FailedScale / FailedUpdate condition of a
 * failed step, Progressing, and the write when something changed, on the CloneSet's status cadence (a change only
 * in counters waits for the interval, docs/adr/0050-workload-status-write-cadence.md). Returns the status and when
 * to look again (ms; 0 for none): for Progressing, or to write a deferred change.
 */
import { type Condition, setCondition } from '@regatta/kube';
import { conditionsToWrite, withResizeInfeasibleCondition } from '@regatta/inplace-update';
import type { Pod } from '@regatta/lifecycle';
import { type StatusCadence, writeStatusOnCadence } from '@regatta/workload';
import { CLONESET_GVK } from '../cloneset-object.js';
import { errText } from '../events.js';
import { type WorkloadCondition, syncProgressing } from '../progressing.js';
import {
  type ComputedCloneSetStatus,
  cloneSetStatusCadence,
  computeStatus,
  statusChanged,
} from '../status.js';
import type { CloneSetSync } from './context.js';

export interface StepFailure {
  type: 'FailedScale' | 'FailedUpdate';
  err: unknown;
}

export interface StatusInput {
  pods: Pod[];
  updateRevision: string;
  currentRevision: string;
  collisionCount: number;
  failure: StepFailure | undefined;
  /** The reconciler's last status write per CloneSet. */
  cadence: StatusCadence;
}

export async function statusStep(
  s: CloneSetSync,
  input: StatusInput,
): Promise<{ status: ComputedCloneSetStatus; requeueAfterMs: number; writeAfterMs: number }> {
  const { cs, spec } = s;
  const now = s.now();
  let conditions = (cs.status?.['conditions'] as Condition[] | undefined) ?? [];
  if (input.failure) {
    // a failure repeated is the same condition: no new transition time, no status write, no requeue by our own
    // write; the reconciler's error backs the CloneSet off in the queue's rate limiter
    conditions = setCondition(
      conditions,
      { type: input.failure.type, status: 'True', message: errText(input.failure.err) },
      now,
      { keepWhileUnchanged: true },
    );
  }
  // pods whose node refused their resize (docs/adr/0087-in-place-resource-resize.md)
  conditions = withResizeInfeasibleCondition(
    conditions,
    input.pods,
    (cs0, c) => setCondition(cs0, c, now),
    s.resizeRefused,
  );
  const status = computeStatus({
    generation: cs.metadata?.generation ?? 0,
    specReplicas: spec.replicas ?? 1,
    partition: spec.updateStrategy?.partition,
    minReadySeconds: spec.minReadySeconds ?? 0,
    selector: cs.spec?.selector,
    pods: input.pods,
    updateRevision: input.updateRevision,
    currentRevision: input.currentRevision,
    collisionCount: input.collisionCount,
    conditions,
    now,
  });
  const progress = syncProgressing({
    progressDeadlineSeconds: cs.spec?.['progressDeadlineSeconds'] as number | null | undefined,
    paused: spec.updateStrategy?.paused === true,
    specReplicas: spec.replicas ?? 1,
    status,
    conditions: (status.conditions ?? []) as WorkloadCondition[],
    now,
  });
  // the last condition removed goes out as an empty list: a merge patch without `conditions` would keep it
  const toWrite = conditionsToWrite(cs.status?.['conditions'] as unknown[] | undefined, progress.conditions);
  if (toWrite) status.conditions = toWrite;
  else delete status.conditions;
  const written = await writeStatusOnCadence(s.d.client, {
    workload: cs,
    kind: CLONESET_GVK,
    status,
    changed: (stored, next) => statusChanged(stored as Record<string, unknown> | undefined, next),
    ownWrites: s.ownWrites,
    cadence: input.cadence,
    rules: cloneSetStatusCadence(spec.replicas ?? 1),
    now,
    // the reconcile ends in the failure's error: its back-off, not a requeue, brings the next one
    urgent: input.failure !== undefined,
  });
  return { status, requeueAfterMs: progress.requeueAfterMs, writeAfterMs: written.requeueAfterMs };
}
