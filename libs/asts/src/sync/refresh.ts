/**
 * Per-pod refresh (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `refreshPodState`): the in-place
 * update's progress (grace period end, next batch, `InPlaceUpdateReady`), then the lifecycle state. Unlike CloneSet,
 * PreparingNormal → Normal does not wait for scheduling: only for the preNormal hook.
 */
import { EventReasons } from '@regatta/kube';
import { checkPodUpdateCompleted, resizeInfeasible, resizeMessages } from '@regatta/inplace-update';
import {
  LifecycleState,
  type LifecycleStateType,
  type Pod,
  getPodLifecycleState,
  isPodAllHooked,
  refreshLifecycleState,
} from '@regatta/lifecycle';
import { podRevision } from '@regatta/revision';
import type { AstsSync } from './context.js';

/** The state the pod moves to, or undefined. */
export function nextLifecycleState(
  s: AstsSync,
  pod: Pod,
  updateRevision: string,
): LifecycleStateType | undefined {
  const lifecycle = s.spec.lifecycle ?? null;
  if (getPodLifecycleState(pod) === LifecycleState.PreparingNormal) {
    return !lifecycle?.preNormal || isPodAllHooked(lifecycle.preNormal, pod)
      ? LifecycleState.Normal
      : undefined;
  }
  return refreshLifecycleState(pod, lifecycle, {
    // ASTS compares the full revision name (the default revision adapter)
    atUpdateRevision: podRevision(pod) === updateRevision,
    inPlaceUpdateCompleted: checkPodUpdateCompleted(pod).completed,
  });
}

/** Refreshes one pod; true when its lifecycle state was written. Requeue delays go to `s.delays`. */
export async function refreshPod(s: AstsSync, pod: Pod, updateRevision: string): Promise<boolean> {
  const name = pod.metadata?.name ?? '';
  const earlier = s.refreshed.get(name);
  if (earlier !== undefined) return earlier;
  s.refreshed.set(name, false);
  const now = s.now();
  // read from the cached pod, so known before the refresh: a move to Normal goes out with the refresh's
  // InPlaceUpdateReady=True write (docs/adr/0049-inplace-ready-and-lifecycle-in-one-write.md)
  const to = nextLifecycleState(s, pod, updateRevision);
  const markPodNotReady = s.spec.lifecycle?.inPlaceUpdate?.markPodNotReady === true;
  const refreshed = await s.inPlace.refresh(
    pod,
    now,
    to !== undefined ? { state: to, markPodNotReady } : undefined,
  );
  if (refreshed.delayMs > 0) s.delays.push(refreshed.delayMs);
  // a resize the node refused is reported (event here, condition in the status step), never sent again
  const infeasible = resizeInfeasible(pod);
  if (infeasible !== undefined)
    void s.d.recorder.warning(
      s.set,
      EventReasons.ResizeInfeasible,
      resizeMessages.infeasible(name, infeasible),
    );
  if (to === undefined) return false;
  const wrote = refreshed.transitioned || (await s.lifecycle.transition(pod, to, { markPodNotReady }));
  if (wrote) {
    s.refreshed.set(name, true);
    s.traces.podUpdated(s.record, pod, updateRevision, now);
  }
  return wrote;
}
