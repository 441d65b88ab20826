/**
 * Lifecycle writes (OpenKruise `pkg/util/lifecycle/lifecycle_utils.go`, its `lifecycle.Interface`): a state change
 * of a pod as the labels/annotations patch and the not-ready condition {@link transition} computed, and the pod
 * writes other controls share (status conditions, a strategic merge patch). Every write reports the pod the
 * server answered to `onWritten`, so the caller expects to see that version in its cache.
 */
import { POD_GVK } from '@regatta/api';
import { type KubeClient, type KubeObject, isConflict } from '@regatta/kube';
import type { Pod, PodCondition } from './pod.js';
import type { LifecycleStateType } from './keys.js';
import { initialKruisePodReady } from './pod-readiness.js';
import { type TransitionOptions, transition } from './state.js';

const POD = POD_GVK;

export type PodWriter = Pick<KubeClient, 'patch' | 'patchStatus'>;

export interface PodWriteDeps {
  client: PodWriter;
  /** Each pod as the server answered a write. */
  onWritten?: (pod: KubeObject) => void;
}

/** Writes status conditions (strategic merge by type); returns the pod the server answered. */
export async function writePodConditions(
  deps: PodWriteDeps,
  pod: Pod,
  conditions: PodCondition[],
  /** When given, the write fails with a conflict unless the pod is still at this version. */
  resourceVersion?: string,
): Promise<Pod> {
  const out = await deps.client.patchStatus<Pod>(
    { ...POD, namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' },
    { ...(resourceVersion ? { metadata: { resourceVersion } } : {}), status: { conditions } },
    { type: 'strategic' },
  );
  deps.onWritten?.(out);
  return out;
}

/**
 * One strategic merge patch of pods/status carrying status conditions and labels/annotations: the status
 * subresource keeps metadata changes (Kubernetes `pkg/registry/core/pod/strategy.go`
 * `podStatusStrategy.PrepareForUpdate` resets only spec, deletionTimestamp and ownerReferences). Returns the pod the
 * server answered.
 */
export async function writePodConditionsAndMetadata(
  deps: PodWriteDeps,
  pod: Pod,
  conditions: PodCondition[],
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> },
): Promise<Pod> {
  const out = await deps.client.patchStatus<Pod>(
    { ...POD, namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' },
    { metadata, status: { conditions } },
    { type: 'strategic' },
  );
  deps.onWritten?.(out);
  return out;
}

/** A strategic merge patch of the pod; returns the pod the server answered. */
export async function patchPod(deps: PodWriteDeps, pod: Pod, patch: unknown): Promise<Pod> {
  const out = await deps.client.patch<Pod>(
    { ...POD, namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' },
    patch,
    { type: 'strategic' },
  );
  deps.onWritten?.(out);
  return out;
}

/**
 * OpenKruise's podreadiness controller (`pkg/controller/podreadiness`) for the given pods: each that has the
 * `KruisePodReady` gate and no such condition gets `KruisePodReady=True` (docs/adr/0082-kruise-pod-ready-gate.md:
 * the workload that owns the pods writes it in its round). Returns the pods with each written one replaced by the
 * server's answer, so the rest of the round sees the condition.
 *
 * Each write holds the version read: a pod changed since (e.g. a ContainerRecreateRequest's not-ready key written
 * meanwhile, which the True would overwrite) answers a conflict, and that pod is returned as read — the newer
 * version's event brings another round, which looks again.
 */
export async function writeInitialKruisePodReady(deps: PodWriteDeps, pods: Pod[], now: Date): Promise<Pod[]> {
  const out: Pod[] = [];
  for (const pod of pods) {
    const condition = initialKruisePodReady(pod, now);
    if (!condition) {
      out.push(pod);
      continue;
    }
    try {
      out.push(await writePodConditions(deps, pod, [condition], pod.metadata?.resourceVersion));
    } catch (err) {
      if (!isConflict(err)) throw err;
      out.push(pod);
    }
  }
  return out;
}

export class LifecycleControl {
  readonly #d: PodWriteDeps & { now: () => Date };

  constructor(deps: PodWriteDeps & { now: () => Date }) {
    this.#d = deps;
  }

  /** Moves the pod to `to` (conditions first, then labels/annotations); true when something was written. */
  async transition(pod: Pod, to: LifecycleStateType, options: TransitionOptions = {}): Promise<boolean> {
    const t = transition(pod, to, this.#d.now(), options);
    let wrote = false;
    if (t.conditions) {
      await writePodConditions(this.#d, pod, t.conditions);
      wrote = true;
    }
    if (t.updated && t.patch) {
      await patchPod(this.#d, pod, t.patch);
      wrote = true;
    }
    return wrote;
  }
}
