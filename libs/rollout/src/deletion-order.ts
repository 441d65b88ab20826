/**
 * Which pods a CloneSet deletes first when scaling in (`ActivePodsWithRanks`, `choosePodsToDelete`), with the rankers
 * that prefer pods crowded on one node (`sameNodeRanker`) or in one topology domain (`spreadConstraintsRanker`).
 * Sorting is stable (Go's `sort.Sort` is not; ties may resolve differently from upstream, never against a rule).
 */
import { Annotations } from '@regatta/api';
import type { Labels } from '@regatta/kube';
import { type Pod, isPodReady } from '@regatta/lifecycle';
import {
  compareAfterOrZero,
  compareAssigned,
  maxContainerRestarts,
  phaseRank,
  podReadyTime,
} from './active-pods.js';

/** Pod annotation: int32 cost of deleting the pod; lower is deleted first. */
export const POD_DELETION_COST_ANNOTATION = Annotations.PodDeletionCost;

/** `core/v1` hostname node label; the spread ranker does not apply the same-node ranker within it. */
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** A pod's rank: higher ranks are deleted first among otherwise equal pods. */
export type Ranks = ReadonlyMap<Pod, number>;

// Go: the first character must be '-', a non-zero digit, or the string is exactly "0"; then strconv.ParseInt
const VALID_COST = /^(0|-\d+|[1-9]\d*)$/;

/** `getDeletionCostFromPodAnnotations`: the annotation as int32; missing, `+1`, `007`, out of range or junk → 0. */
export function podDeletionCost(pod: Pod): number {
  const v = pod.metadata?.annotations?.[POD_DELETION_COST_ANNOTATION];
  if (v === undefined || !VALID_COST.test(v)) return 0;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

export interface DeletionOrderOptions {
  ranks?: Ranks;
  /** CloneSet availability (lifecycle state and minReadySeconds); when absent only readiness is compared. */
  isAvailable?: (pod: Pod) => boolean;
}

/** `ActivePodsWithRanks.Less` as a comparator (negative: `a` is deleted first). */
export function compareForDeletion(a: Pod, b: Pod, options: DeletionOrderOptions = {}): number {
  const assigned = compareAssigned(a, b);
  if (assigned !== 0) return assigned;
  if (phaseRank(a) !== phaseRank(b)) return phaseRank(a) - phaseRank(b);
  if (options.isAvailable) {
    const aa = options.isAvailable(a);
    if (aa !== options.isAvailable(b)) return aa ? 1 : -1;
  }
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) return ra ? 1 : -1;
  const cost = podDeletionCost(a) - podDeletionCost(b);
  if (cost !== 0) return cost;
  const rankA = options.ranks?.get(a) ?? 0;
  const rankB = options.ranks?.get(b) ?? 0;
  if (rankA !== rankB) return rankB - rankA;
  if (ra && rb) {
    const ready = compareAfterOrZero(podReadyTime(a), podReadyTime(b));
    if (ready !== 0) return ready;
  }
  const restarts = maxContainerRestarts(b) - maxContainerRestarts(a);
  if (restarts !== 0) return restarts;
  return compareAfterOrZero(a.metadata?.creationTimestamp, b.metadata?.creationTimestamp);
}

/** The pods sorted for deletion (first = deleted first); the input is not modified. */
export function sortForDeletion(pods: readonly Pod[], options: DeletionOrderOptions = {}): Pod[] {
  return [...pods].sort((a, b) => compareForDeletion(a, b, options));
}

/**
 * `NewSameNodeRanker`: on each node hosting at least two pods, the pods sorted by `ActivePods` without the last one
 * get ranks n, n-1, …, 1 (n = count - 1); everyone else 0.
 */
export function sameNodeRanks(pods: readonly Pod[]): Map<Pod, number> {
  const byNode = new Map<string, Pod[]>();
  for (const p of pods) {
    const node = p.spec?.nodeName ?? '';
    if (node === '') continue;
    byNode.set(node, [...(byNode.get(node) ?? []), p]);
  }
  const ranks = new Map<Pod, number>();
  for (const group of byNode.values()) {
    if (group.length <= 1) continue;
    const sorted = [...group].sort((a, b) => compareForDeletion(a, b)).slice(0, -1);
    sorted.forEach((p, i) => ranks.set(p, sorted.length - i));
  }
  return ranks;
}

