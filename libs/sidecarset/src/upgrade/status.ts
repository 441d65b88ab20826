/**
 * Matched pods and status (OpenKruise `pkg/controller/sidecarset/sidecarset_processor.go` `getMatchingPods`,
 * `calculateStatus`, `inconsistentStatus`).
 */
import { partitionOf } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { StatusCadenceRules } from '@regatta/workload';
import { compiledSelector } from '../injection/match.js';
import {
  injectedSidecarSets,
  isPodActive,
  isPodSidecarUpdated,
  isPodStateConsistent,
  isSidecarPodReady,
  podHasAllSidecars,
} from './pod-state.js';
import type { SidecarSetStatusView, SidecarSetView } from './types.js';

/**
 * The pods the SidecarSet counts: selected (in a namespace it covers), active, listing it in
 * `kruise.io/sidecarset-injected-list`, and holding all its sidecar containers.
 */
export function matchingPods(
  set: SidecarSetView,
  pods: readonly Pod[],
  namespaceCovered: (namespace: string) => boolean,
): Pod[] {
  const name = set.metadata?.name ?? '';
  const selector = set.spec?.selector;
  if (!selector) return [];
  // compiled once per selector object, not once per pod: this runs over every cached pod on every reconcile
  const selects = compiledSelector(selector);
  if (!selects) return []; // a selector that cannot be used selects no pod
  return pods.filter(
    (pod) =>
      namespaceCovered(pod.metadata?.namespace ?? '') &&
      selects.matches(pod.metadata?.labels ?? {}) &&
      isPodActive(pod) &&
      injectedSidecarSets(pod).includes(name) &&
      podHasAllSidecars(set, pod),
  );
}

/** `calculateStatus`: ready = consistent and ready (idle twins on the empty image). */
export function calculateStatus(
  set: SidecarSetView,
  pods: readonly Pod[],
  latestRevision: string,
  collisionCount: number,
): Required<SidecarSetStatusView> {
  let updatedPods = 0;
  let readyPods = 0;
  let updatedReadyPods = 0;
  for (const pod of pods) {
    const updated = isPodSidecarUpdated(set, pod);
    if (updated) updatedPods++;
    if (isPodStateConsistent(set, pod) && isSidecarPodReady(set, pod)) {
      readyPods++;
      if (updated) updatedReadyPods++;
    }
  }
  return {
    observedGeneration: set.metadata?.generation ?? 0,
    matchedPods: pods.length,
    updatedPods,
    readyPods,
    updatedReadyPods,
    latestRevision,
    collisionCount,
  };
}

/** The counters of a SidecarSet's status: a change only in these may wait for the write cadence. */
export const SIDECARSET_STATUS_COUNTERS = [
  'matchedPods',
  'updatedPods',
  'readyPods',
  'updatedReadyPods',
] as const;

/**
 * How many matched pods an upgrade updates: all but the partition. A `NotUpdate` SidecarSet updates none, so its
 * partition is not read: admission checks `partition` only for `RollingUpdate` (upstream
 * `validateSidecarSetUpdateStrategy`), so a `NotUpdate` one may carry any string there (docs/reliability.md finding 20).
 */
export function expectedUpdatedPods(set: SidecarSetView, matched: number): number {
  const strategy = set.spec?.updateStrategy;
  if (strategy?.type === 'NotUpdate') return 0;
  return Math.max(0, matched - partitionOf(strategy?.partition, matched));
}

/**
 * The status write cadence of a SidecarSet (libs/workload, docs/adr/0050): counter-only changes at most once per
 * interval, written at once when the upgrade is done: every matched pod ready, at least `expectedUpdated` (what the
 * partition lets through) updated, all of them ready.
 */
export function sidecarSetStatusCadence(
  expectedUpdated: number,
): StatusCadenceRules<Required<SidecarSetStatusView>> {
  return {
    counters: SIDECARSET_STATUS_COUNTERS,
    settled: (n) =>
      n.readyPods === n.matchedPods &&
      n.updatedReadyPods === n.updatedPods &&
      n.updatedPods >= Math.min(expectedUpdated, n.matchedPods),
  };
}

/** `inconsistentStatus`: whether the computed status must be written. */
export function statusChanged(
  current: SidecarSetStatusView | undefined,
  next: Required<SidecarSetStatusView>,
): boolean {
  const c = current ?? {};
  return (
    next.observedGeneration > (c.observedGeneration ?? 0) ||
    next.matchedPods !== (c.matchedPods ?? 0) ||
    next.updatedPods !== (c.updatedPods ?? 0) ||
    next.readyPods !== (c.readyPods ?? 0) ||
    next.updatedReadyPods !== (c.updatedReadyPods ?? 0) ||
    next.latestRevision !== (c.latestRevision ?? '') ||
    next.collisionCount !== c.collisionCount
  );
}
