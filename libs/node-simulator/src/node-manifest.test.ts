import { describe, expect, it } from 'vitest';
import { NodeArgumentError, parseLabelArg, parseTaintArg, simulatedNodeManifest } from './node-manifest.js';

describe('kubectl-style arguments', () => {
  it.each([
    ['dedicated=infra:NoSchedule', { key: 'dedicated', value: 'infra', effect: 'NoSchedule' }],
    ['gpu:NoExecute', { key: 'gpu', effect: 'NoExecute' }],
    [
      'example.com/k=a:b:PreferNoSchedule',
      { key: 'example.com/k', value: 'a:b', effect: 'PreferNoSchedule' },
    ],
  ])('taint %s', (arg, taint) => {
    expect(parseTaintArg(arg)).toEqual(taint);
  });

  it.each(['dedicated=infra', 'k=v:Sometimes', ':NoSchedule'])('refuses taint %s', (arg) => {
    expect(() => parseTaintArg(arg)).toThrow(NodeArgumentError);
  });

  it('labels', () => {
    expect(parseLabelArg('disk=ssd')).toEqual(['disk', 'ssd']);
    expect(parseLabelArg('empty=')).toEqual(['empty', '']);
    expect(() => parseLabelArg('disk')).toThrow(NodeArgumentError);
  });
});

describe('simulatedNodeManifest', () => {
  it('a bare node for any adopting simulator', () => {
    expect(simulatedNodeManifest('worker-1')).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'worker-1' },
      spec: {},
    });
  });

  it('zone, labels, taints, capacity, and the claim of a simulator', () => {
    expect(
      simulatedNodeManifest('node6', {
        prefix: 'node',
        zone: 'zone-b',
        labels: { disk: 'ssd' },
        taints: [{ key: 'gpu', effect: 'NoSchedule' }],
        capacity: 'cpu=4',
      }),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: 'node6',
        labels: { disk: 'ssd', 'topology.kubernetes.io/zone': 'zone-b' },
        annotations: { 'sim.regatta.dev/name-prefix': 'node', 'sim.regatta.dev/capacity': 'cpu=4' },
      },
      spec: { taints: [{ key: 'gpu', effect: 'NoSchedule' }] },
    });
  });
});
