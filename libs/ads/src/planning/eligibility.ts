/**
 * Node eligibility (docs/ads.md "Which nodes run the daemon"; OpenKruise `pkg/controller/daemonset/daemonset_util.go`
 * `nodeShouldRunDaemonPod`, Kubernetes `pkg/controller/daemon/util` for the default tolerations). A node runs the
 * daemon when the pod's nodeName (if set), nodeSelector and required node affinity match it and its NoSchedule and
 * NoExecute taints are tolerated; a pod already there keeps running unless a NoExecute taint is not tolerated.
 * Unschedulable (cordoned), NotReady, unreachable and pressure nodes keep their daemon pods and get new ones: the
 * default tolerations cover the taints Kubernetes puts on such nodes.
 */
// the scheduler's matching is libs/kube's (node-scheduling.ts), shared with the BroadcastJob
import { fitsNodeAffinity, UNSCHEDULABLE_TAINT, untoleratedTaints } from '@regatta/kube';
import type { Node, SchedulingSpec, Toleration } from './node.js';

export interface Eligibility {
  /** A pod should be created on the node when none is there. */
  shouldRun: boolean;
  /** A pod already on the node may stay. */
  shouldContinueRunning: boolean;
}

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
export const DISK_PRESSURE_TAINT = 'node.kubernetes.io/disk-pressure';
export const MEMORY_PRESSURE_TAINT = 'node.kubernetes.io/memory-pressure';
export const PID_PRESSURE_TAINT = 'node.kubernetes.io/pid-pressure';
export { UNSCHEDULABLE_TAINT };
export const NETWORK_UNAVAILABLE_TAINT = 'node.kubernetes.io/network-unavailable';

/** `AddOrUpdateDaemonPodTolerations`: the tolerations every daemon pod gets (network-unavailable for hostNetwork). */
export function defaultDaemonTolerations(hostNetwork: boolean): Toleration[] {
  const out: Toleration[] = [
    { key: NOT_READY_TAINT, operator: 'Exists', effect: 'NoExecute' },
    { key: UNREACHABLE_TAINT, operator: 'Exists', effect: 'NoExecute' },
    { key: DISK_PRESSURE_TAINT, operator: 'Exists', effect: 'NoSchedule' },
    { key: MEMORY_PRESSURE_TAINT, operator: 'Exists', effect: 'NoSchedule' },
    { key: PID_PRESSURE_TAINT, operator: 'Exists', effect: 'NoSchedule' },
    { key: UNSCHEDULABLE_TAINT, operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (hostNetwork) out.push({ key: NETWORK_UNAVAILABLE_TAINT, operator: 'Exists', effect: 'NoSchedule' });
  return out;
}

/** The tolerations with the defaults added where no toleration with the same key and effect exists. */
export function withDaemonTolerations(
  tolerations: readonly Toleration[],
  hostNetwork: boolean,
): Toleration[] {
  const out = [...tolerations];
  for (const t of defaultDaemonTolerations(hostNetwork)) {
    if (!out.some((o) => o.key === t.key && o.effect === t.effect)) out.push(t);
  }
  return out;
}

/** `nodeShouldRunDaemonPod` for a daemon pod spec (the template's spec) on a node. */
export function nodeShouldRunDaemonPod(spec: SchedulingSpec, node: Node): Eligibility {
  const name = node.metadata?.name ?? '';
  if (spec.nodeName && spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  if (!fitsNodeAffinity(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = withDaemonTolerations(spec.tolerations ?? [], spec.hostNetwork === true);
  const taints = node.spec?.taints ?? [];
  const noExecute = untoleratedTaints(taints, tolerations, ['NoExecute']);
  if (noExecute.length > 0) return { shouldRun: false, shouldContinueRunning: false };
  const noSchedule = untoleratedTaints(taints, tolerations, ['NoSchedule']);
  if (noSchedule.length > 0) return { shouldRun: false, shouldContinueRunning: true };
  return { shouldRun: true, shouldContinueRunning: true };
}
