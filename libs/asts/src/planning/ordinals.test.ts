import { describe, expect, it } from 'vitest';
import { ordinalRange, parentAndOrdinal, splitPods, validOrdinals } from './ordinals.js';

describe('ordinal range (TestGetStatefulSetReplicasRange, TestStatefulSetControlWithStartOrdinal, S1)', () => {
  it.each([
    { replicas: 4, start: 0, reserve: [1, 3], slots: 6, ordinals: [0, 2, 4, 5] },
    { replicas: 4, start: 2, reserve: [1, 3], slots: 5, ordinals: [2, 4, 5, 6] },
    { replicas: 4, start: 3, reserve: [1, 3], slots: 5, ordinals: [4, 5, 6, 7] },
    { replicas: 4, start: 4, reserve: [1, 3], slots: 4, ordinals: [4, 5, 6, 7] },
    { replicas: 3, start: 2, reserve: [], ordinals: [2, 3, 4] },
    { replicas: 3, start: 2, reserve: [0, 4], ordinals: [2, 3, 5] },
    { replicas: 3, start: 2, reserve: [0, 2, 3, 4, 5], ordinals: [6, 7, 8] },
    { replicas: 4, start: 1, reserve: [], ordinals: [1, 2, 3, 4] },
    { replicas: 4, start: 1, reserve: [1, 3, 4], ordinals: [2, 5, 6, 7] },
    { replicas: 4, start: 0, reserve: [1], ordinals: [0, 2, 3, 4] },
    { replicas: 3, start: 0, reserve: [1, 3], ordinals: [0, 2, 4] },
    { replicas: 3, start: 0, reserve: [0, '2-5'], ordinals: [1, 6, 7] },
    { replicas: 1, start: 0, reserve: [0, '2-5'], ordinals: [1] },
    { replicas: 0, start: 0, reserve: [1], ordinals: [] },
  ])(
    'replicas $replicas start $start reserve $reserve → $ordinals',
    ({ replicas, start, reserve, slots, ordinals }) => {
      const r = ordinalRange(replicas, reserve, start);
      expect(validOrdinals(r)).toEqual(ordinals);
      if (slots !== undefined) expect(r.end - r.start).toBe(slots);
    },
  );

  it.each([
    { reserve: [1, '3-5'], replicas: 3, ordinals: [0, 2, 6] },
    { reserve: ['7-7'], replicas: 8, ordinals: [0, 1, 2, 3, 4, 5, 6, 8] },
    { reserve: [1, '5-3'], replicas: 2, ordinals: [0, 1] },
    { reserve: [1, '2'], replicas: 2, ordinals: [0, 1] },
    { reserve: null, replicas: 2, ordinals: [0, 1] },
  ])(
    'reserveOrdinals $reserve (an invalid entry empties the set, upstream GetReserveOrdinalIntSet) → $ordinals',
    ({ reserve, replicas, ordinals }) => {
      expect(validOrdinals(ordinalRange(replicas, reserve))).toEqual(ordinals);
    },
  );

  it('names: <parent>-<ordinal>; unparsable → -1', () => {
    expect(parentAndOrdinal('web-10')).toEqual({ parent: 'web', ordinal: 10 });
    expect(parentAndOrdinal('my-web-0')).toEqual({ parent: 'my-web', ordinal: 0 });
    expect(parentAndOrdinal('web').ordinal).toBe(-1);
    expect(parentAndOrdinal('web-x').ordinal).toBe(-1);
  });

  it('splits pods into slots and condemned (descending)', () => {
    const pod = (name: string) => ({ metadata: { name } });
    const r = ordinalRange(3, [1], 0);
    const { slots, condemned } = splitPods(
      [pod('w-0'), pod('w-1'), pod('w-2'), pod('w-5'), pod('w-4'), pod('w')],
      r,
    );
    expect(slots.map((p) => p?.metadata.name)).toEqual(['w-0', undefined, 'w-2', undefined]);
    expect(condemned.map((p) => p.metadata.name)).toEqual(['w-5', 'w-4', 'w-1']);
  });
});
