import { describe, expect, it } from 'vitest';
import { sidecarSetStatusCadence } from './status.js';

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
