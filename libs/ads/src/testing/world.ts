// A DaemonSet reconciler without a cluster (as libs/cloneset/src/reconciler.test.ts): in-memory readers and a
// recording writer (MemoryCluster), expectations observed as soon as a write lands (the cache shows every write at
// once, as Kubernetes' fake pod control in `daemon_controller_test.go`), and a kubelet() that binds pods to the node
// of their affinity and makes them run and be ready. With `cacheLag`, a created pod reaches the pod cache (and its
// create expectation is observed) only when deliver() is called, as the bus delivers it some time after the create.
import type { EventRecorder, KubeObject } from '@regatta/kube';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster, type RolloutTracer, StatusCadence } from '@regatta/workload';
import { type Pod, getPodCondition } from '@regatta/lifecycle';
import { DaemonSetReconciler } from '../reconciler.js';
import type { DaemonSetFeatureGates } from '../daemonset-object.js';
import { targetNodeName } from '../planning/index.js';

export const NS = 'ns';
export const T0 = new Date('2026-12-02T12:00:00Z');
const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };

export type Obj = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

export const node = (name: string, labels: Record<string, string> = {}, taints: unknown[] = []): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
  spec: { taints },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
});

export const daemonSet = (over: Record<string, unknown> = {}, image = 'nginx:1'): Obj => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'DaemonSet',
  metadata: { name: 'ds', namespace: NS, uid: 'ds-uid', generation: 1 },
  spec: {
    selector: { matchLabels: { app: 'ds' } },
    template: { metadata: { labels: { app: 'ds' } }, spec: { containers: [{ name: 'c', image }] } },
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 },
    },
    burstReplicas: 250,
    revisionHistoryLimit: 10,
    ...over,
  },
});

