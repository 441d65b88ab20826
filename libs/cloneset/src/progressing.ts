/** The `Progressing` condition (`progressDeadlineSeconds`, `pkg/controller/cloneset/cloneset_status.go`; docs/cloneset.md "Status"), pure. */
import { CloneSetProgressReasons } from '@regatta/api';
import type { ComputedCloneSetStatus } from './status.js';

const MAX_INT32 = 2147483647;

export interface WorkloadCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface ProgressingInput {
  progressDeadlineSeconds: number | null | undefined;
  paused: boolean;
  specReplicas: number;
  status: ComputedCloneSetStatus;
  conditions: readonly WorkloadCondition[];
  now: Date;
}

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The conditions with `Progressing` set as OpenKruise does, and when to look again (ms; 0 = no requeue). */
export function syncProgressing(input: ProgressingInput): {
  conditions: WorkloadCondition[];
  requeueAfterMs: number;
} {
  const others = input.conditions.filter((c) => c.type !== 'Progressing');
  const pds = input.progressDeadlineSeconds;
  if (pds == null || pds === MAX_INT32) return { conditions: others, requeueAfterMs: 0 };
  const s = input.status;
  const existing = input.conditions.find((c) => c.type === 'Progressing');
  let next: { status: string; reason: string; message: string };
  let requeueAfterMs = 0;
  if (
    s.currentRevision === s.updateRevision &&
    s.replicas === s.updatedReplicas &&
    s.updatedReplicas === s.updatedAvailableReplicas &&
    s.replicas === input.specReplicas
  ) {
    next = { status: 'True', reason: CloneSetProgressReasons.Available, message: 'CloneSet is available' };
  } else if (input.paused) {
    next = { status: 'True', reason: CloneSetProgressReasons.Paused, message: 'CloneSet is paused' };
  } else if (
    s.expectedUpdatedReplicas < input.specReplicas &&
    s.expectedUpdatedReplicas <= s.updatedAvailableReplicas
  ) {
    next = {
      status: 'True',
      reason: CloneSetProgressReasons.PartitionAvailable,
      message: 'CloneSet has been paused due to partition ready',
    };
  } else {
    const since = existing?.lastUpdateTime ? Date.parse(existing.lastUpdateTime) : Number.NaN;
    const updatedReason = existing?.reason === CloneSetProgressReasons.Updated;
    const deadline = updatedReason && !Number.isNaN(since) ? since + pds * 1000 : Number.NaN;
    if (
      existing?.reason === CloneSetProgressReasons.DeadlineExceeded ||
      (!Number.isNaN(deadline) && deadline < input.now.getTime())
    ) {
      next = {
        status: 'False',
        reason: CloneSetProgressReasons.DeadlineExceeded,
        message: `CloneSet revision ${s.updateRevision} has timed out progressing`,
      };
    } else {
      next = { status: 'True', reason: CloneSetProgressReasons.Updated, message: 'CloneSet is progressing' };
      const until = Number.isNaN(deadline) ? pds * 1000 : deadline - input.now.getTime();
      requeueAfterMs = until >= 1000 ? until + 1000 : Math.max(until, 1);
    }
  }
  if (existing && existing.status === next.status && existing.reason === next.reason)
    return { conditions: input.conditions.slice(), requeueAfterMs };
  const now = rfc3339(input.now);
  const condition: WorkloadCondition = {
    type: 'Progressing',
    ...next,
    lastUpdateTime: now,
    lastTransitionTime:
      existing && existing.status === next.status ? (existing.lastTransitionTime ?? now) : now,
  };
  return { conditions: [...others, condition], requeueAfterMs };
}
