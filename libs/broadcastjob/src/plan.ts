/**
 * One reconcile of a BroadcastJob as a pure decision (OpenKruise `pkg/controller/broadcastjob/broadcastjob_controller.go`
 * `Reconcile`): from the job, its pods and the nodes, the next status, the pods to delete, the nodes to give a pod,
 * the events, whether to delete the job (ttlSecondsAfterFinished) and when to look again. The reconciler makes the
 * writes and then counts them in the status as upstream does ({@link countWrites}).
 */
import type { BroadcastJob, BroadcastJobStatus, JobCondition, Pod } from '@regatta/api';
import { IntOrStringError, scaleK8s } from '@regatta/kube';
import { type Node, type SchedulingSpec, fitsNode } from './eligibility.js';
import { assignedNode, isPodActive, podsByState } from './pods.js';

export type JobEvent = { type: 'Normal' | 'Warning'; reason: string; message: string };

/** Event reasons, as upstream's. */
export const REASONS = {
  Continue: 'Continue',
  Paused: 'Paused',
  FailedPodFound: 'failed pod is found',
  DeadlineExceeded: 'DeadlineExceeded',
  JobComplete: 'JobComplete',
  TooManyActivePods: 'TooManyActivePods',
  DuplicatePod: 'DuplicatePodCreatedOnSameNode',
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
} as const;

/** The spec fields the plan reads, with upstream's defaults for an object the webhook has not defaulted. */
export interface EffectiveSpec {
  parallelism: number | string;
  completion: 'Always' | 'Never';
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
  failure: 'Continue' | 'FailFast' | 'Pause';
  restartLimit: number;
  paused: boolean;
}

export function effectiveSpec(job: BroadcastJob): EffectiveSpec {
  const cp = job.spec.completionPolicy ?? {};
  const fp = job.spec.failurePolicy ?? {};
  return {
    parallelism: job.spec.parallelism ?? 2 ** 31 - 1,
    completion: cp.type === 'Never' ? 'Never' : 'Always',
    ...(cp.activeDeadlineSeconds != null ? { activeDeadlineSeconds: cp.activeDeadlineSeconds } : {}),
    ...(cp.ttlSecondsAfterFinished != null ? { ttlSecondsAfterFinished: cp.ttlSecondsAfterFinished } : {}),
    failure: fp.type === 'Continue' ? 'Continue' : fp.type === 'Pause' ? 'Pause' : 'FailFast',
    restartLimit: fp.restartLimit ?? 0,
    paused: job.spec.paused === true,
  };
}

/** `IsJobFinished`: an Always job with a true Complete or Failed condition. */
export function isJobFinished(job: BroadcastJob): boolean {
  if (effectiveSpec(job).completion === 'Never') return false;
  return (job.status?.conditions ?? []).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** Milliseconds until the finished job is to be deleted (≤ 0: now); undefined without a ttl or completionTime. */
export function ttlLeftMs(job: BroadcastJob, now: Date): number | undefined {
  const ttl = effectiveSpec(job).ttlSecondsAfterFinished;
  const done = job.status?.completionTime;
  if (ttl == null || !done) return undefined;
  return ttl * 1000 - (now.getTime() - Date.parse(done));
}

/** Milliseconds until an Always job's activeDeadlineSeconds passes (≤ 0: passed); undefined when it has none. */
export function deadlineLeftMs(spec: EffectiveSpec, startTime: string | undefined, now: Date): number | undefined {
  if (spec.completion === 'Never' || spec.activeDeadlineSeconds == null || !startTime) return undefined;
  return spec.activeDeadlineSeconds * 1000 - (now.getTime() - Date.parse(startTime));
}

/** Most pods active at once: an integer, or a percentage of desired rounded up (`GetValueFromIntOrPercent`). */
export function parallelismOf(parallelism: number | string, desired: number): number {
  try {
    return scaleK8s(parallelism, desired, true);
  } catch (err) {
    if (err instanceof IntOrStringError) return 0;
    throw err;
  }
}

export interface NodePlacement {
  /** Eligible nodes, each with its pod or undefined (`desiredNodes`). */
  desired: Map<string, Pod | undefined>;
  /** Eligible nodes without a pod, in node order (`restNodesToRunPod`). */
  rest: string[];
  /** Pods on nodes that no longer fit them, not being deleted yet. */
  unfit: Pod[];
  /** Nodes with more than one of the job's pods. */
  duplicates: { node: string; pod: Pod }[];
}

/** `getNodeToPodMap` then `getNodesToRunPod`: where the job's pods are and where more are wanted. */
export function placePods(template: SchedulingSpec, pods: readonly Pod[], nodes: readonly Node[]): NodePlacement {
  const byNode = new Map<string, Pod>();
  const duplicates: NodePlacement['duplicates'] = [];
  for (const pod of pods) {
    const node = assignedNode(pod);
    if (byNode.has(node)) duplicates.push({ node, pod });
    byNode.set(node, pod);
  }
  const out: NodePlacement = { desired: new Map(), rest: [], unfit: [], duplicates };
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    const pod = byNode.get(name);
    // the pod is checked with its own spec (the template may have changed since it was made)
    const spec = pod ? ({ ...(pod.spec as SchedulingSpec), nodeName: name } as SchedulingSpec) : { ...template, nodeName: name };
    const fits = fitsNode(spec, node);
    if (pod) {
      if (!fits && !pod.metadata?.deletionTimestamp) {
        out.unfit.push(pod);
        continue;
      }
      out.desired.set(name, pod);
    } else if (fits) {
      out.rest.push(name);
      out.desired.set(name, undefined);
    }
  }
  return out;
}

