/**
 * Which pods to upgrade this round (OpenKruise `pkg/controller/sidecarset/sidecarset_strategy.go`
 * `GetNextUpgradePods`): candidates not yet updated and selected by `updateStrategy.selector`, not-upgradable ones set
 * aside, sorted by the shared update order (libs/rollout), cut by partition, then walked under maxUnavailable.
 */
import { type LabelSelector, partitionOf, scaleK8s } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { type UpdateScatterTerm, compareActivePods, sortByPriority, sortByScatter } from '@regatta/rollout';
import { compiledSelector } from '../injection/match.js';
import {
  isPodSidecarUpdated,
  isPodStateConsistent,
  isSidecarPodReady,
  podHashEntries,
  sidecarContainersInPod,
  sidecarSetHashWithoutImage,
} from './pod-state.js';
import { SIDECARSET_HASH_WITHOUT_IMAGE_KEY } from './keys.js';
import { podRunningStatuses } from './sidecar-containers.js';
import type { SidecarSetView } from './types.js';

export interface NextUpgradePods {
  upgrade: Pod[];
  notUpgradable: Pod[];
}

/**
 * `IsSidecarSetUpgradable`: only images may change in place (the pod's without-image hash must be the SidecarSet's),
 * or, beyond upstream, a change `canResize` says is resized in place (./resize.ts); a sidecar that is ready but not
 * yet consistent is mid-upgrade and waited for (`consistent: false`).
 */
export function sidecarSetUpgradable(
  set: SidecarSetView,
  pod: Pod,
  canResize: (pod: Pod) => boolean = () => false,
): { canUpgrade: boolean; consistent: boolean } {
  const name = set.metadata?.name ?? '';
  if (
    podHashEntries(pod, SIDECARSET_HASH_WITHOUT_IMAGE_KEY)[name]?.hash !== sidecarSetHashWithoutImage(set) &&
    !canResize(pod)
  )
    return { canUpgrade: false, consistent: false };
  const ready = new Map(podRunningStatuses(pod).map((s) => [s.name, s.ready]));
  for (const sidecar of [...sidecarContainersInPod(set)].sort())
    if (ready.get(sidecar) && !isPodStateConsistent(set, pod, new Set([sidecar])))
      return { canUpgrade: true, consistent: false };
  return { canUpgrade: true, consistent: true };
}

/** `parseUpdateScatterTerms`: a `*` value expands to every value of that label present on pods; duplicates dropped. */
export function parseUpdateScatterTerms(
  terms: readonly UpdateScatterTerm[],
  pods: readonly Pod[],
): UpdateScatterTerm[] {
  const out: UpdateScatterTerm[] = [];
  const add = (t: UpdateScatterTerm) => {
    if (!out.some((o) => o.key === t.key && o.value === t.value)) out.push(t);
  };
  for (const t of terms) {
    if (t.value !== '*') {
      add(t);
      continue;
    }
    for (const pod of pods) {
      const v = pod.metadata?.labels?.[t.key];
      if (v !== undefined) add({ key: t.key, value: v });
    }
  }
  return out;
}

/** `SortUpdateIndexes`: ActivePods order, then priority, then scatter (with `*` expanded). */
export function sortNextUpgradeIndexes(
  set: SidecarSetView,
  pods: readonly Pod[],
  indexes: readonly number[],
): number[] {
  const s = set.spec?.updateStrategy;
  // not CloneSet's sortUpdateIndexes: sidecar upgrades do not put PreparingUpdate pods first
  let out = [...indexes].sort((i, j) => compareActivePods(pods[i] as Pod, pods[j] as Pod));
  if (s?.priorityStrategy) out = sortByPriority(pods, out, s.priorityStrategy);
  if (s?.scatterStrategy) out = sortByScatter(pods, out, parseUpdateScatterTerms(s.scatterStrategy, pods));
  return out;
}

/** `calculateUpgradeCount`: partition kept back, then ready pods only while the unavailable budget lasts. */
export function upgradeCount(set: SidecarSetView, pods: readonly Pod[], sorted: readonly number[]): number {
  const s = set.spec?.updateStrategy;
  const total = pods.length;
  const partition = s?.partition != null ? partitionOf(s.partition, total) : 0;
  const candidates = sorted.slice(0, Math.max(0, sorted.length - partition));
  if (candidates.length === 0) return 0;
  const maxUnavailable = scaleK8s(s?.maxUnavailable ?? 1, total, true);
  let unavailable = pods.filter(
    (p) => isPodSidecarUpdated(set, p) && (!isPodStateConsistent(set, p) || !isSidecarPodReady(set, p)),
  ).length;
  let count = 0;
  for (const i of candidates) {
    if (!isSidecarPodReady(set, pods[i] as Pod)) {
      count++;
      continue;
    }
    if (unavailable >= maxUnavailable) break;
    unavailable++;
    count++;
  }
  return count;
}

/** The canary selector as a matcher compiled once; an unusable selector selects nothing (upstream). */
function canarySelects(selector: LabelSelector | null | undefined): (pod: Pod) => boolean {
  if (!selector) return () => true;
  const compiled = compiledSelector(selector);
  return compiled ? (pod) => compiled.matches(pod.metadata?.labels ?? {}) : () => false;
}

/** `GetNextUpgradePods`; `canResize`: pods whose non-image change is resized in place (./resize.ts) are upgradable. */
export function getNextUpgradePods(
  set: SidecarSetView,
  pods: readonly Pod[],
  canResize?: (pod: Pod) => boolean,
): NextUpgradePods {
  const selects = canarySelects(set.spec?.updateStrategy?.selector);
  const waiting: number[] = [];
  const notUpgradable: Pod[] = [];
  pods.forEach((pod, i) => {
    if (isPodSidecarUpdated(set, pod)) return;
    if (!selects(pod)) return;
    const { canUpgrade, consistent } = sidecarSetUpgradable(set, pod, canResize);
    if (!canUpgrade) notUpgradable.push(pod);
    else if (consistent) waiting.push(i);
  });
  const sorted = sortNextUpgradeIndexes(set, pods, waiting);
  const n = upgradeCount(set, pods, sorted);
  return { upgrade: sorted.slice(0, n).map((i) => pods[i] as Pod), notUpgradable };
}
