// R1's UnitedDeployment (docs/uniteddeployment.md): three subsets, one per zone of the node simulator (its nodes carry
// `topology.kubernetes.io/zone` zone-a … zone-c, round-robin), each a CloneSet built by the UnitedDeployment program
// from a `cloneSetTemplate` and rolled by the CloneSet program. No subset specifies replicas, so `spec.replicas` is
// split evenly, the remainder going one each to the subsets whose workloads hold the most replicas (ties: the later
// name), as OpenKruise pkg/controller/uniteddeployment/allocator.go. Which subsets get the remainder therefore depends
// on the subsets' replicas when the program allocates: a round that wrote some subsets and failed on the next (or a
// creation cut by a kill) hands it to the subsets already written (docs/reliability-findings-1-16.md, Finding 13). The checker
// takes the split the CloneSets hold when checking begins, and for a scale any split the program may reach. The
// partition steps are `updateStrategy.manualUpdate.partitions`, split over the subsets the same way. Each subset is
// held to its CloneSet's own bounds (workloads/cloneset.ts), its pods to its zone's nodes; the pods' revision is the
// UnitedDeployment's (`apps.kruise.io/controller-revision-hash`).
import { UnitedDeploymentLabels, KINDS } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { CLONESETS } from '../../bench/rollout-watch.js';
import { cloneSetInstanceId, type Bounds } from '../checker.js';
import type { WorkloadObj } from '../observer.js';
import type { RolloutPlan } from '../schedule.js';
import { CLONESET, cloneSetBounds } from './cloneset.js';
import type { NodeLabels, Workload, WorkloadShape } from './kind.js';

export const SUBSET_LABEL = UnitedDeploymentLabels.SubsetName;
export const UD_REVISION_LABEL = UnitedDeploymentLabels.ControllerRevisionHash;
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

/**
 * Every split the program may allocate for `replicas` starting from the subsets' replicas `from`, with the states the
 * subsets pass through. Each round allocates from the replicas the subsets hold (`evenSplit`) and any of its subset
 * writes may fail (a 429, a 5xx, a timeout, a kill) while the others land; the next round allocates from that. A
 * failed round thus moves the remainder to the subsets it wrote (docs/reliability-findings-1-16.md, Finding 13).
 */
export function reachableSplits(
  replicas: number,
  from: Readonly<Record<string, number>>,
  names: readonly string[] = NAMES,
): { splits: Record<string, number>[]; states: Record<string, number>[] } {
  const key = (x: Readonly<Record<string, number>>) => names.map((n) => x[n] ?? 0).join('/');
  const states = new Map([[key(from), { ...from }]]);
  const splits = new Map<string, Record<string, number>>();
  for (const state of states.values()) {
    // (a Map iterates what is added while iterating: a breadth-first walk over the states)
    const split = evenSplit(replicas, names, state);
    splits.set(key(split), split);
    for (let landed = 0; landed < 1 << names.length; landed++) {
      const next = Object.fromEntries(
        names.map((n, i) => [n, (landed >> i) & 1 ? (split[n] ?? 0) : (state[n] ?? 0)]),
      );
      if (!states.has(key(next))) states.set(key(next), next);
    }
  }
  return { splits: [...splits.values()], states: [...states.values()] };
}

/** Subset name → its live CloneSet's `spec.replicas` among `workloads` (a subset without exactly one left out). */
export function subsetReplicas(workloads: readonly WorkloadObj[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of NAMES) {
    const mine = subsetCloneSets(workloads, name);
    const replicas = specOf<{ replicas?: number }>(mine[0])?.replicas;
    if (mine.length === 1 && replicas !== undefined) out[name] = replicas;
  }
  return out;
}

/**
 * The split of `replicas` the subsets hold: their CloneSets' replicas in `workloads` when the allocator keeps them
 * (an even split of `replicas`; a creation cut short may have put the remainder anywhere), else the split from
 * nothing.
 */
export function heldSplit(replicas: number, workloads: readonly WorkloadObj[] = []): Record<string, number> {
  const held = subsetReplicas(workloads);
  const split = evenSplit(replicas, NAMES, held);
  return NAMES.every((n) => split[n] === held[n]) ? split : evenSplit(replicas);
}

