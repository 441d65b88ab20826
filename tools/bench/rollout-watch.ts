// What the rollout benchmarks watch: the workload kinds compared, one workload object followed until a predicate holds, and the
// pods of a namespace (available, most unavailable at once, when each was first new and Ready).
import type { Pod } from '@regatta/api';
import { KubeClient, ListWatcher, type KubeObject, type WatchedResource } from '@regatta/kube';
import { nowMs } from './common.js';
import { IMAGE_NEW } from './rollout-config.js';

export const CLONESETS: WatchedResource = {
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  kind: 'CloneSet',
  plural: 'clonesets',
};
export const DEPLOYMENTS: WatchedResource = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
};
export const KRUISE_STATEFULSETS: WatchedResource = {
  group: 'apps.kruise.io',
  version: 'v1beta1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
};
export const STATEFULSETS: WatchedResource = {
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
};
export const KRUISE_DAEMONSETS: WatchedResource = {
  group: 'apps.kruise.io',
  version: 'v1beta1',
  kind: 'DaemonSet',
  plural: 'daemonsets',
};
export const DAEMONSETS: WatchedResource = {
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  plural: 'daemonsets',
};
export const PODS: WatchedResource = { group: '', version: 'v1', kind: 'Pod', plural: 'pods' };

export interface CloneSetObj extends KubeObject {
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    updatedReplicas?: number;
    updatedReadyReplicas?: number;
    updateRevision?: string;
    currentRevision?: string;
  };
}
export interface DeploymentObj extends KubeObject {
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    updatedReplicas?: number;
  };
}

/** The status both StatefulSets (Kruise's and apps/v1) report, as far as the benchmark reads it. */
export interface StatefulSetObj extends KubeObject {
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    updatedReplicas?: number;
    updatedReadyReplicas?: number;
    currentRevision?: string;
    updateRevision?: string;
  };
}
/** The status both DaemonSets (Kruise's and apps/v1) report, as far as the benchmark reads it. */
export interface DaemonSetObj extends KubeObject {
  status?: {
    observedGeneration?: number;
    desiredNumberScheduled?: number;
    currentNumberScheduled?: number;
    numberReady?: number;
    numberAvailable?: number;
    updatedNumberScheduled?: number;
    numberMisscheduled?: number;
  };
}

/** Follows one object by watch; `until` resolves at the event (nowMs) that satisfies a predicate. */
export class Follower<T extends KubeObject> {
  latest: T | undefined;
  private readonly waiters = new Set<{ pred: (o: T) => boolean; resolve: (at: number) => void }>();
  private readonly lw: ListWatcher<T>;

  constructor(client: KubeClient, resource: WatchedResource, ns: string, name: string) {
    // ns '' for a cluster-scoped object (which has no namespace at all)
    const mine = (o: T) => (o.metadata?.namespace ?? '') === ns && o.metadata?.name === name;
    this.lw = new ListWatcher<T>(client, resource, {
      onList: async (objs) => {
        const o = objs.find(mine);
        if (o) this.seen(o);
      },
      onUpsert: async (o) => {
        if (mine(o)) this.seen(o);
      },
      onDelete: async () => undefined,
    });
    this.lw.start();
  }

  private seen(o: T): void {
    this.latest = o;
    const at = nowMs();
    for (const w of this.waiters) {
      if (w.pred(o)) {
        this.waiters.delete(w);
        w.resolve(at);
      }
    }
  }

  /** nowMs() of the first event (or the current state) satisfying `pred`; undefined after `timeoutMs`. */
  until(pred: (o: T) => boolean, timeoutMs: number): Promise<number | undefined> {
    if (this.latest && pred(this.latest)) return Promise.resolve(nowMs());
    return new Promise((resolve) => {
      const w = {
        pred,
        resolve: (at: number) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(w);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.add(w);
    });
  }

  stop(): Promise<void> {
    return this.lw.stop();
  }
}

/**
 * The pods of one namespace as a watch reports them: how many are available (Ready, not being
 * deleted), the most unavailable at once since `begin`, and when each first ran the new image and was
 * Ready.
 */
export class PodTracker {
  private readonly pods = new Map<string, { available: boolean; done: boolean }>();
  private available = 0;
  private t0: number | undefined;
  private relisting = false;
  private readonly doneSeen = new Set<string>();
  readonly doneAt: number[] = [];
  maxUnavailable = 0;

  constructor(
    readonly ns: string,
    readonly replicas: number,
  ) {}

  get count(): number {
    return this.pods.size;
  }
  get availableCount(): number {
    return this.available;
  }
  get doneCount(): number {
    return this.doneSeen.size;
  }

  begin(): void {
    this.t0 = nowMs();
    this.maxUnavailable = this.replicas - this.available;
  }

  /** A (re)list: the whole truth at once (the watch relists every 10 min), not a sequence of changes. */
  reset(pods: Pod[]): void {
    this.pods.clear();
    this.available = 0;
    this.relisting = true;
    for (const p of pods) this.upsert(p);
    this.relisting = false;
    this.note();
  }

  upsert(p: Pod): void {
    if (p.metadata?.namespace !== this.ns) return;
    const uid = p.metadata.uid ?? '';
    const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    const available = ready && !p.metadata.deletionTimestamp;
    const c0 = p.spec?.containers?.[0];
    const s0 = p.status?.containerStatuses?.find((s) => s.name === c0?.name);
    const done = available && c0?.image === IMAGE_NEW && s0?.image === IMAGE_NEW && s0.ready === true;
    this.set(uid, { available, done });
  }

  remove(p: Pod): void {
    if (p.metadata?.namespace !== this.ns) return;
    const uid = p.metadata.uid ?? '';
    if (this.pods.get(uid)?.available) this.available--;
    this.pods.delete(uid);
    this.note();
  }

  private set(uid: string, s: { available: boolean; done: boolean }): void {
    const before = this.pods.get(uid);
    if (before?.available) this.available--;
    if (s.available) this.available++;
    this.pods.set(uid, s);
    if (s.done && this.t0 !== undefined && !this.doneSeen.has(uid)) {
      this.doneSeen.add(uid);
      this.doneAt.push(nowMs() - this.t0);
    }
    this.note();
  }

  private note(): void {
    if (this.t0 !== undefined && !this.relisting)
      this.maxUnavailable = Math.max(this.maxUnavailable, this.replicas - this.available);
  }
}
