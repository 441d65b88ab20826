/**
 * The controller's round over a WorkloadSpread's pods (`pkg/controller/workloadspread/workloadspread_controller.go`
 * syncWorkloadSpread, `reschedule.go`): group the pods by version and subset (adopting pods created before the
 * spread, by their node), compute each subset's status — active `replicas`, `missingReplicas` (the maximum less the
 * active pods and the creations recorded but not seen yet, plus the deletions recorded but not done yet),
 * `creatingPods` and `deletingPods` kept until seen or timed out — and, with an Adaptive strategy, mark a subset
 * whose pods stay unschedulable past `rescheduleCriticalSeconds` `Schedulable=False` and delete those pods, so the
 * workload recreates them and the webhook places them in the next subset. A subset is tried again 5 minutes after it
 * was marked. Pure: returns what to write.
 */
import type { Pod, WorkloadSpread, WorkloadSpreadSubsetCondition, WorkloadSpreadSubsetStatus, WorkloadSpreadStatus } from '@regatta/api';
import { WorkloadSpreadAnnotations } from '@regatta/api';
import type { SchedulingNode } from '@regatta/kube';
import { isPodActive } from '@regatta/lifecycle';
import { existingPodMetadataPatch, subsetForExistingPod } from './existing-pods.js';
import { matchedOf, matchedValue, podVersion } from './matched.js';
import { rfc3339, subsetMaxReplicas } from './subset-choice.js';

/** A creation recorded by the webhook is dropped when the pod is not seen this long after (upstream `CreatPodTimeout`). */
export const CREATE_POD_TIMEOUT_MS = 30_000;
/** A deletion recorded by the webhook is dropped when the pod is still there this long after (`DeletePodTimeout`). */
export const DELETE_POD_TIMEOUT_MS = 15_000;
/** How long a subset stays unschedulable before it is tried again (`MaxScheduledFailedDuration`). */
export const UNSCHEDULABLE_RECOVERY_MS = 300_000;
/** Pods that belong to no subset of the spec (their subset was removed). */
export const FAKE_SUBSET = 'kruise.io/workloadspread-fake-subset-name';

export interface RoundInput {
  ws: WorkloadSpread;
  /** The target's pods (the target filter applied). */
  pods: readonly Pod[];
  /** The target's replicas. */
  replicas: number;
  node(name: string): SchedulingNode | undefined;
  now: Date;
}

export interface RoundEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface RoundPlan {
  /** Pods to tie to a subset (created before the spread): a strategic-merge metadata patch each. */
  adopt: { pod: Pod; subset: string; patch: Record<string, unknown> }[];
  /** pod name → subset, for every pod (adopted ones included); FAKE_SUBSET for pods of no subset. */
  subsetOf: Map<string, string>;
  /** Pods grouped by version, then subset. */
  versioned: Map<string, Map<string, Pod[]>>;
  status: WorkloadSpreadStatus;
  /** Pods that did not schedule in time (Adaptive): deleted so they are placed again. */
  reschedule: Pod[];
  events: RoundEvent[];
  /** When to look again (a recorded creation or deletion times out, a pending pod reaches its critical time). */
  requeueAfterMs?: number;
}

const ms = (t: string | undefined | null): number => (t ? Date.parse(t) : Number.NaN);

function conditionOf(s: WorkloadSpreadSubsetStatus | undefined): WorkloadSpreadSubsetCondition | undefined {
  return s?.conditions?.find((c) => c.type === 'Schedulable');
}

function setCondition(s: WorkloadSpreadSubsetStatus, status: 'True' | 'False', now: Date): void {
  const current = conditionOf(s);
  if (current && current.status === status && (current.reason ?? '') === '') return;
  const lastTransitionTime = current && current.status === status ? current.lastTransitionTime : rfc3339(now);
  s.conditions = [...(s.conditions ?? []).filter((c) => c.type !== 'Schedulable'), { type: 'Schedulable', status, ...(lastTransitionTime ? { lastTransitionTime } : {}) }];
}

