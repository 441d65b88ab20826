/**
 * Which node a daemon pod belongs to, and the pods of each node oldest first (OpenKruise
 * `pkg/controller/daemonset/daemonset_controller.go` `getNodesToDaemonPods`; Kubernetes `util.GetTargetNodeName`).
 */
import { getPodCondition, type Pod } from '@regatta/lifecycle';
import type { SchedulingSpec } from './node.js';

/** `spec.nodeName`, else the single `metadata.name In [node]` of the required node affinity, else undefined. */
export function targetNodeName(pod: Pod): string | undefined {
  const spec = pod.spec as SchedulingSpec | undefined;
  if (spec?.nodeName) return spec.nodeName;
  const terms =
    spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
    }
  }
  return undefined;
}

/**
 * `podByCreationTimestampAndPhase`: scheduled pods before pending ones, then older creation first, then name —
 * the pod a node keeps when it has several is the first.
 */
export function compareDaemonPods(a: Pod, b: Pod): number {
  const sa = a.spec?.nodeName ? 0 : 1;
  const sb = b.spec?.nodeName ? 0 : 1;
  if (sa !== sb) return sa - sb;
  const ta = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  if (ta !== tb) return ta - tb;
  return (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
}

/** The pods of each node (by {@link targetNodeName}), each list oldest first; pods with no node are left out. */
export function nodesToDaemonPods(pods: readonly Pod[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const pod of pods) {
    const node = targetNodeName(pod);
    if (node === undefined) continue;
    const list = out.get(node);
    if (list) list.push(pod);
    else out.set(node, [pod]);
  }
  for (const list of out.values()) list.sort(compareDaemonPods);
  return out;
}

/** The pod is being deleted. */
export function isTerminating(pod: Pod): boolean {
  return !!pod.metadata?.deletionTimestamp;
}

/** How long until a Ready pod has been ready for minReadySeconds (ms; 0 when available or not ready). */
export function msUntilAvailable(pod: Pod, minReadySeconds: number, now: Date): number {
  const ready = getPodCondition(pod, 'Ready');
  if (ready?.status !== 'True' || minReadySeconds <= 0 || !ready.lastTransitionTime) return 0;
  return Math.max(Date.parse(ready.lastTransitionTime) + minReadySeconds * 1000 - now.getTime(), 0);
}
