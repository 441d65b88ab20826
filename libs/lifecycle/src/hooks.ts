/** Lifecycle hooks (`LifecycleHook`) and whether a pod is held by one (Kruise `pkg/util/lifecycle`). */
import { podLabels, type Pod, hasFinalizer } from './pod.js';

/** A hook: the pod is "hooked" while it carries these labels (exact values) / finalizers. */
export interface LifecycleHook {
  labelsHandler?: Record<string, string> | null;
  finalizersHandler?: string[] | null;
  /** Hold the pod not-ready (`KruisePodReady`) while in PreparingDelete / PreparingUpdate. Only preDelete and inPlaceUpdate. */
  markPodNotReady?: boolean;
}

/** `spec.lifecycle` of a Kruise workload. */
export interface Lifecycle {
  preDelete?: LifecycleHook | null;
  inPlaceUpdate?: LifecycleHook | null;
  preNormal?: LifecycleHook | null;
}

/** The three hooks by name. */
export type LifecycleHookName = keyof Lifecycle;

function labelValue(pod: Pod, key: string): string {
  // Go reads a missing map key as "": a hook label with an empty value matches a pod without the label
  return podLabels(pod)[key] ?? '';
}

/** `IsPodHooked`: the hook exists and the pod has ANY of its finalizers or ANY of its labels with the exact value. */
export function isPodHooked(hook: LifecycleHook | null | undefined, pod: Pod): boolean {
  if (!hook) return false;
  if ((hook.finalizersHandler ?? []).some((f) => hasFinalizer(pod, f))) return true;
  return Object.entries(hook.labelsHandler ?? {}).some(([k, v]) => labelValue(pod, k) === v);
}

/** `IsPodAllHooked`: the hook exists and the pod has ALL of its finalizers and ALL of its labels with the exact value. */
export function isPodAllHooked(hook: LifecycleHook | null | undefined, pod: Pod): boolean {
  if (!hook) return false;
  if (!(hook.finalizersHandler ?? []).every((f) => hasFinalizer(pod, f))) return false;
  return Object.entries(hook.labelsHandler ?? {}).every(([k, v]) => labelValue(pod, k) === v);
}

/**
 * Whether the hook currently holds the pod before the step it guards:
 * - `preDelete`: deletion waits while the pod is hooked (any mark present);
 * - `inPlaceUpdate`: the in-place update waits while the pod is hooked (any mark present);
 * - `preNormal`: `PreparingNormal → Normal` waits until the pod is all-hooked (every mark present).
 * A missing hook never blocks (preNormal without hook waits for scheduling instead: see `refreshLifecycleState`).
 */
export function isHookBlocking(
  pod: Pod,
  hookName: LifecycleHookName,
  lifecycle: Lifecycle | null | undefined,
): boolean {
  const hook = lifecycle?.[hookName];
  if (!hook) return false;
  return hookName === 'preNormal' ? !isPodAllHooked(hook, pod) : isPodHooked(hook, pod);
}

/** `IsHookMarkPodNotReady`. */
export function isHookMarkPodNotReady(hook: LifecycleHook | null | undefined): boolean {
  return hook?.markPodNotReady === true;
}

/** `IsLifecycleMarkPodNotReady`: the preDelete or the inPlaceUpdate hook has `markPodNotReady` (preNormal is not read). */
export function isLifecycleMarkPodNotReady(lifecycle: Lifecycle | null | undefined): boolean {
  return isHookMarkPodNotReady(lifecycle?.preDelete) || isHookMarkPodNotReady(lifecycle?.inPlaceUpdate);
}
