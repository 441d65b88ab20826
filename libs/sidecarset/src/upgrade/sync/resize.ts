/**
 * Sidecar resizes in a reconcile (docs/adr/0087-in-place-resource-resize.md, ../resize.ts): which pods' change is
 * resized in place (planned once per pod per round, against the SidecarSet's revisions), and the refusals. A resize
 * the API server refuses (403: beyond the node's allocatable; 422: invalid for the pod) or the kubelet reports Infeasible is told once, as a
 * Warning event `ResizeInfeasible` on the SidecarSet, and never sent again for that pod and SidecarSet hash: the pod
 * keeps its old resources until the SidecarSet changes or the pod goes.
 */
import { resizeInfeasible, resizeMessages } from '@regatta/inplace-update';
import { SidecarResizeRefusedError } from '../errors.js';
import type { Pod } from '@regatta/lifecycle';
import { isPodSidecarUpdated, resizedSidecars, sidecarSetHash } from '../pod-state.js';
import {
  type SidecarResizePlan,
  type SidecarRevisionView,
  planSidecarResize,
  podSidecarRevisionSpec,
} from '../resize.js';
import type { UpgradeSync } from './context.js';
import { podKey } from './context.js';

export const RESIZE_INFEASIBLE_REASON = 'ResizeInfeasible';

/** Per SidecarSet: the pods (`<ns>/<name>/<uid>@<set hash>`) whose resize was refused and reported. */
export class SidecarResizeRefusals {
  readonly #refused = new Map<string, Set<string>>();

  static keyOf(s: UpgradeSync, pod: Pod): string {
    return `${podKey(pod)}/${pod.metadata?.uid ?? ''}@${sidecarSetHash(s.set)}`;
  }

  has(s: UpgradeSync, pod: Pod): boolean {
    return this.#refused.get(s.key)?.has(SidecarResizeRefusals.keyOf(s, pod)) ?? false;
  }

  /** Records the refusal; true the first time. */
  add(s: UpgradeSync, pod: Pod): boolean {
    let set = this.#refused.get(s.key);
    if (!set) this.#refused.set(s.key, (set = new Set()));
    const k = SidecarResizeRefusals.keyOf(s, pod);
    if (set.has(k)) return false;
    set.add(k);
    return true;
  }

  forget(key: string): void {
    this.#refused.delete(key);
  }
}

/** The round's resize plans: `plan(pod)` (undefined: no resize needed, the without-image hash is the set's). */
export function resizePlanner(s: UpgradeSync): (pod: Pod) => SidecarResizePlan {
  const revisions = s.d.revisions.list({ namespace: s.d.controllerNamespace }) as SidecarRevisionView[];
  const plans = new WeakMap<Pod, SidecarResizePlan>();
  return (pod) => {
    const known = plans.get(pod);
    if (known) return known;
    const before = podSidecarRevisionSpec(s.set, pod, revisions);
    const plan: SidecarResizePlan = before
      ? planSidecarResize(before, s.set, pod)
      : { ok: false, reason: "the pod's SidecarSet revision is no longer in history" };
    plans.set(pod, plan);
    return plan;
  };
}

/** Reports (once) a refusal by the API server of the pod's resize; false when `err` is no such refusal. */
export async function reportResizeRefusal(
  s: UpgradeSync,
  refusals: SidecarResizeRefusals,
  pod: Pod,
  err: unknown,
): Promise<boolean> {
  if (!(err instanceof SidecarResizeRefusedError)) return false;
  if (refusals.add(s, pod))
    await s.d.recorder.warning(
      s.set,
      RESIZE_INFEASIBLE_REASON,
      resizeMessages.infeasible(podKey(pod), err.message),
    );
  return true;
}

/** Reports (once each) the updated pods whose kubelet holds this SidecarSet's resize as Infeasible. */
export async function reportInfeasibleResizes(
  s: UpgradeSync,
  refusals: SidecarResizeRefusals,
  pods: readonly Pod[],
): Promise<void> {
  for (const pod of pods) {
    if (resizedSidecars(s.set, pod).length === 0 || !isPodSidecarUpdated(s.set, pod)) continue;
    const why = resizeInfeasible(pod);
    if (why === undefined || !refusals.add(s, pod)) continue;
    await s.d.recorder.warning(s.set, RESIZE_INFEASIBLE_REASON, resizeMessages.infeasible(podKey(pod), why));
  }
}
