/**
 * Node eligibility (docs/ads.md "Which nodes run the daemon"; OpenKruise `pkg/controller/daemonset/daemonset_util.go`
 * `nodeShouldRunDaemonPod`, Kubernetes `pkg/controller/daemon/util` for the default tolerations). A node runs the
 * daemon when the pod's nodeName (if set), nodeSelector and required node affinity match it and its NoSchedule and
 * NoExecute taints are tolerated; a pod already there keeps running unless a NoExecute taint is not tolerated.
 * Unschedulable (cordoned), NotReady, unreachable and pressure nodes keep their daemon pods and get new ones: the
 * default tolerations cover the taints Kubernetes puts on such nodes.
 */
import type {
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  SchedulingSpec,
  Taint,
  Toleration,
} from './node.js';

export interface Eligibility {
  /** A pod should be created on the node when none is there. */
  shouldRun: boolean;
  /** A pod already on the node may stay. */
  shouldContinueRunning: boolean;
}

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
export const DISK_PRESSURE_TAINT = 'node.kubernetes.io/disk-pressure';
export const MEMORY_PRESSURE_TAINT = 'node.kubernetes.io/memory-pressure';
export const PID_PRESSURE_TAINT = 'node.kubernetes.io/pid-pressure';
export const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';
export const NETWORK_UNAVAILABLE_TAINT = 'node.kubernetes.io/network-unavailable';

/** `AddOrUpdateDaemonPodTolerations`: the tolerations every daemon pod gets (network-unavailable for hostNetwork). */
export function defaultDaemonTolerations(hostNetwork: boolean): Toleration[] {
  const out: Toleration[] = [
    { key: NOT_READY_TAINT, operator: 'Exists', effect: 'NoExecute' },
    { key: UNREACHABLE_TAINT, operator: 'Exists', effect: 'NoExecute' },
    { key: DISK_PRESSURE_TAINT, operator: 'Exists', effect: 'NoSchedule' },
    { key: MEMORY_PRESSURE_TAINT, operator: 'Exists', effect: 'NoSchedule' },
    { key: PID_PRESSURE_TAINT, operator: 'Exists', effect: 'NoSchedule' },
    { key: UNSCHEDULABLE_TAINT, operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (hostNetwork) out.push({ key: NETWORK_UNAVAILABLE_TAINT, operator: 'Exists', effect: 'NoSchedule' });
  return out;
}

/** The tolerations with the defaults added where no toleration with the same key and effect exists. */
export function withDaemonTolerations(
  tolerations: readonly Toleration[],
  hostNetwork: boolean,
): Toleration[] {
  const out = [...tolerations];
  for (const t of defaultDaemonTolerations(hostNetwork)) {
    if (!out.some((o) => o.key === t.key && o.effect === t.effect)) out.push(t);
  }
  return out;
}

/** core/v1 `Toleration.ToleratesTaint`. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  // an empty key with Exists tolerates every taint
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/** The node's taints with that effect no toleration tolerates. */
export function untoleratedTaints(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  effects: readonly string[],
): Taint[] {
  return taints.filter(
    (taint) => effects.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)),
  );
}

function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1) return false;
      const a = Number.parseInt(value, 10);
      const b = Number.parseInt(values[0] ?? '', 10);
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** core/v1 node selector term: all expressions over labels and all fields (`metadata.name` only) match; empty → no. */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  for (const r of exprs) if (!requirementMatches(r, labels[r.key])) return false;
  for (const r of fields) {
    const value = r.key === 'metadata.name' ? node.metadata?.name : undefined;
    if (!requirementMatches(r, value)) return false;
  }
  return true;
}

/** nodeSelector and required node affinity (terms ORed) match the node (scheduler `NodeAffinity` filter). */
export function fitsNodeAffinity(spec: SchedulingSpec, node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => nodeSelectorTermMatches(t, node));
}

/** `nodeShouldRunDaemonPod` for a daemon pod spec (the template's spec) on a node. */
export function nodeShouldRunDaemonPod(spec: SchedulingSpec, node: Node): Eligibility {
  const name = node.metadata?.name ?? '';
  if (spec.nodeName && spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  if (!fitsNodeAffinity(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = withDaemonTolerations(spec.tolerations ?? [], spec.hostNetwork === true);
  const taints = node.spec?.taints ?? [];
  const noExecute = untoleratedTaints(taints, tolerations, ['NoExecute']);
  if (noExecute.length > 0) return { shouldRun: false, shouldContinueRunning: false };
  const noSchedule = untoleratedTaints(taints, tolerations, ['NoSchedule']);
  if (noSchedule.length > 0) return { shouldRun: false, shouldContinueRunning: true };
  return { shouldRun: true, shouldContinueRunning: true };
}
