/**
 * In-place update writes (OpenKruise `pkg/util/inplaceupdate/inplace_update.go`, its `inplaceupdate.Interface`):
 * the per-reconcile refresh of a pod and the in-place update itself. Every write reports the pod the server
 * answered to `onWritten`, so the caller expects to see that version in its cache.
 *
 * Where upstream PUTs the pod it read, the pod goes out as one JSON patch from the pod read to the pod planned
 * (`updatePatch`): the pod read may be a cache's projection (docs/adr/0060-pod-projection.md), which a PUT would strip
 * of the fields it left out. The patch replaces `metadata.resourceVersion` with the version read, so a stale pod is
 * refused with 409 Conflict as the PUT was: one write per pod, the same retries.
 */
import { POD_GVK, isBudgetRefusal } from '@regatta/api';
import {
  ForbiddenError,
  type KubeClient,
  isConflict,
  isNotFound,
  retryOnConflict,
  settleWrite,
  versionAfter,
  writeUpdatePatch,
} from '@regatta/kube';
import {
  type Pod,
  type PodWriteDeps,
  writePodConditions,
  writePodConditionsAndMetadata,
} from '@regatta/lifecycle';
import type { ControllerRevision } from '@regatta/revision';
import { type LifecycleAfterRefresh, readyStatusWrite } from './ready-write.js';
import { type ContainerResources, resizePatch } from './resize.js';
import { refreshInPlaceUpdate } from './refresh.js';
import {
  type InPlaceUpdatePlan,
  type NotInPlace,
  type PlanInPlaceUpdateOptions,
  planInPlaceUpdate,
} from './update.js';

const POD = POD_GVK;

export interface InPlaceUpdateControlDeps extends PodWriteDeps {
  client: Pick<KubeClient, 'get' | 'patch' | 'patchStatus' | 'request'>;
}

/** What an in-place update did. */
export type InPlaceUpdateResult =
  /** Written; requeue after `delayMs` (the grace period) when > 0. */
  | { updated: true; delayMs: number }
  /** Cannot be done in place (recreate, or fail under InPlaceOnly). */
  | { updated: false; notInPlace: NotInPlace };

/** What a refresh did. */
export interface InPlaceRefreshResult {
  /** When to look at the pod again (the grace period's rest, ms); 0 for no need. */
  delayMs: number;
  /**
   * True when the lifecycle state change passed to `refresh` went out with the `InPlaceUpdateReady=True` write (one
   * pods/status write); the caller must not write it again. False: the caller writes it, as before.
   */
  transitioned: boolean;
}

/**
 * A 403 of `pods/resize` that refuses the resize itself (Kubernetes 1.35+ checks the node's allocatable: "node didn't
 * have enough allocatable resources"), not an RBAC denial ("cannot patch resource") nor a budget's refusal.
 */
export function isResizeRefusal(err: unknown): err is ForbiddenError {
  if (!(err instanceof ForbiddenError) || isBudgetRefusal(err)) return false;
  const text = err.serverMessage || err.message;
  return !/cannot \w+ resource/.test(text) && /allocatable|capacity|infeasible/i.test(text);
}

export class InPlaceUpdateControl {
  readonly #d: InPlaceUpdateControlDeps;
  #resizeServed: Promise<boolean> | undefined;

  constructor(deps: InPlaceUpdateControlDeps) {
    this.#d = deps;
  }

