/**
 * Reading and writing the lifecycle state (`UpdatePodLifecycle`, `UpdatePodLifecycleWithHandler`,
 * `SetPodLifecycle`) as pure functions: the result says what to write, and the pod as it will be afterwards.
 */
import { toRfc3339 } from '@regatta/kube';
import type { LifecycleHook } from './hooks.js';
import {
  LIFECYCLE_STATE_KEY,
  LIFECYCLE_TIMESTAMP_KEY,
  LIFECYCLE_USER_AGENT,
  LifecycleState,
  type LifecycleStateType,
  PRE_DELETE_HOOK_KEY,
  PRE_UPDATE_HOOK_KEY,
} from './keys.js';
import type { Pod, PodCondition } from './pod.js';
import { withPodConditions } from './pod-conditions.js';
import { addNotReadyKey, removeNotReadyKey } from './pod-readiness.js';

/** The pod's lifecycle state: the label value, `""` when absent (unknown values are returned as they are). */
export function getPodLifecycleState(pod: Pod | null | undefined): LifecycleStateType | '' {
  return (pod?.metadata?.labels?.[LIFECYCLE_STATE_KEY] ?? '') as LifecycleStateType | '';
}

/** True in the states a pod may count as available in: `""` and `Normal`. */
export function isLifecycleStateAvailable(pod: Pod): boolean {
  const state = getPodLifecycleState(pod);
  return state === '' || state === LifecycleState.Normal;
}

/** `SetPodLifecycle`: the pod with the state label and the timestamp annotation set (for pods being created or updated whole). */
export function setPodLifecycle(pod: Pod, state: LifecycleStateType, now: Date): Pod {
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      labels: { ...(pod.metadata?.labels ?? {}), [LIFECYCLE_STATE_KEY]: state },
      annotations: { ...(pod.metadata?.annotations ?? {}), [LIFECYCLE_TIMESTAMP_KEY]: toRfc3339(now) },
    },
  };
}

/** What a state change requires. */
export interface LifecycleTransition {
  /** True when the pod's metadata must be patched (the state differs). */
  updated: boolean;
  /**
   * Strategic merge patch for the pod (`application/strategic-merge-patch+json`): state label, timestamp annotation,
   * and for a re-hook the hook's labels and finalizers (finalizers merge with the existing ones).
   */
  patch?: {
    metadata: { labels: Record<string, string>; annotations: Record<string, string>; finalizers?: string[] };
  };
  /** New `status.conditions` (the `KruisePodReady` not-ready key); write them first, via the status subresource. */
  conditions?: PodCondition[];
  /** The pod as it is after both writes. */
  pod: Pod;
}

export interface TransitionOptions {
  /** Apply the hook's not-ready policy: add a not-ready key entering PreparingDelete/PreparingUpdate, remove it entering Updated. */
  markPodNotReady?: boolean;
  /**
   * `UpdatePodLifecycleWithHandler` (an `Updated` pod that must be updated again): re-add this hook's labels and
   * finalizers with the state, and take `markPodNotReady` from it. A null hook makes the whole transition a no-op.
   */
  rehook?: LifecycleHook | null;
}

function notReadyPolicy(pod: Pod, state: LifecycleStateType, now: Date): PodCondition[] | undefined {
  switch (state) {
    case LifecycleState.PreparingDelete:
      return addNotReadyKey(pod, { userAgent: LIFECYCLE_USER_AGENT, key: PRE_DELETE_HOOK_KEY }, now);
    case LifecycleState.PreparingUpdate:
      return addNotReadyKey(pod, { userAgent: LIFECYCLE_USER_AGENT, key: PRE_UPDATE_HOOK_KEY }, now);
    case LifecycleState.Updated:
      return removeNotReadyKey(pod, { userAgent: LIFECYCLE_USER_AGENT, key: PRE_UPDATE_HOOK_KEY }, now);
    default:
      return undefined;
  }
}

/**
 * Moves the pod to `to` (`UpdatePodLifecycle`, or `UpdatePodLifecycleWithHandler` with `options.rehook`). The
 * not-ready policy runs even when the pod already is in that state; the metadata patch only when it is not.
 */
export function transition(
  pod: Pod,
  to: LifecycleStateType,
  now: Date,
  options: TransitionOptions = {},
): LifecycleTransition {
  const rehooking = 'rehook' in options;
  if (rehooking && !options.rehook) return { updated: false, pod };
  const markPodNotReady = rehooking
    ? options.rehook?.markPodNotReady === true
    : options.markPodNotReady === true;

  const conditions = markPodNotReady ? notReadyPolicy(pod, to, now) : undefined;
  let out = conditions ? withPodConditions(pod, conditions) : pod;
  if (getPodLifecycleState(pod) === to)
    return { updated: false, ...(conditions ? { conditions } : {}), pod: out };

  const labels: Record<string, string> = { [LIFECYCLE_STATE_KEY]: to };
  const annotations = { [LIFECYCLE_TIMESTAMP_KEY]: toRfc3339(now) };
  let finalizers: string[] | undefined;
  if (rehooking && options.rehook) {
    Object.assign(labels, options.rehook.labelsHandler ?? {});
    labels[LIFECYCLE_STATE_KEY] = to;
    // upstream sends `"finalizers":[]` for a hook without finalizers; an empty merge list changes nothing, so it is left out
    const handler = options.rehook.finalizersHandler ?? [];
    if (handler.length > 0) finalizers = [...handler];
  }
  const existingFinalizers = out.metadata?.finalizers ?? [];
  const mergedFinalizers = finalizers
    ? [...existingFinalizers, ...finalizers.filter((f) => !existingFinalizers.includes(f))]
    : undefined;
  out = {
    ...out,
    metadata: {
      ...out.metadata,
      labels: { ...(out.metadata?.labels ?? {}), ...labels },
      annotations: { ...(out.metadata?.annotations ?? {}), ...annotations },
      ...(mergedFinalizers && mergedFinalizers.length > 0 ? { finalizers: mergedFinalizers } : {}),
    },
  };
  return {
    updated: true,
    patch: { metadata: { labels, annotations, ...(finalizers ? { finalizers } : {}) } },
    ...(conditions ? { conditions } : {}),
    pod: out,
  };
}