export function world(
  nodes: Obj[],
  options: {
    tracer?: RolloutTracer;
    gates?: Partial<DaemonSetFeatureGates>;
    cacheLag?: boolean;
    /** The error a pod create answers with (undefined: its answer); `landed`: the pod was created all the same. */
    createAnswer?: (name: string) => { err: Error; landed: boolean } | undefined;
    /** The same for a pod patch. */
    patchAnswer?: (
      name: string,
      verb: 'patch' | 'patchStatus',
    ) => { err: Error; landed: boolean } | undefined;
    /** Pod patches reach the pod cache only when deliver() is called (the cache shows the pod as before meanwhile). */
    patchLag?: boolean;
  } = {},
) {
  const c = new MemoryCluster();
  c.add(...nodes);
  const events: string[] = [];
  const recorder = {
    normal: async (_o: KubeObject, reason: string) => void events.push(reason),
    warning: async (_o: KubeObject, reason: string) => void events.push(reason),
  } as unknown as EventRecorder;
  const expectations = new Expectations();
  const key = `${NS}/ds`;
  // pods created but not yet in the cache (cacheLag)
  const undelivered = new Set<string>();
  const podStore = c.reader('Pod');
  // pods patched but shown in the cache as before the patch (patchLag)
  const before = new Map<string, KubeObject>();
  const shown = (o: KubeObject) => !undelivered.has(o.metadata?.name ?? '');
  const asCached = (o: KubeObject) => before.get(o.metadata?.name ?? '') ?? o;
  const podCache: typeof podStore = {
    get: (ns, name) => (undelivered.has(name) ? undefined : (before.get(name) ?? podStore.get(ns, name))),
    byIndex: (index, value) => podStore.byIndex(index, value).filter(shown).map(asCached),
    list: (opts) => podStore.list(opts).filter(shown).map(asCached),
  };
  const deliver = () => {
    for (const name of undelivered) expectations.observeScale(key, 'create', name);
    undelivered.clear();
    before.clear();
  };
  /** A pod patch answered by `patchAnswer`, lagging in the cache with `patchLag`. */
  const podPatch =
    <A extends unknown[]>(
      verb: 'patch' | 'patchStatus',
      write: (ref: { kind: string; namespace?: string; name: string }, ...rest: A) => Promise<KubeObject>,
    ) =>
    async (ref: { kind: string; namespace?: string; name: string }, ...rest: A): Promise<KubeObject> => {
      if (ref.kind !== 'Pod') return write(ref, ...rest);
      const answer = options.patchAnswer?.(ref.name, verb);
      if (answer && !answer.landed) throw answer.err;
      const was = podStore.get(ref.namespace ?? '', ref.name);
      if (options.patchLag && was && !before.has(ref.name)) before.set(ref.name, was);
      const out = await write(ref, ...rest);
      if (answer) throw answer.err;
      return out;
    };
  const writer = {
    ...c.writer,
    create: async <T extends KubeObject>(o: T): Promise<T> => {
      const answer = o.kind === 'Pod' ? options.createAnswer?.(o.metadata?.name ?? '') : undefined;
      if (answer && !answer.landed) throw answer.err;
      const out = await c.writer.create(o);
      if (o.kind === 'Pod') {
        undelivered.add(o.metadata?.name ?? '');
        if (!options.cacheLag) deliver();
      }
      if (answer) throw answer.err;
      return out;
    },
    patch: podPatch('patch', c.writer.patch.bind(c.writer) as never),
    patchStatus: podPatch('patchStatus', c.writer.patchStatus.bind(c.writer) as never),
    delete: async (ref: { kind: string; namespace?: string; name: string }, opts?: unknown) => {
      const out = await (c.writer.delete as (r: unknown, o: unknown) => Promise<unknown>)(ref, opts);
      if (ref.kind === 'Pod') expectations.observeScale(key, 'delete', ref.name);
      return out;
    },
  } as typeof c.writer;
  let now = T0;
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const reconciler = new DaemonSetReconciler({
    client: writer,
    daemonsets: c.reader('DaemonSet'),
    pods: podCache,
    nodes: c.reader('Node'),
    revisions: c.reader('ControllerRevision'),
    expectations,
    recorder,
    now: () => now,
    random,
    // the clock stands still between reconciles here: no status write is held for the interval
    statusCadence: new StatusCadence(0),
    ...(options.tracer ? { rollouts: options.tracer } : {}),
    ...(options.gates ? { gates: options.gates } : {}),
  });
  const pods = () => c.all<Pod>('Pod');
  const setReady = (p: Pod, ready: boolean) => {
    const conditions = (p.status?.conditions ?? []).filter(
      (x) => !['Ready', 'ContainersReady', 'PodScheduled'].includes(x.type),
    );
    const at = now.toISOString();
    const was = getPodCondition(p, 'Ready');
    const since = was && (was.status === 'True') === ready ? (was.lastTransitionTime ?? at) : at;
    c.add({
      ...p,
      spec: { ...p.spec, nodeName: targetNodeName(p) ?? '' },
      status: {
        ...p.status,
        phase: 'Running',
        conditions: [
          ...conditions,
          { type: 'PodScheduled', status: 'True' },
          { type: 'ContainersReady', status: ready ? 'True' : 'False' },
          { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: since },
        ],
        containerStatuses: (p.spec?.containers ?? []).map((x) => ({
          name: x.name,
          image: x.image,
          imageID: `id-${x.image}`,
          ready,
        })),
      },
    } as Pod);
  };
  return {
    c,
    events,
    pods,
    expectations,
    key,
    ds: () => c.get('DaemonSet', NS, 'ds') as Obj,
    /** The pods created and patched so far reach the cache (cacheLag, patchLag). */
    deliver,
    tick: (ms: number) => (now = new Date(now.getTime() + ms)),
    at: (ms: number) => (now = new Date(T0.getTime() + ms)),
    /** One reconcile: the pod creates and deletes it made. */
    sync: async () => {
      const from = c.writes.length;
      const result = await reconciler.reconcile({ namespace: NS, name: 'ds' }, ctx);
      const writes = c.writes.slice(from);
      const creates = writes.filter((w) => w.verb === 'create' && w.kind === 'Pod').length;
      const deletes = writes.filter((w) => w.verb === 'delete' && w.kind === 'Pod').length;
      return { creates, deletes, writes, result };
    },
    /** Binds every pod to its node and makes it Running and Ready (or not ready). */
    kubelet: (ready = true, filter: (p: Pod) => boolean = () => true) => {
      for (const p of pods()) if (filter(p)) setReady(p, ready);
    },
    setImage: (image: string, extra: Record<string, unknown> = {}) => {
      const ds = c.get('DaemonSet', NS, 'ds') as Obj;
      const spec = ds.spec as { template: { spec: { containers: { name: string; image: string }[] } } };
      c.add(<Obj>{
        ...ds,
        metadata: { ...ds.metadata, generation: (ds.metadata?.generation ?? 1) + 1 },
        spec: {
          ...ds.spec,
          ...extra,
          template: { ...spec.template, spec: { ...spec.template.spec, containers: [{ name: 'c', image }] } },
        },
      });
    },
  };
}

export const fiveNodes = () => ['node-0', 'node-1', 'node-2', 'node-3', 'node-4'].map((n) => node(n));
