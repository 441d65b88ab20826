/**
 * The manager's reconcile of one ContainerRecreateRequest: reads it and its pod from the caches (the watcher's
 * mirrors), asks {@link decideManager} for the next write and does it through the API server. Writes carry the
 * resourceVersion they were decided on (a conflict retries with the next, fresher read). Pod readiness goes through
 * the pod's `KruisePodReady` condition (libs/lifecycle pod-readiness.ts), only for pods with that readiness gate.
 */
import { CRR_API_VERSION, CRR_KIND, CrrKeys, type ContainerRecreateRequest, type Pod } from '@regatta/api';
import type { Reader } from '@regatta/kit';
import {
  isConflict,
  isNotFound,
  toRfc3339,
  type Change,
  type KubeClient,
  type KubeObject,
} from '@regatta/kube';
import { addNotReadyKey, hasReadinessGate, KRUISE_POD_READY, removeNotReadyKey } from '@regatta/lifecycle';
import type { ReconcileContext, Reconciler, Request, Result } from '@regatta/runtime';
import { decideManager, readinessKey } from './manager.js';

export interface CrrReconcilerDeps {
  crrs: Reader<ContainerRecreateRequest & KubeObject>;
  pods: Reader<Pod & KubeObject>;
  client: KubeClient;
  now?: () => number;
}

type Crr = ContainerRecreateRequest & KubeObject;

/** Go's `time.RFC3339` (seconds): the unready-acquired annotation's format. */
const rfc3339Seconds = (ms: number) =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export class CrrReconciler implements Reconciler {
  private readonly now: () => number;

  constructor(private readonly d: CrrReconcilerDeps) {
    this.now = d.now ?? Date.now;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const crr = this.d.crrs.get(req.namespace, req.name);
    if (!crr) return {};
    const pod = this.d.pods.get(req.namespace, crr.spec?.podName ?? '');
    const now = this.now();
    const { step, requeueAfterMs } = decideManager(crr, pod, now);
    const done: Result = requeueAfterMs !== undefined ? { requeueAfterMs: Math.max(requeueAfterMs, 1) } : {};
    try {
      switch (step.kind) {
        case 'none':
          return done;
        case 'releaseNotReady':
          await this.releaseNotReady(crr, pod, now);
          return {};
        case 'removeActiveLabel':
          await this.patchMeta(crr, { labels: { [CrrKeys.Active]: null } });
          return {};
        case 'delete':
          ctx.log.info({ crr: req.name }, 'deleting ContainerRecreateRequest for ttlSecondsAfterFinished');
          await this.d.client.delete(this.ref(crr), { preconditions: { uid: crr.metadata?.uid ?? '' } });
          return {};
        case 'complete':
          ctx.log.info({ crr: req.name, message: step.message }, 'completing ContainerRecreateRequest');
          await this.d.client.patchStatus(
            this.ref(crr),
            {
              metadata: { resourceVersion: crr.metadata?.resourceVersion },
              status: { phase: 'Completed', completionTime: toRfc3339(now), message: step.message },
            },
            { type: 'merge' },
          );
          return {};
        case 'syncContainerStatuses': {
          // then, in the same pass as upstream, the pod is marked not ready (on the object the patch returned)
          const synced = (await this.patchMeta(crr, {
            annotations: { [CrrKeys.SyncContainerStatuses]: step.value },
          })) as Crr;
          if (decideManager(synced, pod, now).step.kind === 'acquireNotReady')
            await this.acquireNotReady(synced, pod!, now);
          return done;
        }
        case 'acquireNotReady':
          await this.acquireNotReady(crr, pod!, now);
          return done;
      }
    } catch (err) {
      // a stale read: the next event (or this retry) decides again on the fresh object
      if (isConflict(err)) return { requeueAfterMs: 100 };
      if (isNotFound(err)) return {};
      throw err;
    }
  }

  private ref(crr: Crr) {
    return {
      apiVersion: CRR_API_VERSION,
      kind: CRR_KIND,
      namespace: crr.metadata?.namespace ?? '',
      name: crr.metadata?.name ?? '',
    };
  }

  private patchMeta(crr: Crr, meta: Record<string, unknown>): Promise<unknown> {
    return this.d.client.patch(
      this.ref(crr),
      { metadata: { resourceVersion: crr.metadata?.resourceVersion, ...meta } },
      { type: 'merge' },
    );
  }

  private async writePodConditions(pod: Pod, conditions: unknown[] | undefined): Promise<void> {
    if (!conditions) return;
    await this.d.client.patchStatus(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: pod.metadata?.namespace ?? '',
        name: pod.metadata?.name ?? '',
      },
      { metadata: { resourceVersion: pod.metadata?.resourceVersion }, status: { conditions } },
      { type: 'merge' },
    );
  }

  /** Upstream `acquirePodNotReady`: finalizer and not-ready key when the pod has the gate; the annotation always. */
  private async acquireNotReady(crr: Crr, pod: Pod, now: number): Promise<void> {
    let current = crr;
    if (hasReadinessGate(pod, KRUISE_POD_READY)) {
      const finalizers = crr.metadata?.finalizers ?? [];
      if (!finalizers.includes(CrrKeys.UnreadyAcquired))
        current = (await this.patchMeta(crr, {
          finalizers: [...finalizers, CrrKeys.UnreadyAcquired],
        })) as Crr;
      await this.writePodConditions(pod, addNotReadyKey(pod, readinessKey(crr), new Date(now)));
    }
    await this.patchMeta(current, { annotations: { [CrrKeys.UnreadyAcquired]: rfc3339Seconds(now) } });
  }

  /** Upstream `releasePodNotReady`: the pod's key first (a pod still there), then the finalizer. */
  private async releaseNotReady(crr: Crr, pod: Pod | undefined, now: number): Promise<void> {
    if (pod && !pod.metadata?.deletionTimestamp && hasReadinessGate(pod, KRUISE_POD_READY))
      await this.writePodConditions(pod, removeNotReadyKey(pod, readinessKey(crr), new Date(now)));
    const finalizers = (crr.metadata?.finalizers ?? []).filter((f) => f !== CrrKeys.UnreadyAcquired);
    await this.patchMeta(crr, { finalizers });
  }
}

/** The requests of a pod (a pod change re-runs them): upstream `crr_event_handler.go`. */
export function crrsForPodChange(change: Change, r: { crrs: Reader<Crr> }): Request[] {
  const ns = change.object.metadata?.namespace;
  const name = change.object.metadata?.name;
  if (!ns || !name) return [];
  return r.crrs
    .list({ namespace: ns, filter: (c) => c.spec?.podName === name })
    .map((c) => ({ namespace: ns, name: c.metadata?.name ?? '' }));
}
