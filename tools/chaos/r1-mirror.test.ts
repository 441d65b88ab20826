import { KINDS } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import type { MirrorAgreement } from './mirror-agreement.js';
import { MIRROR_AGREEMENT_MS, mirrorFigures, mirrorNote, mirrorViolation } from './r1-mirror.js';

const agreed = (ms: number): MirrorAgreement => ({ agreedAfterMs: ms, objects: 10, differences: [] });
const disagreed: MirrorAgreement = {
  agreedAfterMs: undefined,
  objects: 11,
  differences: ['pods: 1 missing (chaos-r1-mirror-sidecarset/probe)', 'sidecarsets: 1 extra (chaos-r1-0)'],
};

describe('mirrorViolation', () => {
  it('none when the mirror agreed', () => {
    expect(mirrorViolation('after rollout 0', agreed(300), 5)).toBeUndefined();
  });

  it('a mirror violation naming when and what differed', () => {
    expect(mirrorViolation('after rollouts 0, 1', disagreed, 5)).toEqual({
      kind: 'mirror',
      at: 5,
      count: 1,
      detail: `after rollouts 0, 1: the mirror did not agree with the API server in ${MIRROR_AGREEMENT_MS / 1000} s: pods: 1 missing (chaos-r1-mirror-sidecarset/probe); sidecarsets: 1 extra (chaos-r1-0)`,
    });
  });
});

describe('mirrorFigures', () => {
  const kinds = [KINDS.pods, KINDS.sidecarsets, KINDS.clonesets];
  it.each<[string, MirrorAgreement[], string, [string, string][]]>([
    [
      'all agreed',
      [agreed(200), agreed(1000), agreed(400)],
      'reported',
      [
        [
          'mirror agrees with the API server (pods, sidecarsets, clonesets)',
          '3/3 comparisons, after 0.4 s / 1.0 s (median / max)',
        ],
        ['a pod created with the watcher down (self-test)', 'reported'],
      ],
    ],
    [
      'one disagreed: not in the times',
      [agreed(200), disagreed],
      'NOT REPORTED: the mirror agreed without the pod',
      [
        [
          'mirror agrees with the API server (pods, sidecarsets, clonesets)',
          '1/2 comparisons, after 0.2 s / 0.2 s (median / max)',
        ],
        [
          'a pod created with the watcher down (self-test)',
          'NOT REPORTED: the mirror agreed without the pod',
        ],
      ],
    ],
    [
      'none',
      [],
      'reported',
      [
        [
          'mirror agrees with the API server (pods, sidecarsets, clonesets)',
          '0/0 comparisons, after n/a (median / max)',
        ],
        ['a pod created with the watcher down (self-test)', 'reported'],
      ],
    ],
  ])('%s', (_, checks, selfTest, figures) => {
    expect(mirrorFigures(kinds, checks, selfTest)).toEqual(figures);
  });
});

describe('mirrorNote', () => {
  it.each([
    [1, 'compared after each rollout (kills'],
    [3, 'compared after each group of 3 rollouts, all done and not yet removed (kills'],
  ])('%i at once', (parallel, part) => {
    const note = mirrorNote([KINDS.pods, KINDS.clonesets], parallel);
    expect(note).toContain('every pods, clonesets object the API server lists');
    expect(note).toContain(part);
    expect(note).toContain(`or ${MIRROR_AGREEMENT_MS / 1000} s pass`);
  });
});