/** Each subset's share of `plan`: its replicas before (`before`) and after (`after`) the change, same budgets. */
export function subsetPlans(
  plan: RolloutPlan,
  before: Readonly<Record<string, number>> = evenSplit(plan.replicas),
  after: Readonly<Record<string, number>> = evenSplit(plan.scaleTo, NAMES, before),
): Record<string, RolloutPlan> {
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

type Fold = (xs: number[]) => number;
const least: Fold = (xs) => Math.min(...xs);
const most: Fold = (xs) => Math.max(...xs);
const total: Fold = (xs) => xs.reduce((a, b) => a + b, 0);

/** `all` folded into one: `low` over their minAvailable, `high` over the rest (their sum, or the loosest of them). */
function fold(all: readonly Bounds[], low: Fold, high: Fold): Bounds {
  const of = (f: (b: Bounds) => number | undefined) => all.map((b) => f(b) ?? 0);
  const first = all[0];
  return {
    minAvailable: low(of((b) => b.minAvailable)),
    maxPods: high(of((b) => b.maxPods)),
    ...(first?.inPlace
      ? {
          inPlace: {
            creates: high(of((b) => b.inPlace?.creates)),
            deletes: high(of((b) => b.inPlace?.deletes)),
          },
        }
      : {}),
    ...(first?.partition ? { partition: { maxUpdated: high(of((b) => b.partition?.maxUpdated)) } } : {}),
  };
}

const ZERO: Bounds = { minAvailable: 0, maxPods: 0 };

/**
 * Each subset within its CloneSet's bounds, the whole within their sums, every pod on its zone's nodes. The split
 * before the change is the one the CloneSets hold in `workloads` when checking begins (heldSplit); the split after it
 * any the program may reach from there (reachableSplits: one unless a scale's round fails half-way), each subset
 * and the whole held to the loosest of those, each alone as strict as before.
 */
export function udBounds(
  plan: RolloutPlan,
  partition: number | undefined,
  nodes: NodeLabels,
  workloads: readonly WorkloadObj[] = [],
): Bounds {
  const parts = partition === undefined ? undefined : udPartitions(plan.replicas, partition);
  const before = heldSplit(plan.replicas, workloads);
  const afters = reachableSplits(plan.scaleTo, before).splits;
  const each = afters.map((after) =>
    Object.entries(subsetPlans(plan, before, after)).map(
      ([s, p]) => [s, cloneSetBounds(p, parts?.[s])] as const,
    ),
  );
  const groups = Object.fromEntries(
    NAMES.map((s) => [
      s,
      fold(
        each.map((bs) => bs.find(([g]) => g === s)?.[1] ?? ZERO),
        least,
        most,
      ),
    ]),
  );
  return {
    ...fold(
      each.map((bs) =>
        fold(
          bs.map(([, b]) => b),
          total,
          total,
        ),
      ),
      least,
      most,
    ),
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

/** The live CloneSets of subset `name`. */
function subsetCloneSets(workloads: readonly WorkloadObj[], name: string): WorkloadObj[] {
  return workloads.filter(
    (o) =>
      o.kind === 'CloneSet' && o.metadata?.labels?.[SUBSET_LABEL] === name && !o.metadata?.deletionTimestamp,
  );
}

/**
 * What is wrong once a rollout is done (`udDone`): each subset one CloneSet, partition 0, replicas as the allocator
 * says for `plan.scaleTo` from the subsets' replicas as they are (so an even split wherever the remainder went: the
 * allocator keeps it there), their sum the UnitedDeployment's, and the status's subset view the same.
 */
export function udProblems(
  ud: WorkloadObj | undefined,
  others: readonly WorkloadObj[],
  plan: RolloutPlan,
): string[] {
  const want = evenSplit(plan.scaleTo, NAMES, subsetReplicas(others));
  const problems: string[] = [];
  const specReplicas = specOf<{ replicas?: number }>(ud)?.replicas;
  if (specReplicas !== plan.scaleTo) problems.push(`spec.replicas ${specReplicas}, ${plan.scaleTo} set`);
  const s = status(ud);
  for (const name of NAMES) {
    const mine = subsetCloneSets(others, name);
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
