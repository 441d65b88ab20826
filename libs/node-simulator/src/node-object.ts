// The Node objects and their status as a kubelet registers and reports them. Pure.
import { createHash } from 'node:crypto';
import type { NodeAddressing } from './addressing.js';
import { rfc3339 } from './pod-status.js';
import type { Node, NodeCondition, NodeImage, NodeStatus, Taint } from './types.js';

/** `status.nodeInfo.containerRuntimeVersion` of every simulated node: a Node reporting another runtime has a real kubelet. */
export const SIMULATED_RUNTIME_VERSION = 'containerd://2.1.0-regatta-sim';

export const SIMULATED_LABEL = 'sim.regatta.dev/simulated';
export const PREFIX_ANNOTATION = 'sim.regatta.dev/name-prefix';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
/** Put on every new Node by the API server's TaintNodesByCondition admission; the node lifecycle controller
 * (not running here) removes it once the node is Ready — so the simulator does. */
export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';

export interface NodeSpec {
  name: string;
  index: number;
  prefix: string;
  zone: string;
  labels: Record<string, string>;
  capacity: { cpu: string; memory: string; pods: string };
  taints: Taint[];
  addressing: NodeAddressing;
  kubeletVersion: string;
  bootID: string;
}

const hex = (s: string) => createHash('sha256').update(s).digest('hex');
const uuid = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;

export function nodeLabels(n: NodeSpec): Record<string, string> {
  return {
    ...n.labels,
    'kubernetes.io/hostname': n.name,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'beta.kubernetes.io/arch': 'amd64',
    'topology.kubernetes.io/zone': n.zone,
    'node.kubernetes.io/instance-type': 'regatta-sim',
    [SIMULATED_LABEL]: 'true',
  };
}

export function buildNode(n: NodeSpec): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: n.name,
      labels: nodeLabels(n),
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        [PREFIX_ANNOTATION]: n.prefix,
      },
    },
    spec: {
      podCIDR: n.addressing.podCIDR,
      podCIDRs: [n.addressing.podCIDR],
      providerID: `regatta-sim://${n.name}`,
      ...(n.taints.length ? { taints: n.taints } : {}),
    },
  };
}

/** Put by the node lifecycle controller on a cordoned node (`spec.unschedulable: true`); removed on uncordon. */
export const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

/**
 * Taints wanted on the node. The simulator manages only the taints the node lifecycle controller (not running in
 * this cluster) manages: `unreachable:NoSchedule` while the node is down, `unschedulable:NoSchedule` while
 * `spec.unschedulable` is set (cordon), never `not-ready:NoSchedule` (the API server puts it on every new Node and
 * the controller removes it once the node is Ready). Every other taint is the user's (or was put at registration,
 * as kubelet's `--register-with-taints`) and is kept as it is, in its place.
 */
export function desiredTaints(
  existing: Taint[] | undefined,
  o: { down: boolean; unschedulable: boolean; now: number },
): Taint[] {
  const managed = (t: Taint) =>
    t.effect === 'NoSchedule' &&
    (t.key === UNREACHABLE_TAINT || t.key === NOT_READY_TAINT || t.key === UNSCHEDULABLE_TAINT);
  const find = (key: string) => (existing ?? []).find((t) => t.key === key && t.effect === 'NoSchedule');
  const keep = (key: string, now: number): Taint =>
    find(key) ?? { key, effect: 'NoSchedule', timeAdded: rfc3339(now) };
  return [
    ...(existing ?? []).filter((t) => !managed(t)),
    ...(o.unschedulable ? [keep(UNSCHEDULABLE_TAINT, o.now)] : []),
    ...(o.down ? [keep(UNREACHABLE_TAINT, o.now)] : []),
  ];
}

/** Labels of `wanted` the node does not have yet (a label the node has, whatever its value, is never changed). */
export function missingLabels(
  existing: Record<string, string> | undefined,
  wanted: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(wanted).filter(([k]) => existing?.[k] === undefined));
}

export function sameTaints(a: Taint[] | undefined, b: Taint[] | undefined): boolean {
  const k = (l: Taint[] | undefined) =>
    JSON.stringify((l ?? []).map((t) => [t.key, t.value ?? '', t.effect]).sort());
  return k(a) === k(b);
}

function condition(
  prev: NodeCondition[] | undefined,
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): NodeCondition {
  const old = prev?.find((c) => c.type === type);
  return {
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: rfc3339(now),
    lastTransitionTime:
      old && old.status === status && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(now),
  };
}

/**
 * The node status. `down`: the simulated kubelet has stopped reporting; the status is then what the node
 * lifecycle controller writes for such a node (Ready=Unknown), since that controller is not running here.
 */
export function buildNodeStatus(
  n: NodeSpec,
  o: { down: boolean; images: NodeImage[]; now: number; prev?: NodeCondition[] },
): NodeStatus {
  const { now, prev } = o;
  const cap = {
    cpu: n.capacity.cpu,
    memory: n.capacity.memory,
    pods: n.capacity.pods,
    'ephemeral-storage': '100Gi',
    'hugepages-2Mi': '0',
  };
  const h = hex(`node:${n.prefix}:${n.name}`);
  const conditions = o.down
    ? (['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'] as const).map((type) => {
        const c = condition(
          prev,
          type,
          'Unknown',
          'NodeStatusUnknown',
          'Kubelet stopped posting node status.',
          now,
        );
        const old = prev?.find((p) => p.type === type);
        return { ...c, lastHeartbeatTime: old?.lastHeartbeatTime ?? c.lastHeartbeatTime };
      })
    : [
        condition(
          prev,
          'MemoryPressure',
          'False',
          'KubeletHasSufficientMemory',
          'kubelet has sufficient memory available',
          now,
        ),
        condition(
          prev,
          'DiskPressure',
          'False',
          'KubeletHasNoDiskPressure',
          'kubelet has no disk pressure',
          now,
        ),
        condition(
          prev,
          'PIDPressure',
          'False',
          'KubeletHasSufficientPID',
          'kubelet has sufficient PID available',
          now,
        ),
        condition(prev, 'Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', now),
      ];
  return {
    capacity: cap,
    allocatable: { ...cap },
    conditions,
    addresses: [
      { type: 'InternalIP', address: n.addressing.internalIP },
      { type: 'Hostname', address: n.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: h.slice(0, 32),
      systemUUID: uuid(h.slice(32)),
      bootID: n.bootID,
      kernelVersion: '6.1.0-regatta-sim',
      osImage: 'Regatta simulated node',
      containerRuntimeVersion: SIMULATED_RUNTIME_VERSION,
      kubeletVersion: n.kubeletVersion,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    images: o.images,
  };
}

/** The node's Lease in kube-node-lease, owned by the Node (as kubelet creates it). */
export function buildLease(name: string, nodeUid: string, now: number) {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      namespace: 'kube-node-lease',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: nodeUid }],
    },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(now) },
  };
}

/** metav1.MicroTime: RFC 3339 with microseconds. */
export const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
