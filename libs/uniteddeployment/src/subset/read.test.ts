import { describe, expect, it } from 'vitest';
import type { Pod } from '@regatta/api';
import { onDeletePartition, updatedReplicas } from './pods.js';

const pod = (rev: string, ready = true): Pod =>
  ({
    metadata: { name: 'p', labels: rev ? { 'apps.kruise.io/controller-revision-hash': rev } : {} },
    spec: { containers: [] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  }) as unknown as Pod;

describe('subset pods (TestGetCurrentPartitionForStrategyOnDelete, TestCalculateUpdatedReplicas)', () => {
  it.each([
    [['v1', 'v2', 'v2'], 1],
    [['v1', 'v1', 'v2'], 2],
    [['v2', 'v1', 'v2', 'v2'], 1],
    [['v1', 'v1', 'v1'], 3],
    [['v1', '', 'v2', 'v3'], 3],
  ])('OnDelete partition of %j against v2 is %i', (revs, expected) => {
    expect(onDeletePartition(revs.map((r) => pod(r)), 'v2')).toBe(expected);
  });

  it('5 pods of the updated revision (3 Ready) and 2 of the old: updated 5, updatedReady 3', () => {
    const pods = [pod('new'), pod('new'), pod('new'), pod('new', false), pod('new', false), pod('old'), pod('old')];
    expect(updatedReplicas(pods, 'new')).toEqual({ updated: 5, updatedReady: 3 });
  });
});
