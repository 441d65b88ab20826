/**
 * Pods created before their WorkloadSpread (or before it had their subset): which subset each belongs to, judged by
 * the node it runs on (`pkg/controller/workloadspread/workloadspread_controller_utils.go` matchesSubset): the subset's
 * required term and tolerations must admit the node; among those, the highest score wins — preferred terms' weights
 * ×100, +10 when the subset's patch would change nothing in the pod, +1 when the subset still misses replicas.
 */
import type { Pod, WorkloadSpread, WorkloadSpreadSubset } from '@regatta/api';
import {
  fitsNodeAffinity,
  nodeSelectorTermMatches,
  untoleratedTaints,
  type SchedulingNode,
  type SchedulingSpec,
} from '@regatta/kube';
import { strategicMergePodTemplate } from '@regatta/uniteddeployment';
import { injectSubset } from './inject.js';

/** Whether the node admits the pod as the subset would place it (required term ANDed, tolerations added). */
function admits(pod: Pod, node: SchedulingNode, subset: WorkloadSpreadSubset): boolean {
  const tolerations = [...((pod.spec as SchedulingSpec | undefined)?.tolerations ?? []), ...(subset.tolerations ?? [])];
  if (untoleratedTaints(node.spec?.taints ?? [], tolerations, ['NoSchedule', 'NoExecute']).length > 0) return false;
  if (!subset.requiredNodeSelectorTerm) return true;
  const placed = injectSubset({ metadata: {}, spec: { targetRef: { apiVersion: '', kind: '', name: '' }, subsets: [{ name: subset.name, requiredNodeSelectorTerm: subset.requiredNodeSelectorTerm }] } }, pod, subset.name);
  const spec = placed.spec as SchedulingSpec;
  return fitsNodeAffinity({ affinity: spec.affinity ?? null }, node);
}

function patchChangesNothing(pod: Pod, subset: WorkloadSpreadSubset): boolean {
  if (!subset.patch) return false;
  const patched = strategicMergePodTemplate(pod as Record<string, unknown>, subset.patch) as Pod;
  const strip = (p: Pod) => JSON.stringify({ ...p, metadata: { ...p.metadata, annotations: undefined } });
  return strip(patched) === strip(pod);
}

/** The subset for a scheduled pod that carries none, or undefined (unscheduled, or no subset admits its node). */
export function subsetForExistingPod(
  ws: WorkloadSpread,
  pod: Pod,
  node: SchedulingNode | undefined,
  missing: ReadonlyMap<string, number>,
): WorkloadSpreadSubset | undefined {
  if (!pod.spec?.nodeName || !node) return undefined;
  let best: WorkloadSpreadSubset | undefined;
  let bestScore = -1;
  for (const subset of ws.spec.subsets) {
    if (!admits(pod, node, subset)) continue;
    const preferred = (subset.preferredNodeSelectorTerms ?? [])
      .filter((t) => nodeSelectorTermMatches(t.preference ?? {}, node))
      .reduce((sum, t) => sum + t.weight, 0);
    const score = preferred * 100 + (patchChangesNothing(pod, subset) ? 10 : 0) + ((missing.get(subset.name) ?? 0) > 0 ? 1 : 0);
    if (score > bestScore) {
      best = subset;
      bestScore = score;
    }
  }
  return best;
}

/** The metadata patch that ties an existing pod to its subset: the annotation, and the subset patch's labels/annotations. */
export function existingPodMetadataPatch(subset: WorkloadSpreadSubset, matched: string, ignorePatch: boolean): Record<string, unknown> {
  const meta = ignorePatch ? {} : (((subset.patch as { metadata?: Record<string, unknown> } | undefined)?.metadata ?? {}) as Record<string, unknown>);
  const annotations = { ...((meta['annotations'] as Record<string, string> | undefined) ?? {}), 'apps.kruise.io/matched-workloadspread': matched };
  return { metadata: { ...meta, annotations } };
}
