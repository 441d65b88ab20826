import { describe, expect, it } from 'vitest';
import { expectedUpdatedPods, sidecarSetStatusCadence } from './status.js';

const status = (matchedPods: number, updatedPods: number, readyPods: number, updatedReadyPods: number) => ({
  observedGeneration: 1,
  latestRevision: 'r',
  collisionCount: 0,
  matchedPods,
  updatedPods,
  readyPods,
  updatedReadyPods,
});

describe('sidecarSetStatusCadence: the upgrade is settled (its status written at once)', () => {
  it.each([
    { name: 'every pod updated and ready', expected: 3, s: status(3, 3, 3, 3), settled: true },
    { name: 'an updated pod not ready yet', expected: 3, s: status(3, 3, 2, 2), settled: false },
    { name: 'fewer updated than expected', expected: 3, s: status(3, 2, 3, 2), settled: false },
    { name: 'the partition reached (1 of 3 expected)', expected: 1, s: status(3, 1, 3, 1), settled: true },
    { name: 'an old pod not ready under a partition', expected: 1, s: status(3, 1, 2, 1), settled: false },
    { name: 'more expected than matched (capped)', expected: 5, s: status(2, 2, 2, 2), settled: true },
    { name: 'no pod matched', expected: 0, s: status(0, 0, 0, 0), settled: true },
  ])('$name: $settled', ({ expected, s, settled }) => {
    expect(sidecarSetStatusCadence(expected).settled(s)).toBe(settled);
  });

  it('counts the four pod counters, nothing else', () => {
    expect(sidecarSetStatusCadence(0).counters).toEqual([
      'matchedPods',
      'updatedPods',
      'readyPods',
      'updatedReadyPods',
    ]);
  });
});

describe('expectedUpdatedPods: what the upgrade updates of 10 matched pods', () => {
  const set = (updateStrategy: object) => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    spec: { updateStrategy },
  });
  it.each([
    { name: 'no partition', strategy: { type: 'RollingUpdate' }, want: 10 },
    { name: 'partition 3', strategy: { type: 'RollingUpdate', partition: 3 }, want: 7 },
    { name: 'partition 30%', strategy: { type: 'RollingUpdate', partition: '30%' }, want: 7 },
    { name: 'partition over the pods', strategy: { type: 'RollingUpdate', partition: 20 }, want: 0 },
    // admitted, as upstream admits them (partition checked for RollingUpdate only): run BJ, finding 20
    { name: 'NotUpdate, partition ""', strategy: { type: 'NotUpdate', partition: '' }, want: 0 },
    { name: 'NotUpdate, partition "50"', strategy: { type: 'NotUpdate', partition: '50' }, want: 0 },
    { name: 'NotUpdate, partition 3', strategy: { type: 'NotUpdate', partition: 3 }, want: 0 },
  ])('$name → $want', ({ strategy, want }) => {
    expect(expectedUpdatedPods(set(strategy), 10)).toBe(want);
  });
});
