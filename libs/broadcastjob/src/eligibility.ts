/**
 * Which nodes a BroadcastJob's pod may run on (OpenKruise `pkg/controller/broadcastjob/broadcastjob_controller.go`
 * `checkNodeFitness`): the pod's `nodeName` when set, its `nodeSelector` and required node affinity, its tolerations
 * against the node's NoSchedule and NoExecute taints, and a cordoned node (`spec.unschedulable`) only when the pod
 * tolerates `node.kubernetes.io/unschedulable`. Unlike a DaemonSet, no tolerations are added. Upstream's last check,
 * that the node has room for the pod's resource requests, is not made (docs/adr/0073-broadcastjob.md).
 */
import {
  fitsNodeAffinity,
  toleratesTaint,
  UNSCHEDULABLE_TAINT,
  type SchedulingNode,
  type SchedulingSpec,
} from '@regatta/kube';

/** The scheduler's matching is libs/kube's (node-scheduling.ts), shared with the Advanced DaemonSet. */
export type { SchedulingSpec } from '@regatta/kube';
export type Node = SchedulingNode;

/** Why the pod cannot run on the node, or undefined when it can. */
export function unfitReason(spec: SchedulingSpec, node: Node): string | undefined {
  const name = node.metadata?.name ?? '';
  if (spec.nodeName && spec.nodeName !== name) return "node(s) didn't match the requested node name";
  if (!fitsNodeAffinity(spec, node)) return "node(s) didn't match Pod's node affinity/selector";
  const tolerations = spec.tolerations ?? [];
  const taint = (node.spec?.taints ?? []).find(
    (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerations.some((tol) => toleratesTaint(tol, t)),
  );
  if (taint) return `node(s) had taint {${taint.key}: ${taint.value ?? ''}}, that the pod didn't tolerate`;
  if (node.spec?.unschedulable) {
    const cordon = { key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule' };
    if (!tolerations.some((t) => toleratesTaint(t, cordon))) return 'node(s) were unschedulable';
  }
  return undefined;
}

/** Whether the pod can run on the node. */
export const fitsNode = (spec: SchedulingSpec, node: Node): boolean => unfitReason(spec, node) === undefined;
