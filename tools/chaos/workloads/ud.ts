// R1's UnitedDeployment (docs/uniteddeployment.md): three subsets, one per zone of the node simulator (its nodes carry
// `topology.kubernetes.io/zone` zone-a … zone-c, round-robin), each a CloneSet built by the UnitedDeployment program
// from a `cloneSetTemplate` and rolled by the CloneSet program. No subset specifies replicas, so `spec.replicas` is
// split evenly, the remainder going one each to the subsets holding the most pods (ties: the later name), as OpenKruise
// pkg/controller/uniteddeployment/allocator.go. The partition steps are `updateStrategy.manualUpdate.partitions`,
// split over the subsets the same way. Each subset is held to its CloneSet's own bounds (workloads/cloneset.ts), its
// pods to its zone's nodes; the pods' revision is the UnitedDeployment's (`apps.kruise.io/controller-revision-hash`).
import type { KubeObject } from '@regatta/kube';
import { KINDS } from '@regatta/bus';
import { CLONESETS } from '../../bench/rollout-watch.js';
import { cloneSetInstanceId, type Bounds } from '../checker.js';
import type { WorkloadObj } from '../observer.js';
import type { RolloutPlan } from '../schedule.js';
import { CLONESET, cloneSetBounds } from './cloneset.js';
import type { NodeLabels, Workload, WorkloadShape } from './kind.js';

export const SUBSET_LABEL = 'apps.kruise.io/subset-name';
export const UD_REVISION_LABEL = 'apps.kruise.io/controller-revision-hash';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** Subset name → the zone its nodeSelectorTerm selects. */
export const UD_SUBSETS: Readonly<Record<string, string>> = { a: 'zone-a', b: 'zone-b', c: 'zone-c' };
const NAMES = Object.keys(UD_SUBSETS);

/**
 * `replicas` split evenly over `names`: each gets the quotient, the remainder goes one each to the subsets holding the
 * most pods now (`existing`, 0 when absent), ties to the later name — upstream's specific allocator with no subset
 * specified (docs/uniteddeployment.md, Reconcile step 3).
 */
export function evenSplit(
  replicas: number,
  names: readonly string[] = NAMES,
  existing: Readonly<Record<string, number>> = {},
): Record<string, number> {
  const order = [...names].sort((x, y) => {
    const d = (existing[x] ?? 0) - (existing[y] ?? 0);
    return d !== 0 ? d : x < y ? -1 : x > y ? 1 : 0;
  });
  const each = Math.floor(replicas / names.length);
  let extra = replicas % names.length;
  const out: Record<string, number> = {};
  for (const name of order.reverse()) {
    out[name] = each + (extra > 0 ? 1 : 0);
    if (extra > 0) extra--;
  }
  return Object.fromEntries(names.map((n) => [n, out[n] ?? 0]));
}

/** Each subset's share of `plan`: its replicas before and after the change (the same drawn budgets). */
export function subsetPlans(plan: RolloutPlan): Record<string, RolloutPlan> {
  const before = evenSplit(plan.replicas);
  const after = evenSplit(plan.scaleTo, NAMES, before);
  return Object.fromEntries(
    NAMES.map((s) => [s, { ...plan, replicas: before[s] ?? 0, scaleTo: after[s] ?? 0, partitions: [] }]),
  );
}

/**
 * `manualUpdate.partitions` keeping `partition` of `replicas` pods old: split as the replicas are, so every subset's
 * share is at most its replicas and the shares add up to `partition`.
 */
export function udPartitions(replicas: number, partition: number): Record<string, number> {
  return evenSplit(partition, NAMES, evenSplit(replicas));
}

/** Subset name → the nodes of its zone. */
export function subsetNodes(nodes: NodeLabels): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(UD_SUBSETS).map(([s, zone]) => [
      s,
      Object.keys(nodes).filter((n) => nodes[n]?.[ZONE_LABEL] === zone),
    ]),
  );
}

/** Each subset within its CloneSet's bounds, the whole within their sums, every pod on its zone's nodes. */
export function udBounds(plan: RolloutPlan, partition: number | undefined, nodes: NodeLabels): Bounds {
  const parts = partition === undefined ? undefined : udPartitions(plan.replicas, partition);
  const groups = Object.fromEntries(
    Object.entries(subsetPlans(plan)).map(([s, p]) => [s, cloneSetBounds(p, parts?.[s])]),
  );
  const all = Object.values(groups);
  const sum = (f: (b: Bounds) => number) => all.reduce((acc, b) => acc + f(b), 0);
  const inPlace = all[0]?.inPlace
    ? { creates: sum((b) => b.inPlace?.creates ?? 0), deletes: sum((b) => b.inPlace?.deletes ?? 0) }
    : undefined;
  return {
    minAvailable: sum((b) => b.minAvailable),
    maxPods: sum((b) => b.maxPods),
    ...(inPlace ? { inPlace } : {}),
    ...(parts ? { partition: { maxUpdated: sum((b) => b.partition?.maxUpdated ?? 0) } } : {}),
    groups,
    placement: subsetNodes(nodes),
  };
}

/** The UnitedDeployment as the mutating webhook would leave it (`Manual` strategy, history limit 10). */
export function udObject(s: WorkloadShape): KubeObject {
  const labels = { app: s.name };
  // R1's CloneSet of the same shape, less its partition (the UnitedDeployment's is manualUpdate.partitions)
  const { partition: _partition, ...shape } = s;
  const cloneSet = CLONESET.object(shape) as KubeObject & { spec: Record<string, unknown> };
  const { replicas: _replicas, ...template } = cloneSet.spec;
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: s.name, namespace: s.ns },
    spec: {
      replicas: s.replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: labels },
      template: { cloneSetTemplate: { metadata: { labels }, spec: template } },
      topology: {
        subsets: Object.entries(UD_SUBSETS).map(([name, zone]) => ({
          name,
          nodeSelectorTerm: { matchExpressions: [{ key: ZONE_LABEL, operator: 'In', values: [zone] }] },
        })),
      },
      updateStrategy: {
        type: 'Manual',
        manualUpdate: s.partition === undefined ? {} : { partitions: udPartitions(s.replicas, s.partition) },
      },
    },
  } as KubeObject;
}

