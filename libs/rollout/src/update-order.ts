/**
 * The order in which CloneSet updates pods (`SortUpdateIndexes`): `ActivePods` order, then the priority strategy
 * (weights or ordered keys), then the scatter strategy, then PreparingUpdate pods first. Every step is stable.
 */
import { compileLabelSelector } from '@regatta/kube';
import { LifecycleState, type Pod, getPodLifecycleState } from '@regatta/lifecycle';
import { compareActivePods } from './active-pods.js';
import type { CloneSetUpdateStrategy, UpdatePriorityStrategy, UpdateScatterTerm } from './types.js';

/** Sum of the weights of the terms whose selector matches (invalid selectors count nothing). */
export function podWeightPriority(pod: Pod, strategy: UpdatePriorityStrategy): number {
  let weight = 0;
  for (const term of strategy.weightPriority ?? []) {
    try {
      if (compileLabelSelector(term.matchSelector).matches(pod.metadata?.labels)) weight += term.weight;
    } catch {
      // ValidatedLabelSelectorAsSelector failed: the term is skipped
    }
  }
  return weight;
}

/** `getIntFromStringSuffix`: the trailing digits of a label value (`sts-10` → 10), 0 without any. */
export function intFromStringSuffix(v: string): number {
  const m = /\d+$/.exec(v);
  if (!m) return 0;
  const n = Number(m[0]);
  return Number.isSafeInteger(n) ? n : 0;
}

/** `getPodOrderPriority`: the index of the first ordered key the pod carries (-1 for none) and its value's suffix. */
export function podOrderPriority(pod: Pod, strategy: UpdatePriorityStrategy): [level: number, order: number] {
  const labels = pod.metadata?.labels ?? {};
  const terms = strategy.orderPriority ?? [];
  for (let i = 0; i < terms.length; i++) {
    const v = labels[terms[i]?.orderedKey ?? ''];
    if (v !== undefined) return [i, intFromStringSuffix(v)];
  }
  return [-1, 0];
}

/**
 * The priority sorter's comparison: higher weight first; or lower level first (pods carrying none of the keys, level
 * -1, come before all keyed pods, as upstream codes it) then higher order first. 0 keeps the previous order.
 */
export function comparePriority(a: Pod, b: Pod, strategy: UpdatePriorityStrategy): number {
  if ((strategy.weightPriority ?? []).length > 0)
    return podWeightPriority(b, strategy) - podWeightPriority(a, strategy);
  if ((strategy.orderPriority ?? []).length > 0) {
    const [la, oa] = podOrderPriority(a, strategy);
    const [lb, ob] = podOrderPriority(b, strategy);
    if (la !== lb) return la - lb;
    return ob - oa;
  }
  return 0;
}

/** The indexes stable-sorted by the priority strategy. */
export function sortByPriority(
  pods: readonly Pod[],
  indexes: readonly number[],
  strategy: UpdatePriorityStrategy | null | undefined,
): number[] {
  if (!strategy) return [...indexes];
  return [...indexes].sort((i, j) => comparePriority(pods[i] as Pod, pods[j] as Pod, strategy));
}

const labelOf = (pod: Pod | undefined, key: string) => pod?.metadata?.labels?.[key];

