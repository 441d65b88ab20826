/**
 * Fills the launch barriers (OpenKruise `pkg/controller/containerlaunchpriority/container_launch_priority_controller.go`,
 * a kruise-manager controller): for a pod with barrier env and no completed mark, creates the ConfigMap
 * `<pod>-barrier` (owned by the pod), releases the next priority as {@link nextBarrierStep} says, and marks the pod
 * completed. Pods come from the cache; the ConfigMap is read with a GET (ConfigMaps are not mirrored for this
 * program), as the upstream controller reads its own cache.
 *
 * It shares the SidecarSet program's queue: SidecarSets are cluster-scoped, so a request with a namespace is a pod.
 */
import type { Change, KubeClient, KubeObject } from '@regatta/kube';
import { isAlreadyExists } from '@regatta/kube';
import type { ReconcileContext, Request, Result } from '@regatta/runtime';
import type { Pod } from '../injection/types.js';
import { barrierName } from './barrier-env.js';
import { LAUNCH_PRIORITY_COMPLETED_KEY, needsBarrier, nextBarrierStep } from './next-barrier.js';

export interface BarrierReconcilerDeps {
  pods: { get(namespace: string | undefined, name: string): KubeObject | undefined };
  client: Pick<KubeClient, 'getOrUndefined' | 'create' | 'patch'>;
}

/** The pod requests a pod change asks for (only pods waiting on a barrier). */
export function barrierRequestsForPodChange(change: Change<KubeObject>): Request[] {
  const pod = change.object as Pod;
  if (change.type === 'delete' || !needsBarrier(pod)) return [];
  const name = pod.metadata?.name;
  return name ? [{ namespace: pod.metadata?.namespace ?? '', name }] : [];
}

/** Whether a request is a pod's (namespaced) rather than a SidecarSet's (cluster-scoped). */
export const isPodRequest = (req: Request): boolean => !!req.namespace;

export class BarrierReconciler {
  constructor(private readonly deps: BarrierReconcilerDeps) {}

  async reconcile(req: Request, _ctx: ReconcileContext): Promise<Result> {
    const pod = this.deps.pods.get(req.namespace, req.name) as Pod | undefined;
    if (!pod || !needsBarrier(pod)) return {};
    const ref = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: req.namespace,
      name: barrierName(req.name),
    };
    const barrier = await this.deps.client.getOrUndefined<KubeObject & { data?: Record<string, string> }>(
      ref,
    );
    if (!barrier) {
      const owner = { apiVersion: 'v1', kind: 'Pod', name: req.name, uid: pod.metadata?.uid ?? '' };
      await this.deps.client
        .create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: ref.name, namespace: req.namespace, ownerReferences: [owner] },
        })
        .catch((err: unknown) => {
          if (!isAlreadyExists(err)) throw err;
        });
      return { requeue: true };
    }
    const step = nextBarrierStep(pod, barrier.data ?? {});
    if (step.release) {
      await this.deps.client.patch(ref, { data: { [step.release]: 'true' } }, { type: 'merge' });
    }
    if (step.completed) {
      await this.deps.client.patch(
        { apiVersion: 'v1', kind: 'Pod', namespace: req.namespace, name: req.name },
        { metadata: { annotations: { [LAUNCH_PRIORITY_COMPLETED_KEY]: 'true' } } },
        { type: 'merge' },
      );
    }
    return {};
  }
}
