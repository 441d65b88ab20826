import { describe, expect, it } from 'vitest';
import { allocateReplicas, allocatorKind } from './allocate.js';
import type { ExistingSubsets } from './existing-subset.js';
import { inOrder, specOf, subsetsWithBounds } from './test-helpers.js';

const N = -1;

/**
 * Spec §6.7 TestReservedAdaptiveAllocation: the last subset's max is unset; `reserved` −1 = marked unschedulable with
 * no reserved pod (recovered), > 0 = unschedulable with that many reserved pods; `cur` = current spec.replicas;
 * ready = cur − reserved.
 */
function reservation(
  replicas: number,
  min: number[] | undefined,
  max: number[] | undefined,
  cur: number[],
  reserved: number[],
): number[] {
  const n = cur.length;
  const subsets = subsetsWithBounds(min, max, n);
  const last = subsets[n - 1];
  if (last) delete last.maxReplicas;
  const spec = specOf(replicas, subsets, {
    topology: { scheduleStrategy: { type: 'Adaptive', adaptive: { reserveUnschedulablePods: true } } },
  });
  const existing: ExistingSubsets = Object.fromEntries(
    cur.map((c, i) => {
      const r = reserved[i] ?? 0;
      const count = Math.max(0, r);
      return [
        `subset-${i}`,
        {
          replicas: c,
          readyReplicas: c - count,
          unschedulable: count !== 0,
          markedAsUnschedulable: r !== 0,
          reservedPods: count,
        },
      ];
    }),
  );
  expect(allocatorKind(spec)).toBe('reservation');
  return inOrder(allocateReplicas(spec, existing), n);
}

describe('reservation allocator (spec §6.7 TestReservedAdaptiveAllocation)', () => {
  it.each([
    [8, [1, 1, 1, 1], [2, 2, 2, N], [0, 0, 0, 0], [0, 0, 0, 0], [2, 2, 2, 2]],
    [8, [1, 1, 1, 1], [2, 2, 2, N], [2, 2, 2, 2], [0, 2, 2, 0], [2, 2, 2, 6]],
    [8, [1, 1, 1, 1], [2, 2, 2, N], [2, 2, 2, 6], [0, 1, 1, 0], [2, 2, 2, 4]],
    [8, [1, 1, 1, 1], [2, 2, 2, N], [2, 2, 2, 4], [0, -1, 1, 0], [2, 2, 2, 3]],
    [8, [1, 1, 1, 1], [2, 2, 2, N], [2, 2, 2, 3], [0, 0, -1, 0], [2, 2, 2, 2]],
    [16, [2, 2, 2, 2], [4, 4, 4, N], [2, 2, 2, 6], [0, 1, 1, 0], [4, 2, 2, 10]],
    [8, [1, 1, 1, 1], [2, 2, 2, N], [4, 2, 2, 10], [0, 1, 1, 0], [2, 2, 2, 4]],
    [16, [2, 2, 2, 2], [4, 4, 4, N], [4, 2, 2, 10], [0, -1, -1, 0], [4, 4, 4, 8]],
    [16, [2, 2, 2, 2], [4, 4, 4, N], [4, 4, 4, 8], [0, 2, 2, 0], [4, 4, 4, 8]],
    [16, [2, 2, 2, 2], [4, 4, 4, N], [4, 4, 4, 8], [0, -1, -1, 0], [4, 4, 4, 4]],
  ])(
    '%i replicas, min %j, max %j, cur %j, reserved %j → %j',
    (replicas, min, max, cur, reserved, expected) => {
      expect(reservation(replicas, min, max, cur, reserved)).toEqual(expected);
    },
  );

  it.each([
    [2, [0, 0, 0], [0, 0, 0], [2, 0, 0]],
    [2, [2, 0, 0], [2, 0, 0], [2, 2, 0]],
    [2, [2, 2, 0], [2, 2, 0], [2, 2, 2]],
    [4, [2, 2, 2], [2, 2, 0], [2, 2, 4]],
    [4, [2, 2, 4], [4, -1, 0], [2, 4, 2]],
    [4, [2, 4, 2], [4, 2, 0], [2, 4, 2]],
    [4, [2, 4, 2], [4, -1, 0], [2, 4, 0]],
    [2, [2, 2, 2], [2, 1, 0], [2, 2, 1]],
    [2, [2, 2, 1], [0, 1, 0], [2, 0, 0]],
    [2, [2, 2, 0], [0, 0, 0], [2, 0, 0]],
    [4, [2, 2, 4], [-1, 2, 0], [4, 2, 2]],
  ])('3 unlimited subsets: %i replicas, cur %j, reserved %j → %j', (replicas, cur, reserved, expected) => {
    expect(reservation(replicas, undefined, undefined, cur, reserved)).toEqual(expected);
  });

  it.each([
    [2, [0, 0, 0], [0, 0, 0], [1, 1, 0]],
    [2, [1, 1, 0], [1, 1, 0], [1, 1, 2]],
    [2, [1, 1, 2], [-1, 1, 0], [2, 1, 1]],
    [2, [2, 1, 1], [1, 1, 0], [2, 1, 1]],
    [2, [2, 1, 1], [0, 1, 0], [2, 1, 0]],
    [2, [2, 1, 0], [0, -1, 0], [1, 1, 0]],
  ])('min 1,1,0: %i replicas, cur %j, reserved %j → %j', (replicas, cur, reserved, expected) => {
    expect(reservation(replicas, [1, 1, 0], undefined, cur, reserved)).toEqual(expected);
  });
});