/** Whether a pending pod has been unschedulable for `seconds` since its creation; else when to look again. */
export function unscheduledTimeout(pod: Pod, seconds: number, now: Date): { timedOut: boolean; afterMs?: number } {
  if (pod.metadata?.deletionTimestamp || pod.status?.phase !== 'Pending' || pod.spec?.nodeName) return { timedOut: false };
  const failed = (pod.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
  if (!failed) return { timedOut: false };
  const due = ms(pod.metadata?.creationTimestamp) + seconds * 1000;
  if (due < now.getTime()) return { timedOut: true };
  return { timedOut: false, afterMs: due - now.getTime() };
}

class Delays {
  min: number | undefined;
  push(v: number | undefined): void {
    if (v !== undefined && v >= 0 && (this.min === undefined || v < this.min)) this.min = v;
  }
}

/** Pods of one version by subset; pods created before the spread are adopted by their node. */
function groupBySubset(input: RoundInput, pods: readonly Pod[], adopt: RoundPlan['adopt']): Map<string, Pod[]> {
  const { ws } = input;
  const groups = new Map<string, Pod[]>([[FAKE_SUBSET, []], ...ws.spec.subsets.map((s) => [s.name, []] as [string, Pod[]])]);
  const missing = new Map(ws.spec.subsets.map((s) => [s.name, s.maxReplicas == null ? 2 ** 31 - 1 : subsetMaxReplicas(s.maxReplicas, input.replicas)]));
  const mine = (p: Pod) => {
    const m = matchedOf(p);
    return m && m.name === ws.metadata?.name && m.subset ? m : undefined;
  };
  for (const p of pods) {
    const m = mine(p);
    if (m && missing.has(m.subset)) missing.set(m.subset, missing.get(m.subset)! - 1);
  }
  const ignorePatch = (ws.metadata?.annotations?.[WorkloadSpreadAnnotations.IgnorePatchExistingPods] ?? '').toLowerCase() === 'true';
  for (const p of pods) {
    let subset = mine(p)?.subset;
    if (subset === undefined) {
      const found = subsetForExistingPod(ws, p, p.spec?.nodeName ? input.node(p.spec.nodeName) : undefined, missing);
      if (found) {
        subset = found.name;
        missing.set(found.name, (missing.get(found.name) ?? 0) - 1);
        const value = matchedValue({ name: ws.metadata?.name ?? '', subset: found.name });
        adopt.push({ pod: p, subset: found.name, patch: existingPodMetadataPatch(found, value, ignorePatch) });
      }
    }
    (groups.get(subset ?? FAKE_SUBSET) ?? groups.get(FAKE_SUBSET)!).push(p);
  }
  return groups;
}

function subsetStatus(
  input: RoundInput,
  index: number,
  pods: readonly Pod[],
  old: WorkloadSpreadSubsetStatus | undefined,
  delays: Delays,
  events: RoundEvent[],
): WorkloadSpreadSubsetStatus {
  const { ws, now } = input;
  const subset = ws.spec.subsets[index]!;
  const max = subsetMaxReplicas(subset.maxReplicas, input.replicas);
  const out: WorkloadSpreadSubsetStatus = { name: subset.name, replicas: 0, missingReplicas: max, creatingPods: {}, deletingPods: {} };
  const creating = { ...(old?.creatingPods ?? {}) };
  const deleting = old?.deletingPods ?? {};
  for (const pod of pods) {
    const m = matchedOf(pod);
    delete creating[m?.uid ?? pod.metadata?.name ?? ''];
    if (m?.uid) delete creating[pod.metadata?.name ?? ''];
    if (!isPodActive(pod)) continue;
    out.replicas++;
    if (out.missingReplicas > 0) out.missingReplicas--;
    const deletedAt = deleting[pod.metadata?.name ?? ''];
    if (deletedAt) {
      const due = ms(deletedAt) + DELETE_POD_TIMEOUT_MS;
      if (due < now.getTime()) {
        events.push({ type: 'Warning', reason: 'DeletePodFailed', message: `Pod ${ws.metadata?.namespace}/${pod.metadata?.name} was expected to be deleted but it wasn't` });
      } else {
        out.deletingPods![pod.metadata?.name ?? ''] = deletedAt;
        if (out.missingReplicas < max) out.missingReplicas++;
        delays.push(due - now.getTime());
      }
    }
  }
  for (const [id, createdAt] of Object.entries(creating)) {
    const due = ms(createdAt) + CREATE_POD_TIMEOUT_MS;
    if (due < now.getTime()) {
      events.push({ type: 'Warning', reason: 'CreatePodFailed', message: `Pod ${ws.metadata?.namespace}/${id} was expected to be created but it wasn't` });
    } else {
      out.creatingPods![id] = createdAt;
      if (out.missingReplicas > 0) out.missingReplicas--;
      delays.push(due - now.getTime());
    }
  }
  return out;
}

/** The subset statuses of one group of pods, with Adaptive's conditions; the pods to reschedule. */
function subsetStatuses(
  input: RoundInput,
  groups: ReadonlyMap<string, readonly Pod[]>,
  old: readonly WorkloadSpreadSubsetStatus[] | undefined,
  delays: Delays,
  events: RoundEvent[],
): { statuses: WorkloadSpreadSubsetStatus[]; reschedule: Pod[] } {
  const { ws, now } = input;
  const strategy = ws.spec.scheduleStrategy;
  const critical = strategy?.type === 'Adaptive' ? (strategy.adaptive?.rescheduleCriticalSeconds ?? 0) : 0;
  const reschedule: Pod[] = [];
  const statuses = ws.spec.subsets.map((subset, i) => {
    const previous = old?.find((s) => s.name === subset.name);
    const status = subsetStatus(input, i, groups.get(subset.name) ?? [], previous, delays, events);
    const oldCondition = conditionOf(previous);
    if (critical <= 0) return status;
    if (oldCondition) status.conditions = [structuredClone(oldCondition)];
    if (i === ws.spec.subsets.length - 1) {
      // the last subset is never rescheduled away from
      setCondition(status, 'True', now);
      return status;
    }
    const failed = (groups.get(subset.name) ?? []).filter((p) => {
      const t = unscheduledTimeout(p, critical, now);
      delays.push(t.afterMs);
      return t.timedOut;
    });
    reschedule.push(...failed);
    if (failed.length > 0) setCondition(status, 'False', now);
    else if (!oldCondition) setCondition(status, 'True', now);
    else if (oldCondition.status === 'False') {
      const due = ms(oldCondition.lastTransitionTime) + UNSCHEDULABLE_RECOVERY_MS;
      if (due < now.getTime()) {
        events.push({ type: 'Normal', reason: 'RecoverSchedulable', message: `Subset ${subset.name} of WorkloadSpread ${ws.metadata?.namespace}/${ws.metadata?.name} is recovered from unschedulable to schedulable` });
        setCondition(status, 'True', now);
      } else delays.push(due - now.getTime());
    }
    return status;
  });
  return { statuses, reschedule };
}

const emptyStatuses = (s: readonly WorkloadSpreadSubsetStatus[]) =>
  s.every((x) => x.replicas === 0 && Object.keys(x.creatingPods ?? {}).length === 0 && Object.keys(x.deletingPods ?? {}).length === 0);

/** Removes empty maps, as Go's `omitempty` leaves them out of the stored status. */
function tidy(s: WorkloadSpreadSubsetStatus): WorkloadSpreadSubsetStatus {
  const out = { ...s };
  if (Object.keys(out.creatingPods ?? {}).length === 0) delete out.creatingPods;
  if (Object.keys(out.deletingPods ?? {}).length === 0) delete out.deletingPods;
  if ((out.conditions ?? []).length === 0) delete out.conditions;
  return out;
}

/** The whole round: adoption, grouping, status and rescheduling. */
export function planRound(input: RoundInput): RoundPlan {
  const { ws } = input;
  const adopt: RoundPlan['adopt'] = [];
  const byVersion = new Map<string, Pod[]>();
  for (const p of input.pods) {
    const v = podVersion(p);
    byVersion.set(v, [...(byVersion.get(v) ?? []), p]);
  }
  const versioned = new Map<string, Map<string, Pod[]>>();
  const overall = new Map<string, Pod[]>();
  const subsetOf = new Map<string, string>();
  for (const [version, pods] of byVersion) {
    const groups = groupBySubset(input, pods, adopt);
    versioned.set(version, groups);
    for (const [subset, ps] of groups) {
      overall.set(subset, [...(overall.get(subset) ?? []), ...ps]);
      for (const p of ps) subsetOf.set(p.metadata?.name ?? '', subset);
    }
  }
  const delays = new Delays();
  const events: RoundEvent[] = [];
  const { statuses, reschedule } = subsetStatuses(input, overall, ws.status?.subsetStatuses, delays, events);
  const versionedStatuses: Record<string, WorkloadSpreadSubsetStatus[]> = {};
  const quiet = new Delays();
  for (const [version, groups] of versioned) {
    versionedStatuses[version] = subsetStatuses(input, groups, ws.status?.versionedSubsetStatuses?.[version], quiet, []).statuses.map(tidy);
  }
  // a version the webhook recorded creations for but whose pods the cache does not show yet is kept
  for (const [version, old] of Object.entries(ws.status?.versionedSubsetStatuses ?? {})) {
    if (versioned.has(version)) continue;
    const kept = subsetStatuses(input, new Map(), old, quiet, []).statuses;
    if (!emptyStatuses(kept)) versionedStatuses[version] = kept.map(tidy);
  }
  delays.push(quiet.min);
  const status: WorkloadSpreadStatus = {
    observedGeneration: ws.metadata?.generation ?? 0,
    subsetStatuses: statuses.map(tidy),
    ...(Object.keys(versionedStatuses).length > 0 ? { versionedSubsetStatuses: versionedStatuses } : {}),
  };
  return { adopt, subsetOf, versioned, status, reschedule, events, ...(delays.min !== undefined ? { requeueAfterMs: Math.max(delays.min, 100) } : {}) };
}
