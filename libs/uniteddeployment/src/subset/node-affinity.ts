/**
 * Subset placement on the pod spec (OpenKruise `pkg/controller/uniteddeployment/adapter/adapter_util.go`
 * `attachNodeAffinity`, `attachTolerations`): the subset's match expressions are ANDed into every required node
 * selector term; its tolerations are appended.
 */
import { cloneJson } from '@regatta/kube';
import type { NodeSelectorRequirement, Subset, Toleration } from '../types.js';

interface PodSpecPlacement {
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: {
        nodeSelectorTerms?: { matchExpressions?: NodeSelectorRequirement[]; matchFields?: unknown[] }[];
      };
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  tolerations?: Toleration[];
  [k: string]: unknown;
}

/** The pod spec with the subset's node selector term expressions and tolerations added. */
export function placeInSubset(podSpec: Record<string, unknown>, subset: Subset): Record<string, unknown> {
  const spec = cloneJson(podSpec) as PodSpecPlacement;
  const expressions = subset.nodeSelectorTerm?.matchExpressions ?? [];
  if (expressions.length > 0) {
    spec.affinity ??= {};
    spec.affinity.nodeAffinity ??= {};
    const required = (spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ??= {});
    const terms = required.nodeSelectorTerms && required.nodeSelectorTerms.length > 0 ? required.nodeSelectorTerms : [{}];
    required.nodeSelectorTerms = terms.map((t) => ({
      ...t,
      matchExpressions: [...(t.matchExpressions ?? []), ...cloneJson(expressions)],
    }));
  }
  const tolerations = subset.tolerations ?? [];
  if (tolerations.length > 0) spec.tolerations = [...(spec.tolerations ?? []), ...cloneJson(tolerations)];
  return spec;
}
