/**
 * The pod deletion costs that make a scale-in remove pods from the right subset
 * (`pkg/controller/workloadspread/update_pod_deletion_cost.go`). Kubernetes' ReplicaSet and OpenKruise's CloneSet
 * delete the pods with the lowest `controller.kubernetes.io/pod-deletion-cost` first. Of n subsets, the pods of the
 * subset at index i get 100·(n−i) while the subset holds at most its maximum, so later subsets are emptied first;
 * the pods beyond a subset's maximum (the least healthy by `ActivePods` order) get −100·(i+1) and go before any;
 * pods of no subset get −100·(n+1). For the workload's latest version the order is that; for older versions it is
 * reversed (the first subset loses its old pods first), to keep the spread during a rollout. Only CloneSet,
 * Deployment and ReplicaSet targets honour the cost. Pure.
 */
import { WorkloadSpreadAnnotations, type Pod, type WorkloadSpread, type WorkloadSpreadSubset } from '@regatta/api';
import { isPodActive } from '@regatta/lifecycle';
import { compareActivePods } from '@regatta/rollout';
import { FAKE_SUBSET } from './status.js';
import { subsetMaxReplicas } from './subset-choice.js';

/** The target kinds whose controllers honour the deletion cost. */
export const DELETION_COST_KINDS: ReadonlySet<string> = new Set(['CloneSet', 'Deployment', 'ReplicaSet']);

export interface CostWrite {
  pod: Pod;
  cost: string;
}

function subsetCosts(
  n: number,
  index: number,
  subset: WorkloadSpreadSubset | undefined,
  pods: readonly Pod[],
  replicas: number,
): CostWrite[] {
  const positive = String(100 * (n - index));
  const negative = String(-100 * (index + 1));
  const active = pods.filter(isPodActive);
  if (!subset) return active.map((pod) => ({ pod, cost: negative }));
  const max = subset.maxReplicas == null ? -1 : subsetMaxReplicas(subset.maxReplicas, replicas);
  if (max < 0 || active.length <= max) return active.map((pod) => ({ pod, cost: positive }));
  // the first (least healthy) pods beyond the maximum go first; a stable sort keeps equal pods where they were
  const order = active.map((_, i) => i).sort((a, b) => compareActivePods(active[a]!, active[b]!) || a - b);
  const extra = active.length - max;
  return order.map((i, rank) => ({ pod: active[i]!, cost: rank < extra ? negative : positive }));
}

/**
 * The costs to write: for each version's pods by subset, the cost each pod should carry, left out where it already
 * does (and a cost of "0" where a pod has none).
 */
export function deletionCosts(
  ws: WorkloadSpread,
  versioned: ReadonlyMap<string, ReadonlyMap<string, readonly Pod[]>>,
  replicas: number,
  latestVersion: string,
): CostWrite[] {
  if (!DELETION_COST_KINDS.has(ws.spec.targetRef?.kind ?? '')) return [];
  const n = ws.spec.subsets.length;
  const out: CostWrite[] = [];
  for (const [version, groups] of versioned) {
    const reverse = version !== latestVersion;
    ws.spec.subsets.forEach((subset, i) => {
      out.push(...subsetCosts(n, reverse ? n - i - 1 : i, subset, groups.get(subset.name) ?? [], replicas));
    });
    const orphans = groups.get(FAKE_SUBSET) ?? [];
    if (orphans.length > 0) out.push(...subsetCosts(n, n, undefined, orphans, replicas));
  }
  return out.filter(({ pod, cost }) => {
    const current = pod.metadata?.annotations?.[WorkloadSpreadAnnotations.PodDeletionCost];
    return current !== cost && !(current === undefined && cost === '0');
  });
}
