/**
 * What a subset puts into a pod at creation (`pkg/util/workloadspread/workloadspread.go`
 * injectWorkloadSpreadIntoPod): its tolerations appended; its preferred terms appended to the pod's preferred node
 * affinity; its required term ANDed into every required term the pod has (or the only one when it has none); its
 * `patch` applied as a strategic merge (a changed `priorityClassName` clears `priority`, so the API server's priority
 * admission sets it again); and the matched-workloadspread annotation. Pure: returns a new pod.
 */
import { WorkloadSpreadAnnotations, type Pod, type WorkloadSpread } from '@regatta/api';
import type { NodeSelectorTerm, Toleration } from '@regatta/kube';
import { strategicMergePodTemplate } from '@regatta/uniteddeployment';
import { matchedValue } from './matched.js';

type Obj = Record<string, unknown>;

/** The scheduling fields of a pod spec as the injection writes them. */
interface SpecView {
  tolerations?: Toleration[];
  priorityClassName?: string;
  priority?: number;
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
      preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[];
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
}

/** The pod with the subset injected; the pod unchanged (a copy) when the subset is not in the spec. */
export function injectSubset(ws: WorkloadSpread, pod: Pod, subsetName: string, uid?: string): Pod {
  const subset = ws.spec.subsets.find((s) => s.name === subsetName);
  let out = structuredClone(pod);
  if (!subset) return out;
  const spec = (out.spec ??= {}) as SpecView;
  if (subset.tolerations?.length) spec.tolerations = [...(spec.tolerations ?? []), ...structuredClone(subset.tolerations)];
  const affinity = (spec.affinity ??= {});
  const nodeAffinity = (affinity.nodeAffinity ??= {});
  if (subset.preferredNodeSelectorTerms?.length) {
    nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution = [
      ...(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution ?? []),
      ...structuredClone(subset.preferredNodeSelectorTerms),
    ];
  }
  const required = subset.requiredNodeSelectorTerm;
  if (required) {
    const selector = (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ??= {});
    const terms = (selector.nodeSelectorTerms ??= []);
    if (terms.length === 0) terms.push(structuredClone(required));
    else {
      // new term objects: a pod's JSON may share one term between entries once cloned
      selector.nodeSelectorTerms = terms.map((term) => ({
        ...term,
        ...(required.matchExpressions?.length ? { matchExpressions: [...(term.matchExpressions ?? []), ...structuredClone(required.matchExpressions)] } : {}),
        ...(required.matchFields?.length ? { matchFields: [...(term.matchFields ?? []), ...structuredClone(required.matchFields)] } : {}),
      }));
    }
  }
  if (subset.patch && Object.keys(subset.patch).length > 0) {
    const before = spec.priorityClassName;
    out = strategicMergePodTemplate(out as Obj, subset.patch) as Pod;
    const after = (out.spec ?? {}) as SpecView;
    if (after.priorityClassName !== before) delete after.priority;
  }
  const metadata = (out.metadata ??= {});
  metadata.labels ??= {};
  metadata.annotations = {
    ...metadata.annotations,
    [WorkloadSpreadAnnotations.MatchedWorkloadSpread]: matchedValue({ name: ws.metadata?.name ?? '', subset: subsetName, ...(uid ? { uid } : {}) }),
  };
  return out;
}
