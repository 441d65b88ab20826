/** The `InPlaceUpdateReady` readiness gate and condition. */
import {
  type Pod,
  type PodCondition,
  getPodCondition,
  hasReadinessGate,
  withReadinessGate,
} from '@regatta/lifecycle';
import { INPLACE_UPDATE_READY } from './keys.js';

/** True when the pod has the `InPlaceUpdateReady` readiness gate. */
export function hasInPlaceUpdateReadinessGate(pod: Pod): boolean {
  return hasReadinessGate(pod, INPLACE_UPDATE_READY);
}

/** `InjectReadinessGate`: the pod with the `InPlaceUpdateReady` gate appended if missing (for pods being created). */
export function injectInPlaceUpdateReadinessGate(pod: Pod): Pod {
  return withReadinessGate(pod, INPLACE_UPDATE_READY);
}

/** The pod's `InPlaceUpdateReady` condition, if any. */
export function inPlaceUpdateCondition(pod: Pod): PodCondition | undefined {
  return getPodCondition(pod, INPLACE_UPDATE_READY);
}

/** Not held by an in-place update: the `InPlaceUpdateReady` condition is absent or `True` (CloneSet `IsPodUpdateReady`). */
export function isInPlaceUpdateReady(pod: Pod): boolean {
  const c = inPlaceUpdateCondition(pod);
  return c === undefined || c.status === 'True';
}
