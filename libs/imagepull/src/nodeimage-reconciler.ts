/**
 * The NodeImage reconciler (docs/imagepull.md; OpenKruise `pkg/controller/nodeimage/nodeimage_controller.go`): one
 * NodeImage per Node — created once the Node has been Ready for the creation delay, labelled like the Node,
 * deleted with it (unless labelled `apps.kruise.io/fake-nodeimage`) — whose spec is kept clean (owners gone, TTLs
 * passed) and whose status fails the tags a node never answered.
 */
import {
  NODE_IMAGE_API_VERSION,
  NODE_IMAGE_KIND,
  NodeImageEventReasons,
  NodeImageLabels,
  VIRTUAL_KUBELET_NODE_TYPE,
  type ImagePullJob,
  type NodeImage,
} from '@regatta/api';
import { isAlreadyExists, isNotFound, refuseInvalidSpec, retryOnConflict, SpecGuard, type EventRecorder, type KubeClient, type KubeObject } from '@regatta/kube';
import type { Reconciler, ReconcileContext, Request, Result } from '@regatta/runtime';
import type { Reader } from './job-reconciler.js';
import { GoneJobs } from './gone-jobs.js';
import { maintainNodeImageSpec, type SpecLookups } from './nodeimage-spec.js';
import { guardNodeImageStatus, pullFailedMessage, RESPONSE_TIMEOUT_MS } from './nodeimage-status.js';
import { nodeImageSpecProblem } from './spec-guard.js';

export interface NodeLike extends KubeObject {
  status?: { conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
}

export interface NodeImageReconcilerDeps {
  nodes: Reader<KubeObject>;
  nodeimages: Reader<KubeObject>;
  imagepulljobs: Reader<KubeObject>;
  client: KubeClient;
  recorder: Pick<EventRecorder, 'warning'>;
  /** `--nodeimage-creation-delay` (default 30 s). */
  creationDelayMs?: number;
  /** How long a node has to answer a tag (default 10 min). */
  responseTimeoutMs?: number;
  now?: () => Date;
  random?: () => number;
}

const NODE_IMAGE = { apiVersion: NODE_IMAGE_API_VERSION, kind: NODE_IMAGE_KIND } as const;
export const DEFAULT_NODEIMAGE_CREATION_DELAY_MS = 30_000;
const MIN_REQUEUE_MS = 3_000;

/** Nodes labelled `type=virtual-kubelet` get no NodeImage. */
export const isVirtualKubelet = (node: KubeObject): boolean =>
  node.metadata?.labels?.[NodeImageLabels.NodeType] === VIRTUAL_KUBELET_NODE_TYPE;

/** Whether the Node is Ready, and how long until it has been Ready for `delayMs`. */
export function nodeReadyDelay(node: NodeLike, now: Date, delayMs: number): { ready: boolean; delayMs: number } {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') return { ready: false, delayMs: 0 };
  const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : 0;
  return { ready: true, delayMs: Math.max(0, delayMs - (now.getTime() - since)) };
}

export class NodeImageReconciler implements Reconciler {
  readonly #d: NodeImageReconcilerDeps;
  readonly #now: () => Date;
  /** A NodeImage stored without the webhooks that fails their rules is not acted on (spec-guard.ts). */
  readonly #specGuard = new SpecGuard(nodeImageSpecProblem);
  /** Owner jobs confirmed gone, not read again (gone-jobs.ts). */
  readonly #goneJobs = new GoneJobs();

