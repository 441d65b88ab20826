/**
 * A trace per UnitedDeployment change (service `regatta-uniteddeployment`; docs/uniteddeployment.md "Following a
 * change"): a root span `uniteddeployment.rollout` begins when the reconciler first sees a new `metadata.generation`
 * and ends once every replica is updated and ready, across as many rounds (and controller restarts) as that takes.
 * The record lives on the UnitedDeployment in `regatta.dev/rollout-trace`, as a CloneSet's rollout does
 * (docs/adr/0007). Each subset workload created, updated or deleted is a child span. The rollouts the change caused in
 * the subset workloads are traced by their own programs (CloneSet, Advanced StatefulSet) in the same annotation on
 * the workload; once one appears, a `uniteddeployment.subset-rollout` span links to it, so the change leads to them.
 */
import { type Link, trace } from '@opentelemetry/api';
import {
  ROLLOUT_TRACE_ANNOTATION,
  type RolloutProgress,
  type RolloutRecord,
  type RolloutTraceControl,
  contextFromTraceparent,
  parseRolloutRecord,
} from '@regatta/workload';
import type { SubsetWorkload } from '../subset/workload.js';
import type { UnitedDeployment, UnitedDeploymentStatus } from '../types.js';

export interface SubsetWrite {
  action: 'create' | 'update' | 'delete';
  subset: string;
  workload: SubsetWorkload;
  reason?: string;
}

function linkTo(record: RolloutRecord): Link[] {
  const ctx = contextFromTraceparent(record.traceparent);
  const sc = ctx ? trace.getSpanContext(ctx) : undefined;
  return sc ? [{ context: sc, attributes: { 'uniteddeployment.link': 'subset-rollout' } }] : [];
}

const subsetAttributes = (ud: UnitedDeployment, subset: string, workload: SubsetWorkload) => ({
  'k8s.namespace.name': ud.metadata?.namespace ?? '',
  'uniteddeployment.name': ud.metadata?.name ?? '',
  'uniteddeployment.subset': subset,
  'uniteddeployment.workload': workload.metadata?.name ?? '',
  'uniteddeployment.workload.kind': workload.kind ?? '',
});

/** A span per subset workload written this round, under the change's trace. */
export function traceSubsetWrites(
  traces: RolloutTraceControl,
  record: RolloutRecord | undefined,
  ud: UnitedDeployment,
  writes: readonly SubsetWrite[],
  start: Date,
  end: Date,
): void {
  for (const w of writes) {
    traces.span(
      record,
      `subset-${w.action}`,
      start,
      end,
      { ...subsetAttributes(ud, w.subset, w.workload), ...(w.reason ? { 'uniteddeployment.reason': w.reason } : {}) },
    );
  }
}

/**
 * The subset rollouts that began during the change (a second of clock skew allowed) and are not linked yet: a
 * `subset-rollout` span each, from the subset rollout's start until now, linked to its trace. `linked` holds the
 * subset traces already linked by this process for this change.
 */
export function linkSubsetRollouts(
  traces: RolloutTraceControl,
  record: RolloutRecord | undefined,
  ud: UnitedDeployment,
  subsets: ReadonlyMap<string, { workload: SubsetWorkload }>,
  linked: Set<string>,
  now: Date,
): void {
  if (!record || record.done) return;
  const changeStart = Date.parse(record.start);
  for (const [name, { workload }] of subsets) {
    const sub = parseRolloutRecord(workload.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION]);
    const start = sub ? Date.parse(sub.start) : Number.NaN;
    if (!sub || linked.has(sub.traceparent) || !(start >= changeStart - 1000)) continue;
    linked.add(sub.traceparent);
    traces.span(record, 'subset-rollout', new Date(start), now, subsetAttributes(ud, name, workload), linkTo(sub));
  }
}

/**
 * What the change's end is decided from: every replica the spec asks for updated and ready, with the manual
 * partitions as the rollout's partition hold.
 */
export function changeProgress(ud: UnitedDeployment, status: UnitedDeploymentStatus): RolloutProgress {
  const replicas = ud.spec.replicas ?? 0;
  const partitioned = Object.values(status.updateStatus?.currentPartitions ?? {}).reduce((a, b) => a + b, 0);
  return {
    updateRevision: status.updatedRevision ?? '',
    currentRevision: status.currentRevision ?? '',
    replicas,
    updatedReplicas: status.updatedReplicas ?? 0,
    updatedReadyReplicas: status.updatedReadyReplicas ?? 0,
    expectedUpdatedReplicas: Math.max(0, replicas - partitioned),
    paused: false,
  };
}
