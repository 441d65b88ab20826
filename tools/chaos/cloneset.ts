// The CloneSets the chaos checks roll out, and the independent view of them: one API watch on pods feeding an
// InvariantChecker per namespace, one on CloneSets recording every status and rollout-trace record (never the bus).
import { defaultCloneSet, type CloneSet, type Pod } from '@regatta/api';
import { ListWatcher, type KubeClient, type KubeObject } from '@regatta/kube';
import { waitFor } from '@regatta/local-cluster';
import { benchPodSpec, IMAGE_OLD } from '../bench/rollout-config.js';
import { CLONESETS, PODS, type CloneSetObj } from '../bench/rollout-watch.js';
import { InvariantChecker, viewOf } from './checker.js';

export const ROLLOUT_TRACE = 'regatta.dev/rollout-trace';

export interface CloneSetShape {
  ns: string;
  name: string;
  replicas: number;
  type: 'InPlaceIfPossible' | 'ReCreate';
  maxUnavailable: number | string;
  maxSurge: number | string;
  partition?: number;
}

/** A CloneSet as the mutating webhook would leave it (no webhook runs here), pods of one container `app`. */
export function cloneSetObject(s: CloneSetShape): KubeObject {
  const labels = { app: s.name };
  return defaultCloneSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: s.name, namespace: s.ns },
    spec: {
      replicas: s.replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: benchPodSpec(IMAGE_OLD) },
      updateStrategy: {
        type: s.type,
        maxUnavailable: s.maxUnavailable,
        maxSurge: s.maxSurge,
        partition: s.partition ?? 0,
      },
    },
  } as unknown as CloneSet) as unknown as KubeObject;
}

export const refOf = (ns: string, name: string) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  namespace: ns,
  name,
});

/** The status says every pod runs the template of `generation` and is ready. */
export function rolledOut(o: CloneSetObj | undefined, generation: number, replicas: number): boolean {
  const s = o?.status;
  return (
    !!s &&
    (s.observedGeneration ?? 0) >= generation &&
    s.replicas === replicas &&
    s.readyReplicas === replicas &&
    s.updatedReplicas === replicas &&
    s.updatedReadyReplicas === replicas &&
    !!s.updateRevision &&
    s.currentRevision === s.updateRevision
  );
}

export function describeStatus(o: CloneSetObj | undefined): string {
  const s = o?.status;
  return s
    ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ready ` +
        `${s.readyReplicas}, updated ${s.updatedReplicas}, updatedReady ${s.updatedReadyReplicas}, current ` +
        `${s.currentRevision}, update ${s.updateRevision}`
    : 'no status';
}

/** The rollout-trace record's traceparent and target revision (docs/adr/0007), if the CloneSet has one. */
export function traceOf(o: KubeObject | undefined): { traceparent: string; to: string } | undefined {
  const raw = o?.metadata?.annotations?.[ROLLOUT_TRACE];
  if (!raw) return undefined;
  try {
    const r = JSON.parse(raw) as { traceparent?: unknown; to?: unknown };
    return typeof r.traceparent === 'string' && typeof r.to === 'string'
      ? { traceparent: r.traceparent, to: r.to }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The suite's own eyes: pods and CloneSets as the API server reports them. `checker(ns)` is the namespace's
 * InvariantChecker; `latest` the newest version of each CloneSet; `traces` every distinct traceparent seen per
 * CloneSet and target revision.
 */
export class Observer {
  private readonly checkers = new Map<string, InvariantChecker>();
  readonly latest = new Map<string, CloneSetObj>();
  readonly traces = new Map<string, Set<string>>();
  private readonly pods: ListWatcher<Pod>;
  private readonly sets: ListWatcher<CloneSetObj>;
  private listed = false;

  constructor(
    client: KubeClient,
    private readonly now: () => number,
  ) {
    this.pods = new ListWatcher<Pod>(client, PODS, {
      onList: async (pods) => {
        const byNs = new Map<string, Pod[]>();
        for (const p of pods)
          byNs.set(p.metadata?.namespace ?? '', [...(byNs.get(p.metadata?.namespace ?? '') ?? []), p]);
        for (const [ns, c] of this.checkers) c.list((byNs.get(ns) ?? []).map(viewOf), this.now());
        this.listed = true;
      },
      onUpsert: async (p) => this.checkers.get(p.metadata?.namespace ?? '')?.upsert(viewOf(p), this.now()),
      onDelete: async (p) =>
        this.checkers.get(p.metadata?.namespace ?? '')?.remove(p.metadata?.uid ?? '', this.now()),
    });
    const seen = (o: CloneSetObj) => {
      const key = `${o.metadata?.namespace}/${o.metadata?.name}`;
      this.latest.set(key, o);
      const t = traceOf(o);
      if (t) {
        const k = `${key}@${t.to}`;
        this.traces.set(k, new Set([...(this.traces.get(k) ?? []), t.traceparent]));
      }
    };
    this.sets = new ListWatcher<CloneSetObj>(client, CLONESETS, {
      onList: async (objs) => objs.forEach(seen),
      onUpsert: async (o) => seen(o),
      onDelete: async () => undefined,
    });
  }

  async start(): Promise<void> {
    this.pods.start();
    this.sets.start();
    await waitFor('the pod watch to list', async () => this.listed, { timeoutMs: 60_000, intervalMs: 100 });
  }

  /** The checker of a namespace, created empty (its pods arrive with their first event). */
  checker(ns: string): InvariantChecker {
    let c = this.checkers.get(ns);
    if (!c) this.checkers.set(ns, (c = new InvariantChecker()));
    return c;
  }

  cloneSet(ns: string, name: string): CloneSetObj | undefined {
    return this.latest.get(`${ns}/${name}`);
  }

  /** Distinct traceparents recorded for the rollout of `ns/name` to revision `to`. */
  tracesOf(ns: string, name: string, to: string): string[] {
    return [...(this.traces.get(`${ns}/${name}@${to}`) ?? [])];
  }

  /** Polls the watched CloneSet until `pred` holds; the time it held, or undefined after `timeoutMs`. */
  async until(
    ns: string,
    name: string,
    pred: (o: CloneSetObj) => boolean,
    timeoutMs: number,
  ): Promise<number | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const o = this.cloneSet(ns, name);
      if (o && pred(o)) return this.now();
      if (Date.now() > deadline) return undefined;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    await this.pods.stop();
    await this.sets.stop();
  }
}

/** Creates a namespace and a CloneSet in it; resolves when its `replicas` pods are ready (or throws). */
export async function createReady(
  client: KubeClient,
  obs: Observer,
  s: CloneSetShape,
  timeoutMs = 600_000,
): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: s.ns } });
  obs.checker(s.ns);
  const created = await client.create(cloneSetObject(s));
  const gen = created.metadata?.generation ?? 1;
  const ok = await obs.until(s.ns, s.name, (o) => rolledOut(o, gen, s.replicas), timeoutMs);
  if (ok === undefined)
    throw new Error(
      `${s.ns}/${s.name}: ${s.replicas} pods not ready in time: ${describeStatus(obs.cloneSet(s.ns, s.name))}`,
    );
}

/** Deletes the CloneSet, then its namespace (so the controller never tries to replace pods of a terminating namespace). */
export async function removeCloneSet(client: KubeClient, ns: string, name: string): Promise<void> {
  await client.delete(refOf(ns, name), { propagationPolicy: 'Background' });
  await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns });
}
