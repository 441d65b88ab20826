import { describe, expect, it } from 'vitest';
import type { Subset } from '@regatta/api';
import { ReplicaAllocationError } from '../errors.js';
import { allocateReplicas } from './allocate.js';
import type { ExistingSubsets } from './existing-subset.js';
import { specOf } from './test-helpers.js';

/** Spec §6.7 TestScaleReplicas / TestSpecifyValidReplicas / TestSpecifyInvalidReplicas (results by subset name). */
function run(
  current: Record<string, number>,
  replicas: number | undefined,
  specified: Record<string, number | string> = {},
) {
  const subsets: Subset[] = Object.keys(current).map((name) => ({
    name,
    ...(specified[name] !== undefined && { replicas: specified[name] }),
  }));
  const existing: ExistingSubsets = Object.fromEntries(
    Object.entries(current).map(([name, n]) => [name, { replicas: n, readyReplicas: n }]),
  );
  return allocateReplicas(specOf(replicas, subsets), existing);
}

const four = (a: number, b: number, c: number, d: number) => ({ t1: a, t2: b, t3: c, t4: d });

describe('specific allocator (spec §6.7)', () => {
  it.each([
    [four(1, 4, 2, 2), 5, {}, four(1, 2, 1, 1)],
    [{ t1: 2 }, 0, {}, { t1: 0 }],
    [four(1, 4, 2, 2), 17, {}, four(4, 5, 4, 4)],
    [four(2, 4, 2, 2), 9, {}, four(2, 3, 2, 2)],
    [{ t1: 0, t2: 10 }, 19, {}, { t1: 9, t2: 10 }],
    [{ t1: 0, t2: 10 }, 21, {}, { t1: 10, t2: 11 }],
    [four(1, 4, 2, 2), 27, { t1: 4, t3: 4 }, four(4, 10, 4, 9)],
    [four(2, 4, 2, 2), 8, { t1: 4, t3: 4 }, four(4, 0, 4, 0)],
    [four(2, 4, 2, 2), 16, four(4, 4, 4, 4), four(4, 4, 4, 4)],
    [four(4, 2, 2, 2), 10, { t1: 1, t2: 2, t3: 3 }, four(1, 2, 3, 4)],
    [four(4, 2, 2, 2), 10, four(1, 2, 3, 4), four(1, 2, 3, 4)],
    [four(4, 2, 2, 2), undefined, four(1, 2, 3, 4), four(1, 2, 3, 4)],
  ] as const)('current %j, replicas %s, specified %j → %j', (current, replicas, specified, expected) => {
    expect(run(current, replicas, specified)).toEqual(expected);
  });

  it.each([
    [{ t1: 6, t2: 6 }, "specified subsets' replica (12) is less than UnitedDeployment replica (14)"],
    [{ t1: 10, t2: 11 }, "specified subsets' replica (21) is greater than UnitedDeployment replica (14)"],
  ])('rejects specified %j for 14 replicas', (specified, message) => {
    expect(() => run({ t1: 10, t2: 4 }, 14, specified)).toThrow(new ReplicaAllocationError(message));
  });

  it('needs every subset specified when spec.replicas is unset', () => {
    expect(() => run({ a: 1, b: 1 }, undefined, { a: 1 })).toThrow(
      'all subsets must be specified when UnitedDeployment replica is unspecified',
    );
  });

  // e2e "Specific allocator" (spec §6.8): 25%, 25%, unspecified
  it.each([
    [3, [1, 1, 1]],
    [4, [1, 1, 2]],
    [1, [0, 0, 1]],
  ])('percentages: 25%%, 25%%, rest with %i replicas → %j', (replicas, expected) => {
    const subsets: Subset[] = [{ name: 'a', replicas: '25%' }, { name: 'b', replicas: '25%' }, { name: 'c' }];
    const out = allocateReplicas(specOf(replicas, subsets), {});
    expect([out['a'], out['b'], out['c']]).toEqual(expected);
  });

  // controller test *SubsetCount (spec §6.7): 10 replicas, subset-a fixed, subset-b the rest
  it.each([
    [9, { a: 9, b: 1 }],
    ['40%', { a: 4, b: 6 }],
    ['30%', { a: 3, b: 7 }],
    ['10%', { a: 1, b: 9 }],
  ] as const)('subset-a %s of 10 → %j', (a, expected) => {
    expect(allocateReplicas(specOf(10, [{ name: 'a', replicas: a }, { name: 'b' }]), {})).toEqual(expected);
  });

  it('treats an unreadable percentage as unspecified (upstream logs it)', () => {
    expect(allocateReplicas(specOf(4, [{ name: 'a', replicas: 'x' }, { name: 'b' }]), {})).toEqual({
      a: 2,
      b: 2,
    });
  });

  // controller test *Scale: two unspecified subsets
  it.each([
    [1, 1],
    [2, 2],
    [6, 6],
    [4, 4],
  ])('two unspecified subsets share %i replicas', (replicas, sum) => {
    const out = allocateReplicas(specOf(replicas, [{ name: 'subset-a' }, { name: 'subset-b' }]), {});
    expect((out['subset-a'] ?? 0) + (out['subset-b'] ?? 0)).toBe(sum);
    expect(Math.abs((out['subset-a'] ?? 0) - (out['subset-b'] ?? 0))).toBeLessThanOrEqual(1);
  });
});
