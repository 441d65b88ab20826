import { describe, expect, it } from 'vitest';
import { nodeAddressing } from './addressing.js';
import {
  buildLease,
  buildNode,
  buildNodeStatus,
  desiredTaints,
  microTime,
  missingLabels,
  NOT_READY_TAINT,
  sameTaints,
  UNREACHABLE_TAINT,
  UNSCHEDULABLE_TAINT,
  type NodeSpec,
} from './node-object.js';
import { T0 } from './test-support.js';

const spec: NodeSpec = {
  name: 'node2',
  index: 2,
  prefix: 'node',
  zone: 'zone-b',
  labels: { team: 'x', 'topology.kubernetes.io/zone': 'overridden' },
  capacity: { cpu: '4', memory: '8Gi', pods: '50' },
  taints: [{ key: 'dedicated', value: 'sim', effect: 'NoSchedule' }],
  addressing: nodeAddressing('node', 2),
  kubeletVersion: 'v1.36.3',
  bootID: 'boot',
};

describe('buildNode', () => {
  it('carries the well-known labels (zone wins over extra labels), pod CIDR and taints', () => {
    const n = buildNode(spec);
    expect(n.metadata.labels).toMatchObject({
      team: 'x',
      'kubernetes.io/hostname': 'node2',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/zone': 'zone-b',
    });
    expect(n.spec).toMatchObject({
      podCIDR: '10.244.2.0/24',
      podCIDRs: ['10.244.2.0/24'],
      taints: spec.taints,
    });
  });
});

describe('buildNodeStatus', () => {
  it('reports capacity, Ready, addresses, nodeInfo and images', () => {
    const st = buildNodeStatus(spec, { down: false, images: [{ names: ['a'], sizeBytes: 1 }], now: T0 });
    expect(st.capacity).toMatchObject({ cpu: '4', memory: '8Gi', pods: '50' });
    expect(st.allocatable).toEqual(st.capacity);
    expect(st.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
    });
    expect(st.conditions?.filter((c) => c.status === 'False').map((c) => c.type)).toEqual([
      'MemoryPressure',
      'DiskPressure',
      'PIDPressure',
    ]);
    expect(st.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: 'node2' },
    ]);
    expect(st.nodeInfo).toMatchObject({
      kubeletVersion: 'v1.36.3',
      operatingSystem: 'linux',
      architecture: 'amd64',
    });
    expect(st.images).toEqual([{ names: ['a'], sizeBytes: 1 }]);
  });

  it('down: Ready Unknown (what the node lifecycle controller writes), heartbeat time frozen', () => {
    const up = buildNodeStatus(spec, { down: false, images: [], now: T0 });
    const down = buildNodeStatus(spec, { down: true, images: [], now: T0 + 60_000, prev: up.conditions });
    const ready = down.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    expect(ready?.lastHeartbeatTime).toBe(up.conditions?.find((c) => c.type === 'Ready')?.lastHeartbeatTime);
    expect(ready?.lastTransitionTime).not.toBe(
      up.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime,
    );
  });
});

describe('taints', () => {
  const foreign = { key: 'other', effect: 'NoExecute' };
  const user = { key: 'dedicated', value: 'sim', effect: 'NoSchedule' };

  it('adds unreachable:NoSchedule while down, removes it (and not-ready) when up, keeps every other taint', () => {
    const down = desiredTaints([foreign, { key: NOT_READY_TAINT, effect: 'NoSchedule' }, user], {
      down: true,
      unschedulable: false,
      now: T0,
    });
    expect(down.map((t) => t.key)).toEqual(['other', 'dedicated', UNREACHABLE_TAINT]);
    const up = desiredTaints(down, { down: false, unschedulable: false, now: T0 + 5 });
    expect(up).toEqual([foreign, user]);
    expect(sameTaints(up, [user, foreign])).toBe(true);
    expect(sameTaints(up, down)).toBe(false);
  });

  it('never restores or rewrites a user taint (a registration taint removed with kubectl taint stays removed)', () => {
    expect(desiredTaints([], { down: false, unschedulable: false, now: T0 })).toEqual([]);
    const changed = { key: 'dedicated', value: 'other', effect: 'NoExecute' };
    expect(desiredTaints([changed], { down: false, unschedulable: false, now: T0 })).toEqual([changed]);
  });

  it('cordon: unschedulable:NoSchedule follows spec.unschedulable, its timeAdded kept', () => {
    const cordoned = desiredTaints([user], { down: false, unschedulable: true, now: T0 });
    expect(cordoned).toEqual([
      user,
      { key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:00Z' },
    ]);
    expect(desiredTaints(cordoned, { down: true, unschedulable: true, now: T0 + 9_000 })).toEqual([
      ...cordoned,
      { key: UNREACHABLE_TAINT, effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:09Z' },
    ]);
    expect(desiredTaints(cordoned, { down: false, unschedulable: false, now: T0 })).toEqual([user]);
  });
});

describe('missingLabels', () => {
  it('adds only labels the node does not have; user values win', () => {
    expect(
      missingLabels(
        { a: 'user', 'topology.kubernetes.io/zone': 'z9' },
        { a: 'sim', b: '1', 'topology.kubernetes.io/zone': 'z1' },
      ),
    ).toEqual({ b: '1' });
    expect(missingLabels(undefined, { b: '1' })).toEqual({ b: '1' });
  });
});

describe('lease', () => {
  it('is owned by the node and renewed with a MicroTime', () => {
    const l = buildLease('node2', 'uid-n', T0 + 5);
    expect(l.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Node', name: 'node2', uid: 'uid-n' },
    ]);
    expect(l.spec).toMatchObject({ holderIdentity: 'node2', leaseDurationSeconds: 40 });
    expect(microTime(T0 + 5)).toBe('2026-01-01T00:00:00.005000Z');
  });
});
