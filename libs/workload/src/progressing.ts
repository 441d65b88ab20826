/**
 * The `Progressing` condition of a workload with `progressDeadlineSeconds` (Deployment-style; OpenKruise
 * `pkg/controller/cloneset/cloneset_status.go`; docs/cloneset.md "Status"), pure. The reasons and messages name
 * the workload: each kind passes its own {@link ProgressingVocabulary}.
 */

const MAX_INT32 = 2147483647;

export interface WorkloadCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

/** The reasons of the condition, and the kind the messages name (`CloneSet is available`). */
export interface ProgressingVocabulary {
  kind: string;
  reasons: {
    Available: string;
    Paused: string;
    PartitionAvailable: string;
    DeadlineExceeded: string;
    Updated: string;
  };
}

/** The status counters the condition is decided from. */
export interface ProgressFacts {
  currentRevision: string;
  updateRevision: string;
  replicas: number;
  updatedReplicas: number;
  updatedAvailableReplicas: number;
  /** Replicas minus the resolved partition. */
  expectedUpdatedReplicas: number;
}

export interface WorkloadProgressingInput {
  progressDeadlineSeconds: number | null | undefined;
  paused: boolean;
  specReplicas: number;
  status: ProgressFacts;
  conditions: readonly WorkloadCondition[];
  now: Date;
}

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The conditions with `Progressing` set, and when to look again (ms; 0 = no requeue). Without a deadline (or with
 * MaxInt32) the condition is removed. It is rewritten only when its status or reason changes: `lastUpdateTime` then
 * moves, `lastTransitionTime` only when the status changes.
 */
export function syncWorkloadProgressing(
  input: WorkloadProgressingInput,
  v: ProgressingVocabulary,
): { conditions: WorkloadCondition[]; requeueAfterMs: number } {
  const others = input.conditions.filter((c) => c.type !== 'Progressing');
  const pds = input.progressDeadlineSeconds;
  if (pds == null || pds === MAX_INT32) return { conditions: others, requeueAfterMs: 0 };
  const s = input.status;
  const r = v.reasons;
  const existing = input.conditions.find((c) => c.type === 'Progressing');
  let next: { status: string; reason: string; message: string };
  let requeueAfterMs = 0;
  if (
    s.currentRevision === s.updateRevision &&
    s.replicas === s.updatedReplicas &&
    s.updatedReplicas === s.updatedAvailableReplicas &&
    s.replicas === input.specReplicas
  ) {
    next = { status: 'True', reason: r.Available, message: `${v.kind} is available` };
  } else if (input.paused) {
    next = { status: 'True', reason: r.Paused, message: `${v.kind} is paused` };
  } else if (
    s.expectedUpdatedReplicas < input.specReplicas &&
    s.expectedUpdatedReplicas <= s.updatedAvailableReplicas
  ) {
    next = {
      status: 'True',
      reason: r.PartitionAvailable,
      message: `${v.kind} has been paused due to partition ready`,
    };
  } else {
    const since = existing?.lastUpdateTime ? Date.parse(existing.lastUpdateTime) : Number.NaN;
    const updatedReason = existing?.reason === r.Updated;
    const deadline = updatedReason && !Number.isNaN(since) ? since + pds * 1000 : Number.NaN;
    if (
      existing?.reason === r.DeadlineExceeded ||
      (!Number.isNaN(deadline) && deadline < input.now.getTime())
    ) {
      next = {
        status: 'False',
        reason: r.DeadlineExceeded,
        message: `${v.kind} revision ${s.updateRevision} has timed out progressing`,
      };
    } else {
      next = { status: 'True', reason: r.Updated, message: `${v.kind} is progressing` };
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
