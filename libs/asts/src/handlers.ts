/**
 * What the program maps by hand on top of the kit's generic handlers (OpenKruise
 * `pkg/controller/statefulset/statefulset_controller.go` event handlers): orphan pods named like a set's pods to
 * that set, and which pods the cache keeps (Kruise StatefulSets' pods and orphans; never the pods of native
 * `apps/v1` StatefulSets or other controllers).
 */
import type { Change, KubeObject } from '@regatta/kube';
import { controllerRef } from '@regatta/kube';
import { type OwnerKind, type Request, controllerRequest } from '@regatta/runtime';
import { OWNED_BY_ASTS_ANNOTATION, parentAndOrdinal } from './planning/index.js';

/** Advanced StatefulSet as owner references name it (group apps.kruise.io, not apps). */
export const STATEFULSET_OWNER: OwnerKind = { group: 'apps.kruise.io', kind: 'StatefulSet' };

export function owningStatefulSet(obj: KubeObject): Request | undefined {
  return controllerRequest(STATEFULSET_OWNER, obj);
}

export function isStatefulSetPodOrOrphan(pod: KubeObject): boolean {
  return controllerRef(pod) === undefined || owningStatefulSet(pod) !== undefined;
}

/** A pod changed: if it is an orphan named `<set>-<ordinal>`, the set of that name (it may adopt it). */
export function statefulSetsForOrphanChange(
  change: Change,
  readers: { statefulsets: { get(namespace: string | undefined, name: string): KubeObject | undefined } },
): Request[] {
  const pod = change.object;
  if (change.type === 'delete' || controllerRef(pod) !== undefined || pod.metadata?.deletionTimestamp)
    return [];
  const { parent, ordinal } = parentAndOrdinal(pod.metadata?.name ?? '');
  if (ordinal < 0) return [];
  const ns = pod.metadata?.namespace;
  const set = readers.statefulsets.get(ns, parent);
  return set ? [{ ...(ns ? { namespace: ns } : {}), name: parent }] : [];
}

/**
 * A claim changed that a set's claim resize marked (`apps.kruise.io/owned-by-asts`): that set, which waits for the
 * resize to complete (OpenKruise `pkg/controller/statefulset/pvc_event_handler.go`, updates only).
 */
export function statefulSetForResizedClaim(change: Change): Request[] {
  if (change.type !== 'update') return [];
  const claim = change.object;
  const name = claim.metadata?.annotations?.[OWNED_BY_ASTS_ANNOTATION];
  if (!name) return [];
  const ns = claim.metadata?.namespace;
  return [{ ...(ns ? { namespace: ns } : {}), name }];
}