  constructor(deps: NodeImageReconcilerDeps) {
    this.#d = deps;
    this.#now = deps.now ?? (() => new Date());
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const name = req.name;
    const node = this.#d.nodes.get(undefined, name) as NodeLike | undefined;
    const cached = this.#d.nodeimages.get(undefined, name) as NodeImage | undefined;
    if (!node || node.metadata?.deletionTimestamp) {
      if (!cached || cached.metadata?.deletionTimestamp) return {};
      if (cached.metadata?.labels?.[NodeImageLabels.FakeNodeImage] === undefined) {
        // the cache may lag behind a Node just created: only a Node the API server does not have either is gone
        const live = await this.#d.client.getOrUndefined({ apiVersion: 'v1', kind: 'Node', name });
        if (live && !live.metadata?.deletionTimestamp) return { requeueAfterMs: MIN_REQUEUE_MS };
        ctx.log.info({ nodeImage: name }, 'node is gone; deleting its NodeImage');
        await this.#d.client.delete({ ...NODE_IMAGE, name }).catch(ignoreNotFound);
        return {};
      }
    }
    if (node && isVirtualKubelet(node)) return {};
    const now = this.#now();
    if (!cached) {
      this.#specGuard.forget(name);
      if (!node) return {};
      const { ready, delayMs } = nodeReadyDelay(node, now, this.#d.creationDelayMs ?? DEFAULT_NODEIMAGE_CREATION_DELAY_MS);
      if (!ready) return {};
      if (delayMs > 0) return { requeueAfterMs: delayMs };
      await this.#d.client
        .create<NodeImage>({
          ...NODE_IMAGE,
          metadata: { name, ...(node.metadata?.labels ? { labels: { ...node.metadata.labels } } : {}) },
          spec: {},
        })
        .catch((e: unknown) => {
          if (!isAlreadyExists(e)) throw e;
        });
      return {};
    }
    if (cached.metadata?.deletionTimestamp) return {};
    const problem = this.#specGuard.problem(name, cached);
    if (problem) return refuseInvalidSpec(cached, 'NodeImage', problem, this.#d.recorder, ctx.log);

    let waitMs: number | undefined;
    // the cache may still hold a NodeImage deleted meanwhile: the API server's 404 means it is gone, not an error
    let gone = false;
    const goneIfNotFound = (e: unknown): undefined => {
      if (!isNotFound(e)) throw e;
      gone = true;
      return undefined;
    };
    const lookups = this.#lookups();
    const nodeLabels = node?.metadata?.labels ?? (node ? {} : null);
    // the cached copy first: most reconciles (after a tag or status write, or waiting for a TTL) find nothing to
    // clean, and the NodeImage, up to a megabyte, is read only when its cached copy has something (docs/
    // reliability.md finding 27); a change the cache has not seen yet brings its own reconcile
    const seen = maintainNodeImageSpec(cached, nodeLabels, await lookups(cached), now);
    waitMs = seen.waitMs;
    const updated =
      seen.updated &&
      (await retryOnConflict(async () => {
        const fresh = await this.#d.client.getOrUndefined<NodeImage>({ ...NODE_IMAGE, name });
        if (!fresh) {
          gone = true;
          return undefined;
        }
        const m = maintainNodeImageSpec(fresh, nodeLabels, await lookups(fresh), now);
        waitMs = m.waitMs;
        if (!m.updated) return undefined;
        ctx.log.info({ nodeImage: name, changes: m.messages }, 'NodeImage spec cleaned');
        return this.#d.client.replace(m.updated).catch(goneIfNotFound);
      }));
    if (updated) return {};

    const guard = guardNodeImageStatus(cached, now, this.#d.responseTimeoutMs ?? RESPONSE_TIMEOUT_MS);
    if (guard.status && !gone) {
      await this.#d.client.updateStatus<NodeImage>({ ...cached, ...NODE_IMAGE, status: guard.status }).catch(goneIfNotFound);
    }
    if (gone) {
      ctx.log.debug({ nodeImage: name }, 'NodeImage deleted while reconciled; nothing to do');
      return {};
    }
    if (guard.status) {
      for (const f of guard.failures) {
        const message = pullFailedMessage(f, name);
        for (const owner of f.owners) {
          void this.#d.recorder.warning(
            { apiVersion: owner.apiVersion, kind: owner.kind, metadata: { name: owner.name, namespace: owner.namespace, uid: owner.uid } },
            NodeImageEventReasons.PullImageFailed,
            message,
          );
        }
        void this.#d.recorder.warning(cached, NodeImageEventReasons.PullImageFailed, message);
      }
    }
    const wait = [waitMs, guard.waitMs].filter((w): w is number => w !== undefined);
    if (wait.length === 0) return {};
    const next = Math.min(...wait);
    return { requeueAfterMs: next < MIN_REQUEUE_MS ? MIN_REQUEUE_MS + Math.floor((this.#d.random ?? Math.random)() * 2000) : next };
  }

  /**
   * Owner jobs from the cache, confirmed with the API server before one is taken as gone (each UID once: gone-jobs.ts);
   * legacy secrets read live.
   */
  #lookups(): (ni: NodeImage) => Promise<SpecLookups> {
    // one reconcile's answers, shared by its look at the cached copy and at the one read (and its retries)
    const jobs = new Map<string, string | undefined | 'unknown'>();
    const secrets = new Map<string, boolean | 'unknown'>();
    return async (ni) => {
      for (const image of Object.values(ni.spec?.images ?? {})) {
        for (const tag of image.tags ?? []) {
          for (const o of tag.ownerReferences ?? []) {
            if (o.kind !== 'ImagePullJob') continue;
            const k = `${o.namespace ?? ''}/${o.name ?? ''}`;
            if (jobs.has(k)) continue;
            const cachedJob = this.#d.imagepulljobs.get(o.namespace ?? '', o.name ?? '') as ImagePullJob | undefined;
            if (cachedJob && cachedJob.metadata?.uid === o.uid) {
              jobs.set(k, o.uid);
              continue;
            }
            // a UID confirmed gone needs no read: whatever the name holds now is another job (or none)
            if (this.#goneJobs.has(o.uid)) continue;
            const live = await this.#d.client
              .getOrUndefined<ImagePullJob>({ apiVersion: o.apiVersion ?? '', kind: 'ImagePullJob', namespace: o.namespace ?? '', name: o.name ?? '' })
              .catch(() => 'unknown' as const);
            jobs.set(k, live === 'unknown' ? 'unknown' : live?.metadata?.uid);
            if (live !== 'unknown' && live?.metadata?.uid !== o.uid) this.#goneJobs.add(o.uid);
          }
        }
        for (const s of image.pullSecrets ?? []) {
          if (s.mode === 'batch') continue;
          const k = `${s.namespace ?? ''}/${s.name ?? ''}`;
          if (secrets.has(k)) continue;
          const live = await this.#d.client
            .getOrUndefined({ apiVersion: 'v1', kind: 'Secret', namespace: s.namespace ?? '', name: s.name ?? '' })
            .catch(() => 'unknown' as const);
          secrets.set(k, live === 'unknown' ? 'unknown' : live !== undefined);
        }
      }
      return {
        jobUid: (ns, n) => jobs.get(`${ns}/${n}`),
        secretExists: (ns, n) => secrets.get(`${ns}/${n}`) ?? 'unknown',
      };
    };
  }
}

function ignoreNotFound(e: unknown): undefined {
  if (isNotFound(e)) return undefined;
  throw e;
}
