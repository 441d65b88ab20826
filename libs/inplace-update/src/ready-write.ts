/**
 * The `InPlaceUpdateReady=True` write of a refresh, merged with the lifecycle state change that follows it in the
 * same pass when that change goes straight to `Normal` (docs/adr/0049-inplace-ready-and-lifecycle-in-one-write.md).
 *
 * Upstream (OpenKruise `pkg/util/inplaceupdate/inplace_update.go` `Refresh`, then the workload's `refreshPodState`)
 * writes the condition through pods/status and then the lifecycle label/annotation with a pod patch: two writes. The
 * pods/status subresource keeps metadata changes (Kubernetes `pkg/registry/core/pod/strategy.go`
 * `podStatusStrategy.PrepareForUpdate` only resets spec, deletionTimestamp and ownerReferences), so both fit in one
 * strategic merge patch of pods/status. A pod an inPlaceUpdate hook holds in `Updated` keeps the two writes.
 */
import {
  LifecycleState,
  type LifecycleStateType,
  type Pod,
  type PodCondition,
  transition,
  withPodConditions,
} from '@regatta/lifecycle';

/** The lifecycle state change the caller would write after the refresh (`refreshLifecycleState`'s answer). */
export interface LifecycleAfterRefresh {
  state: LifecycleStateType;
  /** The inPlaceUpdate hook's `markPodNotReady` (the `KruisePodReady` not-ready key policy). */
  markPodNotReady?: boolean;
}

/**
 * One pods/status strategic merge patch: the conditions alone, or (`merged`) with the lifecycle label and timestamp
 * annotation too, in which case the caller must not write the lifecycle state change again.
 */
export type ReadyStatusWrite =
  | { merged: false; conditions: PodCondition[] }
  | {
      merged: true;
      conditions: PodCondition[];
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
    };

/** Whether a lifecycle state change may ride on the `InPlaceUpdateReady=True` write: only a move to `Normal`. */
export function mergesWithReady(next: LifecycleAfterRefresh | undefined): next is LifecycleAfterRefresh {
  return next?.state === LifecycleState.Normal;
}

/**
 * The status write for `InPlaceUpdateReady=True` (`readyConditions`, the refresh's `setReady` list) and, when
 * {@link mergesWithReady} and the state actually changes, the lifecycle transition of `next` computed on the pod as it
 * is after the condition (its not-ready key policy applied to those conditions).
 */
export function readyStatusWrite(
  pod: Pod,
  readyConditions: PodCondition[],
  next: LifecycleAfterRefresh | undefined,
  now: Date,
): ReadyStatusWrite {
  if (!mergesWithReady(next)) return { merged: false, conditions: readyConditions };
  const t = transition(withPodConditions(pod, readyConditions), next.state, now, {
    markPodNotReady: next.markPodNotReady === true,
  });
  // a transition that writes no metadata (already in the state) or finalizers (re-hook) keeps its own writes
  if (!t.updated || !t.patch || t.patch.metadata.finalizers)
    return { merged: false, conditions: readyConditions };
  return {
    merged: true,
    conditions: t.conditions ?? readyConditions,
    metadata: { labels: t.patch.metadata.labels, annotations: t.patch.metadata.annotations },
  };
}
