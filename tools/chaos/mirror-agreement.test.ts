import { describe, expect, it } from 'vitest';
import { agrees, compareMirror, describeDisagreement } from './mirror-agreement.js';

const m = (...kv: [string, string][]) => new Map(kv);

describe('compareMirror', () => {
  it.each([
    [
      'the same objects at the same versions',
      m(['a.p', '1'], ['a.q', '2']),
      m(['a.q', '2'], ['a.p', '1']),
      [],
      [],
      [],
    ],
    ['both empty', m(), m(), [], [], []],
    ['an object the mirror lacks', m(['a.p', '1'], ['a.q', '2']), m(['a.p', '1']), ['a.q'], [], []],
    [
      'an older version in the mirror',
      m(['a.p', '5']),
      m(['a.p', '4']),
      [],
      ['a.p (mirror 4, API server 5)'],
      [],
    ],
    [
      'a deleted object left in the mirror',
      m(['a.p', '1']),
      m(['a.p', '1'], ['a.gone', '3']),
      [],
      [],
      ['a.gone'],
    ],
  ] as const)('%s', (_what, api, mirror, missing, stale, extra) => {
    const d = compareMirror(api, mirror);
    expect(d).toEqual({ missing, stale, extra });
    expect(agrees(d)).toBe(missing.length + stale.length + extra.length === 0);
  });
});

describe('describeDisagreement', () => {
  it('counts each list and names a few keys', () => {
    const d = { missing: ['a', 'b', 'c'], stale: [], extra: ['x'] };
    expect(describeDisagreement('pods', d, 2)).toBe('pods: 3 missing (a, b, …), 1 extra (x)');
  });
});
