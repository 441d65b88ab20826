/**
 * The subset a new pod goes to, and the status change that records it (`pkg/util/workloadspread/workloadspread.go`
 * acquireSuitableSubset / updateSubsetForPod): the first subset in spec order that is not marked unschedulable and
 * still misses replicas (`missingReplicas > 0`, or -1: no limit). The choice is recorded in the subset's
 * `creatingPods` (by pod name, or by a generated id for a pod without a name yet) and its `missingReplicas` goes down
 * by one, so concurrent creations see it before the controller sees the pod. StatefulSet pods go by ordinal instead:
 * ordinals [0, max₀) to the first subset, [max₀, max₀+max₁) to the second, and so on. Pure: the caller writes the
 * status and retries on a conflict.
 */
import type { WorkloadSpread, WorkloadSpreadSubsetStatus } from '@regatta/api';
import { scaleK8s } from '@regatta/kube';

/** How many pods the subset may have: -1 for no limit (`maxReplicas` unset), a percentage of `replicas` rounded up. */
export function subsetMaxReplicas(max: number | string | undefined, replicas: number): number {
  if (max == null) return -1;
  try {
    return scaleK8s(max, replicas, true);
  } catch {
    return -1;
  }
}

/** Fresh subset statuses: each subset's `missingReplicas` its whole maximum (`initializedSubsetStatuses`). */
export function initialSubsetStatuses(ws: WorkloadSpread, replicas: number): WorkloadSpreadSubsetStatus[] {
  return ws.spec.subsets.map((s) => ({ name: s.name, replicas: 0, missingReplicas: subsetMaxReplicas(s.maxReplicas, replicas) }));
}

/** Whether a subset status is marked `Schedulable=False` (Adaptive: its pods did not schedule). */
export function unschedulable(status: WorkloadSpreadSubsetStatus | undefined): boolean {
  return (status?.conditions ?? []).some((c) => c.type === 'Schedulable' && c.status === 'False');
}

/** The subset of a StatefulSet pod by its ordinal (`<name>-<ordinal>`), skipping unschedulable subsets. */
export function subsetForOrdinal(ws: WorkloadSpread, podName: string): string | undefined {
  const m = /^(.*)-(\d+)$/.exec(podName);
  const ordinal = m ? Number(m[2]) : -1;
  let threshold = 0;
  for (const subset of ws.spec.subsets) {
    const status = ws.status?.subsetStatuses?.find((s) => s.name === subset.name);
    if (unschedulable(status)) continue;
    threshold += typeof subset.maxReplicas === 'number' ? subset.maxReplicas : 2 ** 31 - 1;
    if (ordinal < threshold) return subset.name;
  }
  return undefined;
}

export interface Placement {
  /** The chosen subset; undefined: none has room (the pod is created as it is, as upstream). */
  subset?: string;
  /** The WorkloadSpread with the choice recorded; undefined when the status does not change. */
  updated?: WorkloadSpread;
  /** The id recorded for a pod without a name (goes into the pod's annotation). */
  uid?: string;
}

export interface PlacementInput {
  ws: WorkloadSpread;
  /** The pod's name ('' when the API server will generate it). */
  podName: string;
  /** The pod's version key (matched.ts podVersion). */
  version: string;
  /** The workload's replicas, for percentages. */
  replicas: number;
  now: Date;
  /** A fresh id (for a pod without a name). */
  newUid: () => string;
  /** Whether the target is a StatefulSet (ordinal placement, no status write). */
  statefulSet?: boolean;
}

const clone = <T>(v: T): T => structuredClone(v);
/** metav1.Time: seconds, UTC. */
export const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The subset for a pod being created, and the WorkloadSpread with that recorded. */
export function placePod(input: PlacementInput): Placement {
  const { ws } = input;
  if (ws.spec.subsets.length === 1 && ws.spec.subsets[0]!.maxReplicas == null) return { subset: ws.spec.subsets[0]!.name };
  if (input.statefulSet) {
    const subset = subsetForOrdinal(ws, input.podName);
    return subset ? { subset } : {};
  }
  const updated = clone(ws);
  const status = (updated.status ??= {});
  const versioned = (status.versionedSubsetStatuses ??= {});
  let statuses = versioned[input.version];
  if (!statuses || statuses.length === 0) {
    statuses = initialSubsetStatuses(ws, input.replicas);
    versioned[input.version] = statuses;
  }
  if (input.podName) {
    const recorded = statuses.find((s) => s.creatingPods?.[input.podName] || s.deletingPods?.[input.podName]);
    if (recorded) return { subset: recorded.name };
  }
  // the Schedulable condition lives on the overall statuses (the controller writes it there)
  const chosen = statuses.find((s) => {
    const overall = status.subsetStatuses?.find((o) => o.name === s.name);
    return !unschedulable(overall) && !unschedulable(s) && (s.missingReplicas > 0 || s.missingReplicas === -1);
  });
  if (!chosen) return {};
  if (chosen.missingReplicas === -1) return { subset: chosen.name };
  const uid = input.podName ? undefined : input.newUid();
  chosen.creatingPods = { ...chosen.creatingPods, [input.podName || uid!]: rfc3339(input.now) };
  if (chosen.missingReplicas > 0) chosen.missingReplicas--;
  return { subset: chosen.name, updated, ...(uid ? { uid } : {}) };
}