interface UdStatus {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  updatedReplicas?: number;
  updatedReadyReplicas?: number;
  currentRevision?: string;
  updatedRevision?: string;
  subsetReplicas?: Record<string, number>;
  subsetStatuses?: { name?: string; replicas?: number; readyReplicas?: number; partition?: number }[];
}
const status = (o: WorkloadObj | undefined) => o?.status as UdStatus | undefined;
const specOf = <T>(o: WorkloadObj | undefined) => (o as { spec?: T } | undefined)?.spec;

/** The status says `n` pods, all ready at the updated revision, and each subset's allocated pods ready. */
export function udDone(o: WorkloadObj | undefined, generation: number, n: number): boolean {
  const s = status(o);
  const subsets = s?.subsetStatuses ?? [];
  return (
    !!s &&
    (s.observedGeneration ?? 0) >= generation &&
    s.replicas === n &&
    s.readyReplicas === n &&
    s.updatedReplicas === n &&
    s.updatedReadyReplicas === n &&
    !!s.updatedRevision &&
    s.currentRevision === s.updatedRevision &&
    subsets.length === NAMES.length &&
    subsets.reduce((acc, x) => acc + (x.replicas ?? 0), 0) === n &&
    subsets.every((x) => x.readyReplicas === x.replicas)
  );
}

/**
 * What is wrong once a rollout is done (`udDone`): each subset one CloneSet, replicas as the allocation says for
 * `plan.scaleTo` (their sum the UnitedDeployment's), partition 0, and the status's subset view the same.
 */
export function udProblems(
  ud: WorkloadObj | undefined,
  others: readonly WorkloadObj[],
  plan: RolloutPlan,
): string[] {
  const want = evenSplit(plan.scaleTo, NAMES, evenSplit(plan.replicas));
  const problems: string[] = [];
  const specReplicas = specOf<{ replicas?: number }>(ud)?.replicas;
  if (specReplicas !== plan.scaleTo) problems.push(`spec.replicas ${specReplicas}, ${plan.scaleTo} set`);
  const s = status(ud);
  for (const name of NAMES) {
    const mine = others.filter(
      (o) =>
        o.kind === 'CloneSet' &&
        o.metadata?.labels?.[SUBSET_LABEL] === name &&
        !o.metadata?.deletionTimestamp,
    );
    const spec = specOf<{ replicas?: number; updateStrategy?: { partition?: number } }>(mine[0]);
    if (mine.length !== 1) problems.push(`subset ${name}: ${mine.length} CloneSets`);
    else if (spec?.replicas !== want[name] || (spec?.updateStrategy?.partition ?? 0) !== 0)
      problems.push(
        `subset ${name}: CloneSet replicas ${spec?.replicas}, partition ${spec?.updateStrategy?.partition}; ` +
          `the allocation says ${want[name]}, partition 0`,
      );
    const st = s?.subsetStatuses?.find((x) => x.name === name);
    if (st?.replicas !== want[name] || (st?.partition ?? 0) !== 0 || s?.subsetReplicas?.[name] !== want[name])
      problems.push(
        `subset ${name}: status replicas ${st?.replicas} (subsetReplicas ${s?.subsetReplicas?.[name]}), ` +
          `partition ${st?.partition}; the allocation says ${want[name]}, partition 0`,
      );
  }
  return problems;
}

export const UD: Workload = {
  id: 'ud',
  title: 'UnitedDeployment',
  app: 'uniteddeployment',
  resource: {
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    kind: 'UnitedDeployment',
    plural: 'uniteddeployments',
  },
  surge: true,
  subsets: {
    app: 'cloneset',
    resource: CLONESETS,
    group: (p) => p.metadata?.labels?.[SUBSET_LABEL] ?? '',
    revisionLabel: UD_REVISION_LABEL,
  },
  mirrorKinds: [KINDS.uniteddeployments, KINDS.clonesets],
  podTemplatePath: '/spec/template/cloneSetTemplate/spec/template',
  tracePerGeneration: true,
  ref: (ns, name) => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    namespace: ns,
    name,
  }),
  object: udObject,
  identity: cloneSetInstanceId,
  bounds: udBounds,
  partitionPatch: (partition, plan) => ({
    spec: { updateStrategy: { manualUpdate: { partitions: udPartitions(plan.replicas, partition) } } },
  }),
  settledProblems: udProblems,
  done: udDone,
  stepDone: (o, generation, updated) => {
    const s = status(o);
    return (s?.observedGeneration ?? 0) >= generation && (s?.updatedReadyReplicas ?? 0) >= updated;
  },
  updateRevision: (o) => status(o)?.updatedRevision ?? '',
  describe: (o) => {
    const s = status(o);
    return s
      ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ready ` +
          `${s.readyReplicas}, updated ${s.updatedReplicas}, updatedReady ${s.updatedReadyReplicas}, current ` +
          `${s.currentRevision}, updated ${s.updatedRevision}, subsets ` +
          (s.subsetStatuses ?? [])
            .map((x) => `${x.name} ${x.readyReplicas}/${x.replicas} p${x.partition ?? 0}`)
            .join(', ')
      : 'no status';
  },
};
