/**
 * Which pods a budget guards and how many replicas it counts (upstream `GetPodsForPub` in
 * `pkg/control/pubcontrol/pub_control.go` and the controller finder, `pkg/util/controllerfinder`), and which budget
 * guards a pod (upstream `GetPubForPod` of the controller). Pure: the workloads and pods are given.
 */
import { PubKeys, groupOf, sameTarget, type Pod, type PodUnavailableBudget, type TargetReference } from '@regatta/api';
import { type KubeObject, compileLabelSelector, isSelectorEmpty, type LabelSelector } from '@regatta/kube';
import { isPodActive } from '@regatta/lifecycle';

/** The fields of a workload the budget reads (Deployment, ReplicaSet, StatefulSet, CloneSet, Advanced StatefulSet). */
export interface WorkloadView extends KubeObject {
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: { metadata?: { labels?: Record<string, string> } };
  };
}

/** The workloads of the cluster the budget looks up, by kind (apps/v1 and apps.kruise.io kinds). */
export interface Workloads {
  /** The workload of that group, kind, namespace and name, if cached. */
  get(group: string, kind: string, namespace: string, name: string): WorkloadView | undefined;
  /** The ReplicaSets of a namespace (a Deployment's pods are its ReplicaSets'). */
  replicaSets(namespace: string): readonly WorkloadView[];
}

/** The kinds a target reference may name, by group (upstream's finders). */
export const TARGET_KINDS: Readonly<Record<string, readonly string[]>> = {
  apps: ['Deployment', 'ReplicaSet', 'StatefulSet'],
  'apps.kruise.io': ['CloneSet', 'StatefulSet'],
};


function controllerOf(
  o: KubeObject,
): { apiVersion: string; kind: string; name: string; uid?: string } | undefined {
  return o.metadata?.ownerReferences?.find((r) => r.controller === true);
}

const replicasOf = (w: WorkloadView): number => w.spec?.replicas ?? 1;
const deleting = (w: WorkloadView): boolean => !!w.metadata?.deletionTimestamp;

/**
 * The workload that scales a pod's controller (upstream `GetScaleAndSelectorForRef`): a ReplicaSet controlled by a
 * Deployment scales with the Deployment; unknown kinds are not counted.
 */
export function scalingWorkload(
  ref: { apiVersion: string; kind: string; name: string; uid?: string },
  namespace: string,
  workloads: Workloads,
): ScalingWorkload | undefined {
  const group = groupOf(ref.apiVersion);
  if (!(TARGET_KINDS[group] ?? []).includes(ref.kind)) return undefined;
  const w = workloads.get(group, ref.kind, namespace, ref.name);
  // a reference to an object of the same name but another uid is not found
  if (!w || (ref.uid && w.metadata?.uid && ref.uid !== w.metadata.uid)) return undefined;
  if (group === 'apps' && ref.kind === 'ReplicaSet') {
    const owner = controllerOf(w);
    // a Deployment's ReplicaSet scales with it, and with nothing once the Deployment is gone (upstream
    // getPodReplicaSet → getPodDeployment)
    if (owner && owner.kind === 'Deployment') {
      const d = workloads.get('apps', 'Deployment', namespace, owner.name);
      if (!d || (owner.uid && d.metadata?.uid && owner.uid !== d.metadata.uid)) return undefined;
      return { workload: d, group: 'apps', kind: 'Deployment' };
    }
  }
  return { workload: w, group, kind: ref.kind };
}

/** A workload with the group and kind it was found by (cached objects may lack apiVersion and kind). */
export interface ScalingWorkload {
  workload: WorkloadView;
  group: string;
  kind: string;
}

export interface BudgetPods {
  /** The active pods the budget guards. */
  pods: Pod[];
  /** The replicas it counts (`totalReplicas`): the workloads' `spec.replicas`, or the annotation's value. */
  expected: number;
}