/** `getScatterTerms`: the terms matched by some candidate, most-matched first (ties keep strategy order). */
export function scatterTerms(
  pods: readonly Pod[],
  indexes: readonly number[],
  strategy: readonly UpdateScatterTerm[],
): UpdateScatterTerm[] {
  if (strategy.length === 1) return [...strategy];
  const counts = new Map<string, { term: UpdateScatterTerm; count: number; order: number }>();
  for (const term of strategy) {
    for (const i of indexes) {
      if (labelOf(pods[i], term.key) !== term.value) continue;
      const id = `${term.key}:${term.value}`;
      const entry = counts.get(id);
      if (entry) entry.count++;
      else counts.set(id, { term: { key: term.key, value: term.value }, count: 1, order: counts.size });
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.order - b.order).map((e) => e.term);
}

interface ScatterGroup {
  groupNum: number;
  matchedGroupSize: number;
  unmatchedGroupSize: number;
  unmatchedRemainder: number;
}

function newScatterGroup(matched: number, unmatched: number): ScatterGroup {
  const groupNum = Math.min(matched, unmatched);
  return {
    groupNum,
    matchedGroupSize: Math.round(matched / groupNum),
    unmatchedGroupSize: Math.round(unmatched / groupNum),
    unmatchedRemainder: 0,
  };
}

function groupByDensity(
  totalMatched: number,
  totalUnmatched: number,
  updateMatched: number,
  updateUnmatched: number,
): ScatterGroup {
  const total = newScatterGroup(totalMatched, totalUnmatched);
  const update = newScatterGroup(updateMatched, updateUnmatched);
  if (
    Math.fround(Math.fround(totalUnmatched) / Math.fround(totalMatched)) >=
    Math.fround(Math.fround(updateUnmatched) / Math.fround(updateMatched))
  ) {
    return update;
  }
  const byMatched = Math.trunc(updateMatched / total.matchedGroupSize);
  const byUnmatched = Math.trunc(updateUnmatched / total.unmatchedGroupSize);
  const groupNum = byMatched < byUnmatched ? byMatched : byUnmatched;
  return { ...total, groupNum, unmatchedRemainder: updateUnmatched - groupNum * total.unmatchedGroupSize };
}

/** `scatterPodsByRule`: spreads the candidates matching `term` evenly among the others. */
export function scatterByTerm(
  pods: readonly Pod[],
  indexes: readonly number[],
  term: UpdateScatterTerm,
): number[] {
  const matched: number[] = [];
  const unmatched: number[] = [];
  for (const i of indexes) ((labelOf(pods[i], term.key) ?? '') === term.value ? matched : unmatched).push(i);
  if (matched.length <= 1 || unmatched.length <= 1) return [...indexes];
  let totalMatched = 0;
  let totalUnmatched = 0;
  for (const p of pods) {
    if ((labelOf(p, term.key) ?? '') === term.value) totalMatched++;
    else totalUnmatched++;
  }
  const last = matched.pop() as number;
  totalMatched--;
  const group = groupByDensity(totalMatched, totalUnmatched, matched.length, unmatched.length);
  const out: number[] = [];
  let m = matched;
  let u = unmatched;
  if (group.unmatchedRemainder > 0) {
    out.push(...u.slice(0, group.unmatchedRemainder));
    u = u.slice(group.unmatchedRemainder);
  }
  const migrate = (src: number[], size: number): number[] => {
    if (src.length === 0) return src;
    if (src.length < size) {
      out.push(...src);
      return [];
    }
    out.push(...src.slice(0, size));
    return src.slice(size);
  };
  for (let g = 0; g < group.groupNum; g++) {
    m = migrate(m, group.matchedGroupSize);
    u = migrate(u, group.unmatchedGroupSize);
  }
  out.push(...m, ...u, last);
  return out;
}

/** The scatter sorter: every matched term applied in {@link scatterTerms} order. */
export function sortByScatter(
  pods: readonly Pod[],
  indexes: readonly number[],
  strategy: readonly UpdateScatterTerm[] | null | undefined,
): number[] {
  if (!strategy || strategy.length === 0 || indexes.length <= 1) return [...indexes];
  let out = [...indexes];
  for (const term of scatterTerms(pods, out, strategy)) out = scatterByTerm(pods, out, term);
  return out;
}

/** `SortUpdateIndexes`: the update order of the candidate indexes into `pods`. */
export function sortUpdateIndexes(
  pods: readonly Pod[],
  indexes: readonly number[],
  strategy: CloneSetUpdateStrategy | null | undefined,
): number[] {
  let out = [...indexes].sort((i, j) => compareActivePods(pods[i] as Pod, pods[j] as Pod));
  if (strategy?.priorityStrategy) out = sortByPriority(pods, out, strategy.priorityStrategy);
  if (strategy?.scatterStrategy) out = sortByScatter(pods, out, strategy.scatterStrategy);
  const preparing = (i: number) => getPodLifecycleState(pods[i]) === LifecycleState.PreparingUpdate;
  return [...out.filter(preparing), ...out.filter((i) => !preparing(i))];
}
