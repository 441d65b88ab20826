/** Maps cache changes to reconcile keys and expectation observations (spec §2.3 pod event handler). */
import type { KubeObject, LabelSelector } from '@regatta/kube';
import { compileLabelSelector, controllerRef } from '@regatta/kube';
import type { Expectations, Request } from '@regatta/runtime';
import { cloneSetKey } from './reconciler.js';

export interface Change {
  type: 'add' | 'update' | 'delete';
  object: KubeObject;
  old?: KubeObject;
}

/** The CloneSet controlling `obj`, if any. */
export function owningCloneSet(obj: KubeObject): Request | undefined {
  const ref = controllerRef(obj);
  if (!ref || ref.kind !== 'CloneSet' || !ref.apiVersion.startsWith('apps.kruise.io/')) return undefined;
  return { ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}), name: ref.name };
}

/**
 * A pod or claim changed: observe the scale / resourceVersion expectations of its CloneSet and return the key to
 * reconcile (undefined for objects no CloneSet controls).
 */
export function observeOwnedChange(
  expectations: Expectations,
  change: Change,
  kind: 'pod' | 'pvc',
): Request | undefined {
  const req = owningCloneSet(change.object) ?? (change.old ? owningCloneSet(change.old) : undefined);
  if (!req) return undefined;
  const key = cloneSetKey(req.namespace, req.name);
  const name = change.object.metadata?.name ?? '';
  if (change.type === 'add') {
    expectations.observeScale(key, 'create', name);
    if (change.object.metadata?.deletionTimestamp) expectations.observeScale(key, 'delete', name);
  } else if (change.type === 'delete') {
    expectations.observeScale(key, 'create', name);
    expectations.observeScale(key, 'delete', name);
    if (kind === 'pod') expectations.deleteUpdated(key, name);
  } else {
    if (change.object.metadata?.deletionTimestamp) expectations.observeScale(key, 'delete', name);
    const rv = change.object.metadata?.resourceVersion;
    if (kind === 'pod' && rv) expectations.observeUpdated(key, name, rv);
  }
  return req;
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
    if (selectorMatches(selector, pod)) out.push(cloneSetRequest({ type: 'update', object: cs }));
  }
  return out;
}

/** Whether a selector matches the object's labels; an invalid selector matches nothing. */
function selectorMatches(selector: LabelSelector | null, obj: KubeObject): boolean {
  try {
    return compileLabelSelector(selector).matches(obj.metadata?.labels);
  } catch {
    return false;
  }
}

/** A ControllerRevision changed: reconcile its owner. */
export function revisionOwner(change: Change): Request | undefined {
  return owningCloneSet(change.object);
}

/** A CloneSet changed: reconcile it. */
export function cloneSetRequest(change: Change): Request {
  const m = change.object.metadata ?? {};
  return { ...(m.namespace ? { namespace: m.namespace } : {}), name: m.name ?? '' };
}
