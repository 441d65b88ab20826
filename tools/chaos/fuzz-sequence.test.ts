import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADVANCED_STATEFULSET, CLONESET, fuzzed, setPath, type Fuzzed, type FuzzKind } from './fuzz.js';
import { ADVANCED_DAEMONSET, RESOURCE_DISTRIBUTION, SIDECARSET, UNITED_DEPLOYMENT } from './fuzz-kinds.js';
import { IMAGE_PULL_JOB } from './fuzz-imagepull.js';
import { NODE_IMAGE } from './fuzz-nodeimage.js';
import { allOf, fuzzSequence } from './fuzz-sequence.js';

/** The sequence R2 sent before objects were made one at a time: every object at once, by `fc.sample`. */
function eager(k: FuzzKind, ns: string, n: number, seed: number, prefix: string): Fuzzed[] {
  return fc.sample(fuzzed(k, ns), { seed, numRuns: n }).map((f, i) => {
    setPath(f.object, 'metadata.name', `${prefix}-${i}`);
    return f;
  });
}

const KINDS: FuzzKind[] = [
  CLONESET,
  ADVANCED_STATEFULSET,
  ADVANCED_DAEMONSET,
  UNITED_DEPLOYMENT,
  SIDECARSET,
  RESOURCE_DISTRIBUTION,
  IMAGE_PULL_JOB,
  NODE_IMAGE,
];
const CASES = KINDS.flatMap((k) =>
  [
    { seed: 1, n: 60, prefix: 'fz' },
    { seed: 9, n: 25, prefix: 'sv' },
  ].map((c) => ({ kind: k.kind, k, ...c })),
);

// hundreds of hostile objects take seconds on a loaded two-core machine
describe.each(CASES)('fuzzSequence of $kind, seed $seed', ({ k, seed, n, prefix }) => {
  it('makes the objects fc.sample made, in the same order', { timeout: 60_000 }, () => {
    const want = eager(k, 'chaos-r2', n, seed, prefix).map((f) => JSON.stringify(f));
    const s = fuzzSequence(k, 'chaos-r2', n, seed, prefix);
    expect(s.length).toBe(n);
    expect(allOf(s).map((f) => JSON.stringify(f))).toEqual(want);
  });

  it(
    'makes the i-th the same in any order and at every call, each a fresh object',
    { timeout: 60_000 },
    () => {
      const s = fuzzSequence(k, 'chaos-r2', n, seed, prefix);
      const want = allOf(s).map((f) => JSON.stringify(f));
      const backwards = Array.from({ length: n }, (_, j) => n - 1 - j);
      for (const i of backwards) expect(JSON.stringify(s.at(i))).toBe(want[i]);
      const a = s.at(3);
      setPath(a.object, 'spec', 'changed');
      expect(JSON.stringify(s.at(3))).toBe(want[3]);
    },
  );
});

describe('fuzzSequence', () => {
  it('refuses an index outside it', () => {
    const s = fuzzSequence(CLONESET, 'ns', 5, 1);
    expect(() => s.at(5)).toThrow(RangeError);
    expect(() => s.at(-1)).toThrow(RangeError);
  });

  it('keeps a few numbers per object, not the objects', () => {
    // 1000 draws: no object is made until asked for
    const s = fuzzSequence(CLONESET, 'ns', 1000, 1);
    expect(s.at(999).object['kind']).toBe('CloneSet');
  });
});