/** `isJobComplete`: an Always job whose every eligible node has a pod that finished; no eligible node: not complete. */
export function isJobComplete(spec: EffectiveSpec, desired: ReadonlyMap<string, Pod | undefined>): boolean {
  if (spec.completion === 'Never' || desired.size === 0) return false;
  for (const pod of desired.values()) if (!pod || isPodActive(pod)) return false;
  return true;
}

export interface PlanInput {
  job: BroadcastJob;
  /** The pods the job controls (controller reference to its UID). */
  pods: readonly Pod[];
  nodes: readonly Node[];
  now: Date;
}

export interface JobPlan {
  /** The status to write (before counting this round's writes: {@link countWrites}). */
  status: BroadcastJobStatus;
  /** False when nothing but a finished job's ttl is looked at (no status write). */
  writeStatus: boolean;
  deleteJob: boolean;
  podsToDelete: Pod[];
  nodesToCreate: string[];
  events: JobEvent[];
  requeueAfterMs?: number;
}

const condition = (type: 'Complete' | 'Failed', message: string, now: string): JobCondition => ({
  type,
  status: 'True',
  lastProbeTime: now,
  lastTransitionTime: now,
  reason: type,
  message,
});

const minDefined = (...v: (number | undefined)[]): number | undefined => {
  const d = v.filter((x): x is number => x !== undefined);
  return d.length > 0 ? Math.min(...d) : undefined;
};

