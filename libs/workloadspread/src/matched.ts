/**
 * The annotation that ties a pod to its WorkloadSpread and subset (`apps.kruise.io/matched-workloadspread`,
 * `pkg/util/workloadspread/workloadspread.go` InjectWorkloadSpread), and a pod's version key for the versioned
 * subset statuses.
 */
import { WorkloadSpreadAnnotations, type Pod } from '@regatta/api';

export interface MatchedWorkloadSpread {
  /** The WorkloadSpread's name. */
  name: string;
  /** The subset's name. */
  subset: string;
  /** An id the webhook gave a pod created without a name yet (generateName), standing in for it in creatingPods. */
  uid?: string;
}

/** The pod's matched WorkloadSpread, or undefined (absent or not JSON of that form). */
export function matchedOf(pod: Pod): MatchedWorkloadSpread | undefined {
  const raw = pod.metadata?.annotations?.[WorkloadSpreadAnnotations.MatchedWorkloadSpread];
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<MatchedWorkloadSpread> | null;
    if (!v || typeof v.name !== 'string' || typeof v.subset !== 'string') return undefined;
    return { name: v.name, subset: v.subset, ...(typeof v.uid === 'string' && v.uid ? { uid: v.uid } : {}) };
  } catch {
    return undefined;
  }
}

/** The annotation's value (upstream's JSON field order: name, subset, uid). */
export function matchedValue(m: MatchedWorkloadSpread): string {
  return JSON.stringify({ name: m.name, subset: m.subset, ...(m.uid ? { uid: m.uid } : {}) });
}

/** The key of statuses kept for every version alike. */
export const VERSION_IGNORED = 'versionIgnored';

/**
 * The version a pod counts under (`GetPodVersion`): its `pod-template-hash` when a ReplicaSet owns it (Deployment and
 * ReplicaSet targets have versioned statuses upstream), else {@link VERSION_IGNORED}.
 */
export function podVersion(pod: Pod): string {
  const owner = (pod.metadata?.ownerReferences ?? []).find((r) => r.controller);
  if (owner?.kind !== 'ReplicaSet') return VERSION_IGNORED;
  return pod.metadata?.labels?.['pod-template-hash'] ?? VERSION_IGNORED;
}