/** One spread constraint: the topology key, optionally limited to some values. */
export interface PodSpreadConstraint {
  topologyKey: string;
  limitedValues?: readonly string[];
}

/**
 * `NewSpreadConstraintsRanker`: per constraint, pods grouped by their node's label value (pods on nodes not found or
 * without the label are ignored); within each group sorted (with the same-node ranks unless the key is the hostname)
 * and ranked n…1; ranks summed over constraints, weighted by `ln(number of groups + 2)`. `nodeLabels` returns
 * undefined for a node that does not exist.
 */
export function spreadConstraintRanks(
  pods: readonly Pod[],
  constraints: readonly PodSpreadConstraint[],
  nodeLabels: (nodeName: string) => Labels | undefined,
): Map<Pod, number> {
  const nodes: { name: string; labels: Readonly<Record<string, string>> }[] = [];
  const podsOnNode = new Map<string, Pod[]>();
  for (const p of pods) {
    const name = p.spec?.nodeName ?? '';
    if (name === '') continue;
    if (!podsOnNode.has(name)) {
      const labels = nodeLabels(name);
      if (labels === undefined) continue;
      nodes.push({ name, labels: labels ?? {} });
      podsOnNode.set(name, []);
    }
    podsOnNode.get(name)?.push(p);
  }
  const sameNode = sameNodeRanks(pods);
  const ranks = new Map<Pod, number>();
  for (const c of constraints) {
    const limited = c.limitedValues && c.limitedValues.length > 0 ? new Set(c.limitedValues) : undefined;
    const groups = new Map<string, Pod[]>();
    for (const node of nodes) {
      const value = node.labels[c.topologyKey];
      if (value === undefined || (limited && !limited.has(value))) continue;
      groups.set(value, [...(groups.get(value) ?? []), ...(podsOnNode.get(node.name) ?? [])]);
    }
    const weight = Math.log(groups.size + 2);
    const inner = c.topologyKey === HOSTNAME_LABEL ? undefined : sameNode;
    for (const group of groups.values()) {
      const sorted = [...group].sort((a, b) => compareForDeletion(a, b, inner ? { ranks: inner } : {}));
      sorted.forEach((p, i) => ranks.set(p, (ranks.get(p) ?? 0) + (sorted.length - i) * weight));
    }
  }
  return ranks;
}

export interface ChooseVictimsInput {
  /** `scaleDownNum`. */
  total: number;
  /** `scaleDownNumOldRevision`. */
  oldRevision: number;
  notUpdatedPods: readonly Pod[];
  updatedPods: readonly Pod[];
  /** Spread constraints from `template.spec.topologySpreadConstraints` (topology keys); empty → same-node ranker. */
  spreadConstraints?: readonly PodSpreadConstraint[];
  /** Node labels lookup for the spread ranker. */
  nodeLabels?: (nodeName: string) => Labels | undefined;
  isAvailable?: (pod: Pod) => boolean;
}

/**
 * `choosePodsToDelete`: `min(total, oldRevision)` victims from the not-updated pods, the rest from the updated ones,
 * each group ordered by {@link compareForDeletion} with its ranker (not sorted when the whole group goes).
 */
export function choosePodsToDelete(input: ChooseVictimsInput): Pod[] {
  const choose = (pods: readonly Pod[], diff: number): Pod[] => {
    if (diff >= pods.length) return [...pods];
    const ranks =
      input.spreadConstraints && input.spreadConstraints.length > 0
        ? spreadConstraintRanks(pods, input.spreadConstraints, input.nodeLabels ?? (() => undefined))
        : sameNodeRanks(pods);
    return sortForDeletion(pods, {
      ranks,
      ...(input.isAvailable ? { isAvailable: input.isAvailable } : {}),
    }).slice(0, diff);
  };
  if (input.oldRevision >= input.total) return choose(input.notUpdatedPods, input.total);
  if (input.oldRevision > 0)
    return [
      ...choose(input.notUpdatedPods, input.oldRevision),
      ...choose(input.updatedPods, input.total - input.oldRevision),
    ];
  return choose(input.updatedPods, input.total);
}