  /**
   * Refreshes the pod's in-place update (grace period end, next container batch, `InPlaceUpdateReady` back to True).
   * `next` is the lifecycle state change the caller writes after the refresh in the same pass; a move to `Normal`
   * goes out with the `InPlaceUpdateReady=True` write ({@link readyStatusWrite}). A pod changed or gone meanwhile is
   * left to the next round, unless the write carried the lifecycle change (its error is the caller's, as the
   * lifecycle write's would be).
   */
  async refresh(pod: Pod, now: Date, next?: LifecycleAfterRefresh): Promise<InPlaceRefreshResult> {
    const refresh = refreshInPlaceUpdate(pod, { now });
    if (refresh.action === 'wait') return { delayMs: refresh.delaySeconds * 1000, transitioned: false };
    if (refresh.action === 'setReady') {
      const write = readyStatusWrite(pod, refresh.conditions, next, now);
      if (write.merged) {
        await writePodConditionsAndMetadata(this.#d, pod, write.conditions, write.metadata);
        return { delayMs: 0, transitioned: true };
      }
    }
    try {
      if (refresh.action === 'update') {
        // the resize first: the pod write below then goes on the version it answered
        const resized = await this.#resize(pod, refresh.resize, pod.metadata?.resourceVersion);
        const rv = resized?.metadata?.resourceVersion ?? pod.metadata?.resourceVersion;
        this.#d.onWritten?.(await writeUpdatePatch(this.#d.client, POD, pod, refresh.pod, rv));
      } else if (refresh.action === 'setReady') await writePodConditions(this.#d, pod, refresh.conditions);
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
    return { delayMs: 0, transitioned: false };
  }

  /**
   * Whether the API server serves `pods/resize` (discovery of `/api/v1`, asked once; a failed answer is asked again
   * next time). Vertical scaling needs it (docs/adr/0087-in-place-resource-resize.md).
   */
  async resizeServed(): Promise<boolean> {
    this.#resizeServed ??= this.#d.client
      .request<{ resources?: { name?: string }[] }>('GET', '/api/v1')
      .then((list) => (list.resources ?? []).some((r) => r.name === 'pods/resize'));
    try {
      return await this.#resizeServed;
    } catch (err) {
      this.#resizeServed = undefined;
      throw err;
    }
  }

  /**
   * Sends the new requests/limits through `pods/resize` (a strategic merge patch on the version read, so a pod
   * changed meanwhile is refused with 409). Returns the pod the server answered, or undefined when the pod already
   * asks for them (a retry after the resize went through).
   */
  async #resize(pod: Pod, resize: Record<string, ContainerResources> | undefined, rv: string | undefined) {
    if (!resize) return undefined;
    const body = resizePatch(pod, resize, rv);
    if (!body) return undefined;
    const out = await this.#d.client.patch<Pod>(
      { ...POD, namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' },
      body,
      { type: 'strategic', subresource: 'resize' },
    );
    this.#d.onWritten?.(out);
    return out;
  }

  /** Whether the pod can be updated from `oldRevision` to `target` in place (nothing written). */
  plan(
    pod: Pod,
    oldRevision: ControllerRevision | undefined,
    target: ControllerRevision,
    options: PlanInPlaceUpdateOptions,
  ): InPlaceUpdatePlan | NotInPlace {
    return planInPlaceUpdate(pod, oldRevision, target, options);
  }

  /**
   * Updates the pod in place: the readiness condition first (when the pod has the gate), then the pod, both on the
   * version read (the cached pod first; a fresh read after a conflict, retried).
   */
  async update(
    pod: Pod,
    oldRevision: ControllerRevision | undefined,
    target: ControllerRevision,
    options: PlanInPlaceUpdateOptions,
  ): Promise<InPlaceUpdateResult> {
    const { client } = this.#d;
    let attempt = 0;
    let result: InPlaceUpdateResult | undefined;
    await retryOnConflict(async () => {
      const fresh =
        attempt++ === 0
          ? pod
          : await client.get<Pod>({
              ...POD,
              namespace: pod.metadata?.namespace,
              name: pod.metadata?.name ?? '',
            });
      const p = planInPlaceUpdate(fresh, oldRevision, target, options);
      if (!p.inPlace) {
        result = { updated: false, notInPlace: p };
        return;
      }
      let rv = fresh.metadata?.resourceVersion;
      try {
        if (p.conditions)
          rv = (await writePodConditions(this.#d, fresh, p.conditions, rv)).metadata?.resourceVersion;
        // resources change only through pods/resize; the pod write (revision, state, images) follows on the
        // version it answered, its patch leaves resources alone (docs/adr/0087-in-place-resource-resize.md)
        let resized: Pod | undefined;
        try {
          resized = await this.#resize(fresh, p.resize, rv);
        } catch (err) {
          // the API server refuses a resize the node cannot hold (403: more than its allocatable): nothing is
          // written past the readiness condition, and the caller reports it (docs/adr/0087)
          if (!isResizeRefusal(err)) throw err;
          result = {
            updated: false,
            notInPlace: {
              inPlace: false,
              reason: 'ResizeRefused',
              message: err.serverMessage || err.message,
            },
          };
          return;
        }
        if (resized) rv = resized.metadata?.resourceVersion;
        const out = await writeUpdatePatch(client, POD, fresh, p.pod, rv);
        this.#d.onWritten?.(out);
      } catch (err) {
        await this.#settle(fresh, rv, err);
        throw err;
      }
      result = { updated: true, delayMs: p.delaySeconds * 1000 };
    });
    return result ?? { updated: true, delayMs: 0 };
  }

  /**
   * After a write without a clear answer (docs/adr/0061-writes-without-an-answer.md): the pod is read back and, if it
   * moved past `rv`, reported to `onWritten` as it is now, so the caller plans again only once its cache shows it (the
   * readiness condition may already be False). When the read fails too, a version after `rv` is reported instead.
   */
  async #settle(pod: Pod, rv: string | undefined, err: unknown): Promise<void> {
    let now: Pod | undefined;
    const outcome = await settleWrite(err, async () => {
      now = await this.#d.client.get<Pod>({
        ...POD,
        namespace: pod.metadata?.namespace,
        name: pod.metadata?.name ?? '',
      });
      return now.metadata?.resourceVersion !== rv;
    });
    if (outcome === 'applied' && now) this.#d.onWritten?.(now);
    const after = outcome === 'unknown' ? versionAfter(rv) : undefined;
    if (after) this.#d.onWritten?.({ ...pod, metadata: { ...pod.metadata, resourceVersion: after } });
  }
}
