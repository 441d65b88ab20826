/**
 * What the CloneSet program maps by hand on top of the kit's generic handlers (For: the CloneSet itself; Owns: pods
 * and claims to their controlling CloneSet through expectations, `libs/kit`): orphan pods to the CloneSets that may
 * adopt them, and which pods the cache keeps (OpenKruise `pkg/controller/cloneset/cloneset_event_handler.go`).
 */
import type { Change, KubeObject, LabelSelector } from '@regatta/kube';
import { compileLabelSelector, controllerRef } from '@regatta/kube';
import { controllerRequest, requestForObject, type OwnerKind, type Request } from '@regatta/runtime';

/** CloneSet as owner references name it. */
export const CLONESET_OWNER: OwnerKind = { group: 'apps.kruise.io', kind: 'CloneSet' };

/** The CloneSet controlling `obj`, if any. */
export function owningCloneSet(obj: KubeObject): Request | undefined {
  return controllerRequest(CLONESET_OWNER, obj);
}

/** Pods the program keeps in its cache: CloneSets' pods and orphans it may adopt (never other controllers' pods). */
export function isCloneSetPodOrOrphan(pod: KubeObject): boolean {
  return controllerRef(pod) === undefined || owningCloneSet(pod) !== undefined;
}

/**
 * A pod no controller owns: the CloneSets of its namespace whose selector matches it, which may adopt it (a CloneSet
 * with an invalid selector matches nothing).
 */
export function cloneSetsForOrphan(pod: KubeObject, clonesets: readonly KubeObject[]): Request[] {
  if (controllerRef(pod) !== undefined || pod.metadata?.deletionTimestamp) return [];
  const out: Request[] = [];
  for (const cs of clonesets) {
    if (cs.metadata?.namespace !== pod.metadata?.namespace) continue;
    const selector = (cs as { spec?: { selector?: LabelSelector | null } }).spec?.selector ?? null;
    if (selectorMatches(selector, pod)) out.push(requestForObject(cs));
  }
  return out;
}

/**
 * A pod changed (the Watches mapping on pods): if it is an orphan, the CloneSets that may adopt it. A pod with a
 * controller (almost every pod) costs nothing here: the namespace's CloneSets are listed only for an orphan, since
 * listing them for every pod event cost the program O(pods × CloneSets) and held its event loop past the leader
 * lease's renew deadline while 1 000 CloneSets created their 10 000 pods (docs/reliability-findings-1-16.md finding 4).
 */
export function cloneSetsForOrphanChange(
  change: Change,
  readers: { clonesets: { list(opts: { namespace: string }): KubeObject[] } },
): Request[] {
  const pod = change.object;
  if (change.type === 'delete' || controllerRef(pod) !== undefined || pod.metadata?.deletionTimestamp)
    return [];
  return cloneSetsForOrphan(pod, readers.clonesets.list({ namespace: pod.metadata?.namespace ?? '' }));
}

/** Whether a selector matches the object's labels; an invalid selector matches nothing. */
function selectorMatches(selector: LabelSelector | null, obj: KubeObject): boolean {
  try {
    return compileLabelSelector(selector).matches(obj.metadata?.labels);
  } catch {
    return false;
  }
}
