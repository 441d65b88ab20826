// What R1 needs to know of a workload kind to roll it out and judge it (docs/reliability-checks.md, R1): its object, its
// pods' identity, the bounds of each phase of a rollout, how its partition is set, what its status says. One file
// per kind beside this one; the rollout itself (r1.ts) is the same for all.
import type { Pod } from '@regatta/api';
import type { KindRef } from '@regatta/bus';
import type { KubeObject, WatchedResource } from '@regatta/kube';
import type { Bounds, IdentityOf } from '../checker.js';
import { describeStatus, rolledOut, type WorkloadObj, type WorkloadRef } from '../observer.js';
import type { ChangeKind, RolloutPlan } from '../schedule.js';

export const WORKLOAD_IDS = ['cloneset', 'asts', 'ads', 'ud'] as const;
export type WorkloadId = (typeof WORKLOAD_IDS)[number];

/** The cluster's nodes and their labels (R1 lists them once): where a UnitedDeployment's subsets may place pods. */
export type NodeLabels = Record<string, Record<string, string>>;

/**
 * A kind whose pods belong to workloads it creates (a UnitedDeployment's subsets): their program (killed too), their
 * resource (watched), how a pod names its subset, and the label of the kind's own revision on a pod.
 */
export interface SubsetWorkloads {
  app: string;
  resource: WatchedResource;
  group: (p: Pod) => string;
  revisionLabel: string;
}

/** One workload of a rollout, before its change: `inPlace` picks the in-place update policy, else recreate. */
export interface WorkloadShape {
  ns: string;
  name: string;
  replicas: number;
  inPlace: boolean;
  maxUnavailable: number | string;
  /** Kinds without maxSurge get 0 here (RolloutPlan.maxSurge is ignored). */
  maxSurge: number | string;
  partition?: number;
}

export interface Workload {
  id: WorkloadId;
  /** As the report names it. */
  title: string;
  /** The program that controls it (its bundle, its kill -9 in the fault schedule). */
  app: string;
  resource: WatchedResource;
  /** The kind has maxSurge (a recreate may surge). */
  surge: boolean;
  ref(ns: string, name: string): WorkloadRef;
  /** The object as the mutating webhook would leave it (no webhook runs in R1), pods of one container `app`. */
  object(s: WorkloadShape): KubeObject;
  identity: IdentityOf;
  /**
   * The limits of a phase of `plan`'s rollout, `partition` in force (undefined: none). Pure: from the change
   * (replicas n → n2) to its end, the loosest of the two counts' limits; `nodes` for kinds that place pods;
   * `workloads`: the namespace's workloads as watched when checking began (a UnitedDeployment's subset split).
   */
  bounds(
    plan: RolloutPlan,
    partition: number | undefined,
    nodes: NodeLabels,
    workloads?: readonly WorkloadObj[],
  ): Bounds;
  /** The merge patch that sets the partition (`partition` of `plan`'s replicas kept at the old revision). */
  partitionPatch(partition: number, plan: RolloutPlan): Record<string, unknown>;
  /** Its pods are its subset workloads' (a UnitedDeployment). */
  subsets?: SubsetWorkloads;
  /** The bus kinds whose mirror R1 compares besides pods (default: the kind's resource). */
  mirrorKinds?: readonly KindRef[];
  /** The JSON-patch path of the pod template in the object (default `/spec/template`). */
  podTemplatePath?: string;
  /** One rollout trace per change of the spec, recorded with its generation (a UnitedDeployment), not per revision. */
  tracePerGeneration?: boolean;
  /**
   * What is wrong with the finished rollout beyond its pods and its `done` status (a UnitedDeployment's subset
   * allocation), from the workload and the other workloads of its namespace as watched; none when absent.
   */
  settledProblems?(o: WorkloadObj | undefined, others: readonly WorkloadObj[], plan: RolloutPlan): string[];
  /** The plan as the kind can take it (a DaemonSet surging: maxUnavailable 0); as drawn when absent. */
  plan?(p: RolloutPlan): RolloutPlan;
  /** The changes its rollouts make (a DaemonSet has no scale change). */
  changes?: readonly ChangeKind[];
  /** One pod per node (a DaemonSet): a rollout's replicas are the cluster's nodes. */
  perNode?: boolean;
  /** The status says `replicas` pods run the template of `generation`, all ready, the rollout over. */
  done(o: WorkloadObj, generation: number, replicas: number): boolean;
  /** The status says at least `updated` of `replicas` pods run the template of `generation` and are ready. */
  stepDone(o: WorkloadObj, generation: number, updated: number, replicas: number): boolean;
  updateRevision(o: WorkloadObj | undefined): string;
  describe(o: WorkloadObj | undefined): string;
}

/** The status reading of the kinds with `replicas` (CloneSet, StatefulSet): their status fields are the same. */
export const replicaStatus = {
  done: rolledOut,
  stepDone: (o: WorkloadObj, generation: number, updated: number) =>
    (o.status?.observedGeneration ?? 0) >= generation && (o.status?.updatedReadyReplicas ?? 0) >= updated,
  updateRevision: (o: WorkloadObj | undefined) => o?.status?.updateRevision ?? '',
  describe: describeStatus,
} satisfies Pick<Workload, 'done' | 'stepDone' | 'updateRevision' | 'describe'>;

/** The shape of `plan`'s workload before its change (the first partition of a partition rollout is its count). */
export function shapeOf(w: Workload, plan: RolloutPlan, ns: string, name: string): WorkloadShape {
  return {
    ns,
    name,
    replicas: plan.replicas,
    inPlace: plan.change !== 'recreate',
    maxUnavailable: plan.maxUnavailable,
    maxSurge: w.surge ? plan.maxSurge : 0,
    ...(plan.change === 'partition' ? { partition: plan.replicas } : {}),
  };
}

/**
 * The JSON patch of `plan`'s change: the image (in place), an env variable (recreate), with `scale` the replicas;
 * `template`: where the pod template is (a UnitedDeployment's is in its workload template).
 */
export function changeOps(plan: RolloutPlan, image: string, template = '/spec/template'): unknown[] {
  const change =
    plan.change === 'recreate'
      ? {
          op: 'add',
          path: `${template}/spec/containers/0/env`,
          value: [{ name: 'CHAOS_ROLLOUT', value: String(plan.index) }],
        }
      : { op: 'replace', path: `${template}/spec/containers/0/image`, value: image };
  return [
    change,
    ...(plan.change === 'scale' ? [{ op: 'replace', path: '/spec/replicas', value: plan.scaleTo }] : []),
  ];
}

/** In-place rollouts: no pod created or deleted beyond what the scale change needs. */
export function inPlaceAllowance(plan: RolloutPlan): Bounds['inPlace'] {
  if (plan.change === 'recreate') return undefined;
  return {
    creates: Math.max(0, plan.scaleTo - plan.replicas),
    deletes: Math.max(0, plan.replicas - plan.scaleTo),
  };
}
