/**
 * How a pod spec's scheduling fields meet a Node, as the scheduler's filters judge them (Kubernetes
 * `pkg/scheduler/framework/plugins/nodeaffinity` and `tainttoleration`; core/v1 `Toleration.ToleratesTaint`,
 * `component-helpers/scheduling/corev1/nodeaffinity`). Shared by the controllers that place pods on nodes themselves
 * (Advanced DaemonSet, BroadcastJob). Pure.
 */
import type { KubeObject } from './meta.js';

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | (string & {});
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal' | (string & {});
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | (string & {});
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[] | null;
  matchFields?: NodeSelectorRequirement[] | null;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] | null } | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}

/** The scheduling fields of a pod (template) spec. */
export interface SchedulingSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string> | null;
  affinity?: Affinity | null;
  tolerations?: Toleration[] | null;
  hostNetwork?: boolean;
  [k: string]: unknown;
}

/** The parts of core/v1 Node that placement reads. */
export interface SchedulingNode extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: Taint[] | null; [k: string]: unknown };
  status?: { conditions?: { type: string; status: string }[] | null; [k: string]: unknown };
}

/** The taint a cordoned node (`spec.unschedulable`) is treated as having. */
export const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

/** core/v1 `Toleration.ToleratesTaint`: an empty key with `Exists` tolerates every taint (of its effect, if set). */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/** Whole decimal integers only, as Go's `strconv.ParseInt(v, 10, 64)` accepts them for Gt and Lt. */
const INTEGER = /^[+-]?\d+$/;

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
      const bound = values[0];
      if (value === undefined || values.length !== 1 || !INTEGER.test(value) || !INTEGER.test(bound ?? ''))
        return false;
      return r.operator === 'Gt' ? Number(value) > Number(bound) : Number(value) < Number(bound);
    }
    default:
      return false;
  }
}

/** A node selector term: every expression (labels) and field (`metadata.name`) matches; an empty term matches none. */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: SchedulingNode): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  return (
    exprs.every((r) => requirementMatches(r, labels[r.key])) &&
    fields.every((r) => requirementMatches(r, r.key === 'metadata.name' ? node.metadata?.name : undefined))
  );
}

/** `nodeSelector` and the required node affinity (its terms ORed) match the node (the `NodeAffinity` filter). */
export function fitsNodeAffinity(spec: SchedulingSpec, node: SchedulingNode): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  // a required affinity without terms matches no node (`MatchNodeSelectorTerms` of an empty list)
  return !required || (required.nodeSelectorTerms ?? []).some((t) => nodeSelectorTermMatches(t, node));
}

/** The node's taints of those effects that no toleration tolerates. */
export function untoleratedTaints(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  effects: readonly string[],
): Taint[] {
  return taints.filter(
    (taint) => effects.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)),
  );
}
