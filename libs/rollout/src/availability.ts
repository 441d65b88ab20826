/** Pod readiness and availability as CloneSet counts them. */
import { type Pod, getPodCondition, isLifecycleStateAvailable, isPodReady } from '@regatta/lifecycle';
import { isInPlaceUpdateReady } from '@regatta/inplace-update';

/**
 * k8s `podutil.IsPodAvailable`: Ready, and with `minReadySeconds > 0` ready for longer than that (a Ready condition
 * without lastTransitionTime never is).
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = getPodCondition(pod, 'Ready')?.lastTransitionTime;
  const t = since ? Date.parse(since) : Number.NaN;
  return !Number.isNaN(t) && t + minReadySeconds * 1000 < now.getTime();
}

/** CloneSet `IsPodUpdateReady`: Running, available, and not held by an in-place update (`InPlaceUpdateReady` absent or True). */
export function isPodUpdateReady(pod: Pod, minReadySeconds: number, now: Date): boolean {
  return (
    pod.status?.phase === 'Running' && isPodAvailable(pod, minReadySeconds, now) && isInPlaceUpdateReady(pod)
  );
}

/** CloneSet `IsPodAvailable`: lifecycle state `""`/`Normal` and {@link isPodUpdateReady}. */
export function isCloneSetPodAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  return isLifecycleStateAvailable(pod) && isPodUpdateReady(pod, minReadySeconds, now);
}

/** CloneSet `isPodReady`: {@link isCloneSetPodAvailable} with `minReadySeconds = 0` (the delete-ready limit counts these). */
export function isCloneSetPodReady(pod: Pod, now: Date): boolean {
  return isCloneSetPodAvailable(pod, 0, now);
}