function totalReplicasOverride(pub: PodUnavailableBudget): number | undefined {
  const v = pub.metadata?.annotations?.[PubKeys.ProtectTotalReplicas];
  if (v === undefined || v === '') return undefined;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : 0;
}

/** The pods a budget guards and the replicas it counts. */
export function podsForPub(
  pub: PodUnavailableBudget,
  pods: readonly Pod[],
  workloads: Workloads,
): BudgetPods {
  const ns = pub.metadata?.namespace ?? '';
  const inNs = pods.filter((p) => p.metadata?.namespace === ns && isPodActive(p));
  const override = totalReplicasOverride(pub);
  const ref = pub.spec?.targetRef;
  if (ref) {
    const found = forTarget(ref, ns, inNs, workloads);
    return { pods: found.pods, expected: override ?? found.expected };
  }
  const selector = pub.spec?.selector;
  if (!selector || isSelectorEmpty(selector)) return { pods: [], expected: override ?? 0 };
  const compiled = compileLabelSelector(selector);
  const matched = inNs.filter((p) => compiled.matches(p.metadata?.labels ?? {}));
  if (override !== undefined) return { pods: matched, expected: override };
  const scales = new Map<string, number>();
  for (const p of matched) {
    const c = controllerOf(p);
    if (!c) continue;
    const w = scalingWorkload(c, ns, workloads)?.workload;
    if (!w || deleting(w)) continue;
    scales.set(w.metadata?.uid ?? `${w.kind}/${w.metadata?.name}`, replicasOf(w));
  }
  return { pods: matched, expected: [...scales.values()].reduce((a, b) => a + b, 0) };
}

function forTarget(ref: TargetReference, ns: string, pods: readonly Pod[], workloads: Workloads): BudgetPods {
  const group = groupOf(ref.apiVersion);
  if (!ref.kind || !ref.name || !(TARGET_KINDS[group] ?? []).includes(ref.kind))
    return { pods: [], expected: 0 };
  const w = workloads.get(group, ref.kind, ns, ref.name);
  if (!w || deleting(w)) return { pods: [], expected: 0 };
  const expected = replicasOf(w);
  if (expected === 0) return { pods: [], expected: 0 };
  const uids = new Set<string>();
  if (group === 'apps' && ref.kind === 'Deployment') {
    const rss = workloads.replicaSets(ns).filter((rs) => controllerOf(rs)?.uid === w.metadata?.uid);
    for (const rs of rss) if (rs.metadata?.uid) uids.add(rs.metadata.uid);
    if (uids.size === 0 && w.metadata?.uid) uids.add(w.metadata.uid);
  } else if (w.metadata?.uid) uids.add(w.metadata.uid);
  const matched = pods.filter((p) => {
    const c = controllerOf(p);
    return c?.uid !== undefined && uids.has(c.uid);
  });
  return { pods: matched, expected };
}

/**
 * The budget that guards a pod (upstream `GetPubForPod`): one whose targetRef names the pod's scaling workload, or
 * whose non-empty selector matches the pod's labels; the first in the given order.
 */
export function pubForPod(
  pod: Pod,
  pubs: readonly PodUnavailableBudget[],
  workloads: Workloads,
): PodUnavailableBudget | undefined {
  const ns = pod.metadata?.namespace ?? '';
  const c = controllerOf(pod);
  const w = c ? scalingWorkload(c, ns, workloads) : undefined;
  for (const pub of pubs) {
    if (pub.metadata?.namespace !== ns || pub.metadata?.deletionTimestamp) continue;
    const ref = pub.spec?.targetRef;
    if (ref) {
      const target = w && {
        apiVersion: `${w.group}/v1`,
        kind: w.kind,
        name: w.workload.metadata?.name ?? '',
      };
      if (target && sameTarget(target, ref)) return pub;
      continue;
    }
    const sel = pub.spec?.selector;
    if (!sel || isSelectorEmpty(sel)) continue;
    if (compileLabelSelector(sel).matches(pod.metadata?.labels ?? {})) return pub;
  }
  return undefined;
}
