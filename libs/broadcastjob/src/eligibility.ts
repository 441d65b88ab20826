/**
 * Which nodes a BroadcastJob's pod may run on (OpenKruise `pkg/controller/broadcastjob/broadcastjob_controller.go`
 * `checkNodeFitness`): the pod's `nodeName` when set, its `nodeSelector` and required node affinity, its tolerations
 * against the node's NoSchedule and NoExecute taints, and a cordoned node (`spec.unschedulable`) only when the pod
 * tolerates `node.kubernetes.io/unschedulable`. Unlike a DaemonSet, no tolerations are added. Upstream's last check,
 * that the node has room for the pod's resource requests, is not made (docs/adr/0073-broadcastjob.md).
 */
import type { KubeObject } from '@regatta/kube';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[] | null;
  matchFields?: NodeSelectorRequirement[] | null;
}

/** The scheduling fields of the template's pod spec. */
export interface SchedulingSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string> | null;
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] | null } | null;
    } | null;
  } | null;
  tolerations?: Toleration[] | null;
}

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: Taint[] | null; [k: string]: unknown };
}

export const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

/** core/v1 `Toleration.ToleratesTaint`. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
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
      if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0]!)) return false;
      const a = Number(value);
      const b = Number(values[0]);
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A node selector term: every expression (labels) and field (`metadata.name`) matches; an empty term matches none. */
export function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  return (
    exprs.every((r) => requirementMatches(r, labels[r.key])) &&
    fields.every((r) => requirementMatches(r, r.key === 'metadata.name' ? node.metadata?.name : undefined))
  );
}

/** Why the pod cannot run on the node, or undefined when it can. */
export function unfitReason(spec: SchedulingSpec, node: Node): string | undefined {
  const name = node.metadata?.name ?? '';
  if (spec.nodeName && spec.nodeName !== name) return "node(s) didn't match the requested node name";
  const labels = node.metadata?.labels ?? {};
  const selectorOk = Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => labels[k] === v);
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!selectorOk || (terms != null && !terms.some((t) => termMatches(t, node)))) {
    return "node(s) didn't match Pod's node affinity/selector";
  }
  const tolerations = spec.tolerations ?? [];
  const taint = (node.spec?.taints ?? []).find(
    (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerations.some((tol) => toleratesTaint(tol, t)),
  );
  if (taint) return `node(s) had taint {${taint.key}: ${taint.value ?? ''}}, that the pod didn't tolerate`;
  if (node.spec?.unschedulable) {
    const cordon = { key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule' };
    if (!tolerations.some((t) => toleratesTaint(t, cordon))) return 'node(s) were unschedulable';
  }
  return undefined;
}

/** Whether the pod can run on the node. */
export const fitsNode = (spec: SchedulingSpec, node: Node): boolean => unfitReason(spec, node) === undefined;
