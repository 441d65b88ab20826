// The suite's independent view (docs/adr/0043): one API watch on pods feeding an InvariantChecker per namespace,
// and one on each workload kind the suite rolls out (CloneSets, Advanced StatefulSets and DaemonSets) recording every
// status and rollout-trace record (never the bus). The status fields read here are CloneSets' and StatefulSets'
// (a DaemonSet's are read by workloads/ads.ts).
import { Annotations, type Pod } from '@regatta/api';
import { ListWatcher, type KubeClient, type KubeObject, type WatchedResource } from '@regatta/kube';
import { waitFor } from '@regatta/local-cluster';
import { CLONESETS, PODS, type CloneSetObj } from '../bench/rollout-watch.js';
import { InvariantChecker, viewOf, type PodReading, type PodView } from './checker.js';

/** A workload as the suite reads it: CloneSet and StatefulSet statuses share these fields. */
export type WorkloadObj = CloneSetObj;

/** A workload's reference for the client. */
export interface WorkloadRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** The status says every pod runs the template of `generation` and is ready. */
export function rolledOut(o: WorkloadObj | undefined, generation: number, replicas: number): boolean {
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

export function describeStatus(o: WorkloadObj | undefined): string {
  const s = o?.status;
  return s
    ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ready ` +
        `${s.readyReplicas}, updated ${s.updatedReplicas}, updatedReady ${s.updatedReadyReplicas}, current ` +
        `${s.currentRevision}, update ${s.updateRevision}`
    : 'no status';
}

/**
 * The rollout-trace record's traceparent and target revision (docs/adr/0007), if the workload has one; `generation`
 * for kinds that trace every change of their spec (a UnitedDeployment, docs/uniteddeployment.md).
 */
export function traceOf(
  o: KubeObject | undefined,
): { traceparent: string; to: string; generation?: number } | undefined {
  const raw = o?.metadata?.annotations?.[Annotations.RolloutTrace];
  if (!raw) return undefined;
  try {
    const r = JSON.parse(raw) as { traceparent?: unknown; to?: unknown; generation?: unknown };
    return typeof r.traceparent === 'string' && typeof r.to === 'string'
      ? {
          traceparent: r.traceparent,
          to: r.to,
          ...(typeof r.generation === 'number' ? { generation: r.generation } : {}),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The suite's own eyes: pods and workloads as the API server reports them. `checker(ns)` is the namespace's
 * InvariantChecker; `latest` the newest version of each workload not deleted (namespaces hold one each, or a
 * UnitedDeployment and its subsets' workloads); `traces` every distinct traceparent seen per workload and target
 * revision (and generation, for a record that names one).
 */
export class Observer {
  private readonly checkers = new Map<string, { checker: InvariantChecker; view: (p: Pod) => PodView }>();
  readonly latest = new Map<string, WorkloadObj>();
  readonly traces = new Map<string, Set<string>>();
  private readonly pods: ListWatcher<Pod>;
  private readonly sets: ListWatcher<WorkloadObj>[];
  private listed = false;

  constructor(
    client: KubeClient,
    private readonly now: () => number,
    resources: readonly WatchedResource[] = [CLONESETS],
  ) {
    const view = (ns: string, p: Pod) => this.checkers.get(ns)?.view(p) ?? viewOf(p);
    this.pods = new ListWatcher<Pod>(client, PODS, {
      onList: async (pods) => {
        const byNs = new Map<string, Pod[]>();
        for (const p of pods)
          byNs.set(p.metadata?.namespace ?? '', [...(byNs.get(p.metadata?.namespace ?? '') ?? []), p]);
        for (const [ns, c] of this.checkers)
          c.checker.list(
            (byNs.get(ns) ?? []).map((p) => view(ns, p)),
            this.now(),
          );
        this.listed = true;
      },
      onUpsert: async (p) => {
        const ns = p.metadata?.namespace ?? '';
        this.checkers.get(ns)?.checker.upsert(view(ns, p), this.now());
      },
      onDelete: async (p) =>
        this.checkers.get(p.metadata?.namespace ?? '')?.checker.remove(p.metadata?.uid ?? '', this.now()),
    });
    const seen = (o: WorkloadObj) => {
      const key = `${o.metadata?.namespace}/${o.metadata?.name}`;
      this.latest.set(key, o);
      const t = traceOf(o);
      if (t) {
        const k = `${key}@${t.to}${t.generation === undefined ? '' : `#${t.generation}`}`;
        this.traces.set(k, new Set([...(this.traces.get(k) ?? []), t.traceparent]));
      }
    };
    this.sets = resources.map(
      (r) =>
        new ListWatcher<WorkloadObj>(client, r, {
          onList: async (objs) => objs.forEach(seen),
          onUpsert: async (o) => seen(o),
          onDelete: async (o) => void this.latest.delete(`${o.metadata?.namespace}/${o.metadata?.name}`),
        }),
    );
  }

  async start(): Promise<void> {
    this.pods.start();
    for (const s of this.sets) s.start();
    await waitFor('the pod watch to list', async () => this.listed, { timeoutMs: 60_000, intervalMs: 100 });
  }

  /**
   * The checker of a namespace, created empty (its pods arrive with their first event); `reading`: how its pods are
   * read (what no two may share, their group, their revision label; a CloneSet's by default); `view`: how it sees a
   * pod (viewOf with `reading` when not given; R1's SidecarSet rollouts read a pod's sidecars). Both fixed when the
   * checker is created.
   */
  checker(
    ns: string,
    reading: PodReading = {},
    view: (p: Pod) => PodView = (p) => viewOf(p, reading),
  ): InvariantChecker {
    let c = this.checkers.get(ns);
    if (!c) this.checkers.set(ns, (c = { checker: new InvariantChecker(), view }));
    return c.checker;
  }

  /** The watched workloads of a namespace (a UnitedDeployment's subset workloads, say). */
  workloadsIn(ns: string): WorkloadObj[] {
    return [...this.latest.values()].filter((o) => o.metadata?.namespace === ns);
  }

  workload(ns: string, name: string): WorkloadObj | undefined {
    return this.latest.get(`${ns}/${name}`);
  }

  /** Distinct traceparents recorded for the rollout of `ns/name` to revision `to` (for the change `generation`). */
  tracesOf(ns: string, name: string, to: string, generation?: number): string[] {
    return [
      ...(this.traces.get(`${ns}/${name}@${to}${generation === undefined ? '' : `#${generation}`}`) ?? []),
    ];
  }

  /** Polls the watched workload until `pred` holds; the time it held, or undefined after `timeoutMs`. */
  async until(
    ns: string,
    name: string,
    pred: (o: WorkloadObj) => boolean,
    timeoutMs: number,
  ): Promise<number | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const o = this.workload(ns, name);
      if (o && pred(o)) return this.now();
      if (Date.now() > deadline) return undefined;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    await this.pods.stop();
    for (const s of this.sets) await s.stop();
  }
}

/**
 * Creates a namespace and a workload in it; resolves when its `replicas` pods are ready (or throws). `reading`:
 * the namespace's checker's (Observer.checker).
 */
export async function createWorkloadReady(
  client: KubeClient,
  obs: Observer,
  o: {
    ns: string;
    object: KubeObject;
    replicas: number;
    reading?: PodReading;
    /** The kind's reading of its status (a CloneSet's by default). */
    done?: (w: WorkloadObj, generation: number, replicas: number) => boolean;
    describe?: (w: WorkloadObj | undefined) => string;
  },
  timeoutMs = 600_000,
): Promise<void> {
  const name = o.object.metadata?.name ?? '';
  const done = o.done ?? rolledOut;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: o.ns } });
  obs.checker(o.ns, o.reading);
  const created = await client.create(o.object);
  const gen = created.metadata?.generation ?? 1;
  const ok = await obs.until(o.ns, name, (w) => done(w, gen, o.replicas), timeoutMs);
  if (ok === undefined)
    throw new Error(
      `${o.ns}/${name}: ${o.replicas} pods not ready in time: ${(o.describe ?? describeStatus)(obs.workload(o.ns, name))}`,
    );
}

/** Deletes the workload, then its namespace (so the controller never tries to replace pods of a terminating namespace). */
export async function removeWorkload(client: KubeClient, ref: WorkloadRef): Promise<void> {
  await client.delete(ref, { propagationPolicy: 'Background' });
  await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ref.namespace });
}
