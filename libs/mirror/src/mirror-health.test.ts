import { describe, expect, it } from 'vitest';
import { mirrorLagReason, type MirrorProgress } from './mirror-health.js';

const p = (o: Partial<MirrorProgress>): MirrorProgress => ({ startedAt: 0, pending: 0, ...o });

describe('mirrorLagReason', () => {
  it.each<[string, MirrorProgress, number, string | undefined]>([
    ['listing, within the grace', p({}), 29_000, undefined],
    ['never listed', p({}), 30_000, 'not listed yet after 30 s'],
    ['listed and quiet', p({ listedAt: 5_000 }), 100_000, undefined],
    ['list/watch failing briefly', p({ listedAt: 5_000, failingSince: 90_000 }), 100_000, undefined],
    ['list/watch failing', p({ listedAt: 5_000, failingSince: 60_000 }), 100_000, 'list/watch failing for 40 s'],
    ['writes failing', p({ listedAt: 5_000, pending: 3, pendingSince: 50_000 }), 100_000, '3 writes failing for 50 s'],
  ])('%s', (_name, progress, now, want) => {
    expect(mirrorLagReason(progress, now, 30_000)).toBe(want);
  });
});
