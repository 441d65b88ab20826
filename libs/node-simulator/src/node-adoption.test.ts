import { describe, expect, it } from 'vitest';
import {
  adoptedNodeSpec,
  adoptionPatch,
  annotatedDown,
  configuredIndexOf,
  NODE_KIND_LABEL,
  parseCapacity,
  shouldRunNode,
} from './node-adoption.js';
import { PREFIX_ANNOTATION, SIMULATED_RUNTIME_VERSION } from './node-object.js';
import type { Node } from './types.js';

const node = (name: string, meta: Partial<Node['metadata']> = {}, spec: Node['spec'] = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, uid: `uid-${name}`, resourceVersion: '7', ...meta },
  spec,
});
const claimed = (name: string, prefix: string) =>
  node(name, { annotations: { [PREFIX_ANNOTATION]: prefix } });
const claimedReal = (name: string) =>
  node(name, { annotations: { [PREFIX_ANNOTATION]: 'node' }, labels: { [NODE_KIND_LABEL]: 'real' } });
const reporting = (name: string, containerRuntimeVersion: string): Node => ({
  ...node(name),
  status: { nodeInfo: { containerRuntimeVersion } },
});

describe('shouldRunNode', () => {
  it.each<[string, Node, boolean, boolean]>([
    ['claimed for this simulator', claimed('worker-1', 'node'), false, true],
    ['claimed by another simulator', claimed('node7', 'simn-x-'), true, false],
    ['unclaimed, named <prefix>…', node('node6'), false, true],
    ['unclaimed, another name, adoptNodes off', node('worker-1'), false, false],
    ['unclaimed, another name, adoptNodes on', node('worker-1'), true, true],
    [
      'unclaimed but being deleted',
      node('node6', { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      true,
      false,
    ],
    [
      'labelled regatta.dev/node-kind=real, adoptNodes on',
      node('real-1', { labels: { [NODE_KIND_LABEL]: 'real' } }),
      true,
      false,
    ],
    [
      'labelled real although named <prefix>…',
      node('node9', { labels: { [NODE_KIND_LABEL]: 'real' } }),
      false,
      false,
    ],
    ['claimed for this simulator but labelled real', claimedReal('node8'), false, false],
    ['reporting a real containerd, adoptNodes on', reporting('worker-2', 'containerd://v2.4.2'), true, false],
    [
      'reporting the simulator runtime, adoptNodes on',
      reporting('worker-3', SIMULATED_RUNTIME_VERSION),
      true,
      true,
    ],
    ['reporting no runtime yet, adoptNodes on', reporting('worker-4', ''), true, true],
  ])('%s', (_name, n, adoptUnclaimed, expected) => {
    expect(shouldRunNode(n, { prefix: 'node', adoptUnclaimed })).toBe(expected);
  });
});

describe('configuredIndexOf', () => {
  it.each<[string, number | undefined]>([
    ['node6', 6],
    ['node12', 12],
    ['node', undefined],
    ['node0', undefined],
    ['node6a', undefined],
    ['worker-1', undefined],
  ])('%s → %s', (name, index) => {
    expect(configuredIndexOf(name, 'node')).toBe(index);
  });
});

describe('capacity and NotReady annotations', () => {
  const defaults = { cpu: '8', memory: '32Gi', pods: '110' };
  it('parses cpu=…,memory=…,pods=… over the defaults, ignoring the rest', () => {
    expect(parseCapacity('cpu=4, memory=16Gi', defaults)).toEqual({ cpu: '4', memory: '16Gi', pods: '110' });
    expect(parseCapacity('gpu=1,pods=,x', defaults)).toEqual(defaults);
    expect(parseCapacity(undefined, defaults)).toEqual(defaults);
  });
  it('sim.regatta.dev/not-ready: "true" reports the node down', () => {
    expect(annotatedDown(node('n', { annotations: { 'sim.regatta.dev/not-ready': 'true' } }))).toBe(true);
    expect(annotatedDown(node('n', { annotations: { 'sim.regatta.dev/not-ready': 'false' } }))).toBe(false);
    expect(annotatedDown(node('n'))).toBe(false);
  });
});

describe('adoptedNodeSpec and adoptionPatch', () => {
  const ctx = {
    prefix: 'node',
    index: 6,
    zones: ['zone-a', 'zone-b', 'zone-c'],
    labels: { rack: 'r1' },
    capacity: { cpu: '8', memory: '32Gi', pods: '110' },
    kubeletVersion: 'v1.36.0',
    bootID: 'boot',
  };

  it('a bare node: round-robin zone, index addresses, default capacity, no taints of its own', () => {
    const spec = adoptedNodeSpec(node('node6'), ctx);
    expect(spec).toMatchObject({
      name: 'node6',
      index: 6,
      zone: 'zone-c',
      taints: [],
      capacity: ctx.capacity,
    });
    expect(spec.addressing).toEqual({
      podCIDR: '10.244.6.0/24',
      podPrefix: '10.244.6',
      internalIP: '172.18.0.6',
    });
  });

  it('keeps the zone label, pod CIDR and InternalIP the node has, and reads its capacity annotation', () => {
    const n = node(
      'node6',
      {
        labels: { 'topology.kubernetes.io/zone': 'zone-x' },
        annotations: { 'sim.regatta.dev/capacity': 'cpu=2' },
      },
      { podCIDR: '10.244.99.0/24' },
    );
    n.status = { addresses: [{ type: 'InternalIP', address: '172.18.0.99' }] };
    const spec = adoptedNodeSpec(n, ctx);
    expect(spec.zone).toBe('zone-x');
    expect(spec.capacity.cpu).toBe('2');
    expect(spec.addressing).toEqual({
      podCIDR: '10.244.99.0/24',
      podPrefix: '10.244.99',
      internalIP: '172.18.0.99',
    });
  });

  it('claims with a resourceVersion precondition, adds only missing labels, sets pod CIDR and provider ID once', () => {
    const n = node('node6', { labels: { rack: 'user-rack', 'kubernetes.io/os': 'linux' } });
    const patch = adoptionPatch(n, adoptedNodeSpec(n, ctx));
    expect(patch).toEqual({
      metadata: {
        resourceVersion: '7',
        annotations: { [PREFIX_ANNOTATION]: 'node' },
        labels: {
          'kubernetes.io/hostname': 'node6',
          'kubernetes.io/arch': 'amd64',
          'beta.kubernetes.io/os': 'linux',
          'beta.kubernetes.io/arch': 'amd64',
          'topology.kubernetes.io/zone': 'zone-c',
          'node.kubernetes.io/instance-type': 'regatta-sim',
          'sim.regatta.dev/simulated': 'true',
        },
      },
      spec: { podCIDR: '10.244.6.0/24', podCIDRs: ['10.244.6.0/24'], providerID: 'regatta-sim://node6' },
    });
    const again = node(
      'node6',
      { labels: nodeLabelsOf(patch) },
      { podCIDR: '10.244.6.0/24', providerID: 'x' },
    );
    expect(adoptionPatch(again, adoptedNodeSpec(again, ctx))).toEqual({
      metadata: { resourceVersion: '7', annotations: { [PREFIX_ANNOTATION]: 'node' } },
    });
  });
});

function nodeLabelsOf(patch: Record<string, unknown>): Record<string, string> {
  return {
    rack: 'r1',
    'kubernetes.io/os': 'linux',
    ...(patch['metadata'] as { labels: Record<string, string> }).labels,
  };
}
