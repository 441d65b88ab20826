/**
 * Which SidecarSets a pod or revision change concerns (OpenKruise
 * `pkg/controller/sidecarset/sidecarset_pod_event_handler.go`): a pod maps through its
 * `kruise.io/sidecarset-injected-list` annotation to the SidecarSets whose sidecars it holds; an update matters when
 * the pod starts terminating, its readiness or its sidecars' consistency changes, or (with an update selector) its
 * labels change. Deletions enqueue too, so the status drops the pod at once. A revision maps through its
 * `kruise.io/sidecarset-name` label.
 */
import type { Change, KubeObject } from '@regatta/kube';
import { type Pod, isPodReady } from '@regatta/lifecycle';
import type { Request } from '@regatta/runtime';
import type { ObjectReader } from '@regatta/workload';
import { SIDECARSET_NAME_LABEL } from './keys.js';
import { injectedSidecarSets, isPodStateConsistent, podHasAllSidecars } from './pod-state.js';
import type { SidecarSetView } from './types.js';

const jsonEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/** Whether an update of the pod concerns the SidecarSet. */
export function podUpdateConcerns(set: SidecarSetView, old: Pod, cur: Pod): boolean {
  if (set.spec?.updateStrategy?.type === 'NotUpdate') return false;
  if (!old.metadata?.deletionTimestamp && cur.metadata?.deletionTimestamp) return true;
  if (old.metadata?.deletionTimestamp) return false;
  if (isPodReady(old) !== isPodReady(cur)) return true;
  if (isPodStateConsistent(set, old) !== isPodStateConsistent(set, cur)) return true;
  return !!set.spec?.updateStrategy?.selector && !jsonEqual(old.metadata?.labels, cur.metadata?.labels);
}

export function sidecarSetsForPod(
  change: Change<KubeObject>,
  sidecarsets: Pick<ObjectReader<KubeObject>, 'get'>,
): Request[] {
  const pod = change.object as Pod;
  const old = change.old as Pod | undefined;
  if (change.type === 'update' && old?.metadata?.resourceVersion === pod.metadata?.resourceVersion) return [];
  const out: Request[] = [];
  for (const name of injectedSidecarSets(pod)) {
    const set = sidecarsets.get(undefined, name) as SidecarSetView | undefined;
    if (!set || !podHasAllSidecars(set, pod)) continue;
    if (change.type === 'update' && old && !podUpdateConcerns(set, old, pod)) continue;
    out.push({ name });
  }
  return out;
}

export function sidecarSetForRevisionChange(change: Change<KubeObject>): Request[] {
  const name = change.object.metadata?.labels?.[SIDECARSET_NAME_LABEL];
  return name ? [{ name }] : [];
}

/**
 * Where SidecarSet revisions live: `REGATTA_SIDECARSET_REVISION_NAMESPACE`, else the program's own namespace
 * (`POD_NAMESPACE`), else `kube-system` (as the program's Lease).
 */
export function sidecarSetRevisionNamespace(env: Readonly<Record<string, string | undefined>>): string {
  return env['REGATTA_SIDECARSET_REVISION_NAMESPACE'] || env['POD_NAMESPACE'] || 'kube-system';
}
