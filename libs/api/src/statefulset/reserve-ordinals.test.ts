// The ordinal range of an Advanced StatefulSet (OpenKruise `TestGetStatefulSetReplicasRange`,
// `TestStatefulSetControlWithStartOrdinal`, the S1 examples and the reserveOrdinals e2e case).
import { describe, expect, it } from 'vitest';
import { parseOrdinalRange, replicaOrdinals, reservedOrdinals } from './reserve-ordinals.js';

describe('replicaOrdinals', () => {
  it.each<[number, number, unknown[], number[]]>([
    // replicas, start, reserveOrdinals, pod ordinals
    [4, 0, [1, 3], [0, 2, 4, 5]],
    [4, 2, [1, 3], [2, 4, 5, 6]],
    [4, 3, [1, 3], [4, 5, 6, 7]],
    [4, 4, [1, 3], [4, 5, 6, 7]],
    [3, 2, [], [2, 3, 4]],
    [3, 2, [0, 4], [2, 3, 5]],
    [3, 2, [0, 2, 3, 4, 5], [6, 7, 8]],
    [4, 1, [], [1, 2, 3, 4]],
    [4, 1, [1, 3, 4], [2, 5, 6, 7]],
    [4, 0, [1], [0, 2, 3, 4]], // S1
    [3, 0, [1, 3], [0, 2, 4]], // S1: reserve 3 and scale to 3
    [3, 0, [0, '2-5'], [1, 6, 7]], // e2e: PVCs for 1, 6, 7
    [1, 0, [0, '2-5'], [1]],
    [0, 0, [1], []],
    [2, 0, ['0-2000000000'], [2000000001, 2000000002]], // a wide range is skipped in one step
    [3, 0, [1, '5-3'], [0, 1, 2]], // one invalid range: nothing reserved (upstream)
  ])('replicas %i, start %i, reserve %j → %j', (replicas, start, reserve, expected) => {
    expect(replicaOrdinals(replicas, start, reservedOrdinals(reserve))).toEqual(expected);
  });
});

describe('reservedOrdinals / parseOrdinalRange', () => {
  it('reads integers and inclusive ranges', () => {
    const r = reservedOrdinals([1, '3-5']);
    expect([0, 1, 2, 3, 4, 5, 6].filter((o) => r.has(o))).toEqual([1, 3, 4, 5]);
    expect(r.valid).toBe(true);
  });

  it.each([['5-3'], ['a-b'], ['1-2-3'], ['7'], ['']])('the invalid range %j empties the whole set', (bad) => {
    const r = reservedOrdinals([1, bad]);
    expect(r.has(1)).toBe(false);
    expect(r.valid).toBe(false);
  });

  it('accepts any JSON', () => {
    expect(reservedOrdinals(null).has(0)).toBe(false);
    expect(reservedOrdinals({}).has(0)).toBe(false);
    expect(reservedOrdinals([{}]).valid).toBe(false);
  });

  it('parses like Go ParseRange', () => {
    expect(parseOrdinalRange('3-5')).toEqual({ start: 3, end: 5 });
    expect(parseOrdinalRange('4-4')).toEqual({ start: 4, end: 4 });
    expect(parseOrdinalRange('5-3')).toEqual({ problem: 'invalid range 5-3' });
    expect(parseOrdinalRange('x-3')).toEqual({ problem: 'strconv.Atoi: parsing "x": invalid syntax' });
  });
});
