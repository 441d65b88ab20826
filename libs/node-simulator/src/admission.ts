// A kubelet's admission of a pod bound to its node (upstream kubelet `pkg/kubelet/lifecycle/predicate.go`): the
// scheduler's checks run again on the node, because a pod can name its node itself (`spec.nodeName`) and so
// bypass the scheduler. Only the host-port check is simulated: a pod asking for a host port that an admitted pod
// of the node already holds is rejected, and a rejected pod is Failed for good (its controller replaces it). Pure.
import type { Container, Pod, PodStatus } from './types.js';

/** kubelet's reason for a pod rejected by the NodePorts predicate (the scheduler plugin's name). */
export const NODE_PORTS_REASON = 'NodePorts';
const NODE_PORTS_MESSAGE = 'Pod was rejected: Predicate NodePorts failed';

interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

interface ContainerPort {
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

const ANY_IP = '0.0.0.0';

/** The host ports a pod asks for (containers' `ports[].hostPort` other than 0). */
export function hostPorts(pod: Pod): HostPort[] {
  const containers: (Container & { ports?: ContainerPort[] | null })[] = pod.spec?.containers ?? [];
  return containers.flatMap((c) =>
    (c.ports ?? [])
      .filter((p) => (p.hostPort ?? 0) > 0)
      .map((p) => ({ ip: p.hostIP || ANY_IP, protocol: p.protocol || 'TCP', port: p.hostPort ?? 0 })),
  );
}

/** Two host ports clash on the same protocol and port when their IPs are equal or either is the wildcard. */
function clash(a: HostPort, b: HostPort): boolean {
  return (
    a.port === b.port && a.protocol === b.protocol && (a.ip === b.ip || a.ip === ANY_IP || b.ip === ANY_IP)
  );
}

/** Whether `pod` asks for a host port one of the node's admitted (running, not terminal) pods already holds. */
export function hostPortConflict(pod: Pod, admitted: readonly Pod[]): boolean {
  const wanted = hostPorts(pod);
  if (wanted.length === 0) return false;
  return admitted.some(
    (other) =>
      other.metadata.uid !== pod.metadata.uid &&
      hostPorts(other).some((h) => wanted.some((w) => clash(w, h))),
  );
}

/** The status a kubelet writes for a pod it rejects: Failed, with the predicate's name as the reason. */
export function rejectedStatus(): PodStatus {
  return { phase: 'Failed', reason: NODE_PORTS_REASON, message: NODE_PORTS_MESSAGE };
}

/** Whether the kubelet rejected this pod earlier (it then never runs it). */
export function isRejected(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' && pod.status.reason === NODE_PORTS_REASON;
}