export function planBroadcastJob(input: PlanInput): JobPlan {
  const { job, now } = input;
  const nowIso = now.toISOString();
  const spec = effectiveSpec(job);
  const empty = { podsToDelete: [], nodesToCreate: [], events: [] as JobEvent[] };
  if (isJobFinished(job)) {
    const left = ttlLeftMs(job, now);
    return {
      ...empty,
      status: job.status as BroadcastJobStatus,
      writeStatus: false,
      deleteJob: left !== undefined && left <= 0,
      ...(left !== undefined && left > 0 ? { requeueAfterMs: left } : {}),
    };
  }
  const prev = job.status;
  const status: BroadcastJobStatus = {
    ...(prev?.conditions ? { conditions: [...prev.conditions] } : {}),
    startTime: prev?.startTime ?? nowIso,
    ...(prev?.completionTime ? { completionTime: prev.completionTime } : {}),
    active: 0,
    succeeded: 0,
    failed: 0,
    desired: 0,
    phase: prev?.phase || 'running',
  };
  const deadlineLeft = deadlineLeftMs(spec, status.startTime, now);
  const requeue = deadlineLeft !== undefined && deadlineLeft > 0 ? deadlineLeft : undefined;

  const states = podsByState(input.pods, spec.restartLimit);
  const placement = placePods((job.spec.template?.spec ?? {}) as SchedulingSpec, input.pods, input.nodes);
  status.active = states.active.length;
  status.failed = states.failed.length;
  status.succeeded = states.succeeded.length;
  status.desired = placement.desired.size;
  const events: JobEvent[] = placement.duplicates.map(({ node, pod }) => ({
    type: 'Warning' as const,
    reason: REASONS.DuplicatePod,
    message: `Duplicated pod ${pod.metadata?.name ?? ''} found on same node ${node}`,
  }));
  const plan = (p: Partial<JobPlan>): JobPlan => ({
    ...empty,
    events,
    status,
    writeStatus: true,
    deleteJob: false,
    ...p,
    ...(minDefined(p.requeueAfterMs, requeue) !== undefined ? { requeueAfterMs: minDefined(p.requeueAfterMs, requeue) } : {}),
  });

  if (status.phase === 'failed') return plan({});
  if (spec.paused && (status.phase === 'running' || status.phase === 'paused')) {
    status.phase = 'paused';
    return plan({});
  }
  if (!spec.paused && status.phase === 'paused') {
    status.phase = 'running';
    events.push({ type: 'Normal', reason: REASONS.Continue, message: 'continue to process job' });
  }
  const counts = `${status.succeeded} pods succeeded, ${status.failed} pods failed`;
  let failure: { reason: string; message: string } | undefined;
  if (status.failed > 0) {
    if (spec.failure === 'Pause') {
      events.push({ type: 'Warning', reason: REASONS.Paused, message: 'job is paused, due to failed pod' });
      status.phase = 'paused';
      return plan({});
    }
    if (spec.failure === 'FailFast') {
      failure = { reason: REASONS.FailedPodFound, message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found' };
    }
  }
  if (!failure && deadlineLeft !== undefined && deadlineLeft <= 0) {
    failure = {
      reason: REASONS.DeadlineExceeded,
      message: `Job ${job.metadata?.namespace ?? ''}/${job.metadata?.name ?? ''} was active longer than specified deadline`,
    };
  }
  if (failure) {
    status.phase = 'failed';
    status.conditions = [...(status.conditions ?? []), condition('Failed', failure.message, nowIso)];
    status.completionTime = nowIso;
    events.push({ type: 'Warning', reason: failure.reason, message: `${failure.message}: ${counts}` });
    const ttl = spec.ttlSecondsAfterFinished;
    return plan({
      podsToDelete: states.active,
      ...(ttl != null ? { requeueAfterMs: (ttl + 1) * 1000 } : {}),
    });
  }

  let nodesToCreate: string[] = [];
  if (!job.metadata?.deletionTimestamp && placement.rest.length > 0) {
    const parallelism = parallelismOf(spec.parallelism, status.desired);
    if (status.active > parallelism) {
      events.push({ type: 'Warning', reason: REASONS.TooManyActivePods, message: 'Number of active pods exceed parallelism limit' });
    } else {
      nodesToCreate = placement.rest.slice(0, Math.max(0, parallelism - status.active));
    }
  }
  let ttlRequeue: number | undefined;
  if (isJobComplete(spec, placement.desired)) {
    status.phase = 'completed';
    status.conditions = [...(status.conditions ?? []), condition('Complete', `Job completed, ${counts}`, nowIso)];
    status.completionTime = nowIso;
    events.push({
      type: 'Normal',
      reason: REASONS.JobComplete,
      message: `Job ${job.metadata?.namespace ?? ''}/${job.metadata?.name ?? ''} is completed, ${counts}`,
    });
    if (spec.ttlSecondsAfterFinished != null) ttlRequeue = (spec.ttlSecondsAfterFinished + 1) * 1000;
  }
  return plan({ podsToDelete: placement.unfit, nodesToCreate, ...(ttlRequeue !== undefined ? { requeueAfterMs: ttlRequeue } : {}) });
}

/** Upstream's counting of this round's writes: a created pod is active; a deleted pod moves from active to failed. */
export function countWrites(status: BroadcastJobStatus, created: number, deleted: number): BroadcastJobStatus {
  return { ...status, active: status.active + created - deleted, failed: status.failed + deleted };
}
