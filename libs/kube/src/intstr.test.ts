import { describe, expect, it } from 'vitest';
import {
  IntOrStringError,
  type IntOrString,
  intOrStringToInt,
  parseIntOrString,
  partitionOf,
  scaleK8s,
  scaleKruise,
  validateNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from './intstr.js';

describe('scaleK8s (apimachinery GetScaledValueFromIntOrPercent)', () => {
  const ok: [IntOrString, number, boolean, number][] = [
    [5, 10, true, 5],
    [5, 10, false, 5],
    [0, 10, true, 0],
    [12, 5, true, 12],
    ['20%', 10, true, 2],
    ['20%', 11, true, 3],
    ['20%', 11, false, 2],
    ['25%', 5, true, 2],
    ['25%', 5, false, 1],
    ['0%', 7, true, 0],
    ['100%', 7, false, 7],
    ['150%', 4, true, 6],
    ['1%', 1, true, 1],
    ['1%', 1, false, 0],
    ['33%', 3, true, 1],
    ['-10%', 10, true, -1],
  ];
  it.each(ok)('%j of %i (roundUp %s) = %i', (v, total, up, expected) => {
    expect(scaleK8s(v, total, up)).toBe(expected);
  });

  const bad: [IntOrString | null | undefined, string][] = [
    [null, 'nil value'],
    [undefined, 'nil value'],
    ['5', 'not a percentage'],
    ['33.5%', 'must be an integer'],
    ['%', 'must be an integer'],
    ['abc%', 'must be an integer'],
    [' 5%', 'must be an integer'],
    [2.5, 'not a 32-bit integer'],
  ];
  it.each(bad)('%j is an error', (v, msg) => {
    expect(() => scaleK8s(v, 10, true)).toThrow(IntOrStringError);
    expect(() => scaleK8s(v, 10, true)).toThrow(msg);
  });
});

describe('scaleKruise (OpenKruise util.GetScaledValueFromIntOrPercent)', () => {
  const ok: [IntOrString, number, boolean, number][] = [
    [3, 10, true, 3],
    ['20%', 10, true, 2],
    ['99.5%', 10, true, 10],
    ['99.5%', 10, false, 9],
    ['12.5%', 8, true, 1],
    ['12.5%', 9, true, 2],
    ['12.5%', 9, false, 1],
    ['0.1%', 100, true, 1],
    ['1e1%', 10, true, 1],
    ['.5%', 200, true, 1],
  ];
  it.each(ok)('%j of %i (roundUp %s) = %i', (v, total, up, expected) => {
    expect(scaleKruise(v, total, up)).toBe(expected);
  });

  const bad: (IntOrString | null | undefined)[] = [null, undefined, '5', 'abc%', 'Inf%', 'NaN%', '0x10%', '1e400%', '%'];
  it.each(bad)('%j is an error', (v) => {
    expect(() => scaleKruise(v, 10, true)).toThrow(IntOrStringError);
  });

  it('says a bare numeric string is not a percentage', () => {
    expect(() => scaleKruise('5', 10, true)).toThrow('string is not a percentage');
  });
});

describe('partitionOf (CalculatePartitionReplicas)', () => {
  const cases: [IntOrString | null | undefined, number | null | undefined, number][] = [
    [null, 5, 0],
    [undefined, 5, 0],
    ['99%', 5, 4],
    ['90%', 4, 3],
    ['99%', 4, 3],
    ['99%', 1, 1],
    ['50%', 10, 5],
    ['10%', 6, 1],
    [7, 5, 5],
    ['100%', 5, 5],
    ['0%', 5, 0],
    ['1%', 100, 1],
    [0, 5, 0],
    [-3, 5, 0],
    ['50%', null, 1],
    ['50%', undefined, 1],
    [3, 0, 0],
    ['99.9%', 10, 9],
  ];
  it.each(cases)('partition %j of %j replicas = %i', (p, r, expected) => {
    expect(partitionOf(p, r)).toBe(expected);
  });

  it('rejects an invalid partition', () => {
    expect(() => partitionOf('5', 10)).toThrow(IntOrStringError);
  });
});

describe('helpers', () => {
  const parsed: [string, IntOrString][] = [
    ['5', 5],
    ['-3', -3],
    ['20%', '20%'],
    ['abc', 'abc'],
    ['1.5', '1.5'],
    ['99999999999', '99999999999'],
  ];
  it.each(parsed)('parseIntOrString(%j) = %j', (s, expected) => {
    expect(parseIntOrString(s)).toBe(expected);
  });

  it('intOrStringToInt takes ints and numeric strings only', () => {
    expect(intOrStringToInt(5)).toBe(5);
    expect(intOrStringToInt('5')).toBe(5);
    expect(() => intOrStringToInt('50%')).toThrow(IntOrStringError);
    expect(() => intOrStringToInt('x')).toThrow(IntOrStringError);
    expect(() => intOrStringToInt(1.5)).toThrow(IntOrStringError);
  });

  const positive: [IntOrString, number][] = [
    [0, 0],
    [5, 0],
    [-1, 1],
    ['20%', 0],
    ['0%', 0],
    ['5', 1],
    ['-5%', 1],
    ['1.5%', 1],
  ];
  it.each(positive)('validatePositiveIntOrPercent(%j) has %i errors', (v, n) => {
    expect(validatePositiveIntOrPercent(v, 'spec.maxUnavailable')).toHaveLength(n);
  });

  it('validateNotMoreThan100Percent checks percentages only', () => {
    expect(validateNotMoreThan100Percent('101%', 'x')).toHaveLength(1);
    expect(validateNotMoreThan100Percent('100%', 'x')).toEqual([]);
    expect(validateNotMoreThan100Percent(500, 'x')).toEqual([]);
    expect(validateNotMoreThan100Percent('1.5%', 'x')).toEqual([]);
  });
});
