import { describe, expect, it } from 'vitest';
import { Quantity, QuantityParseError, canonicalQuantity, compareQuantities } from './quantity.js';

describe('canonical form', () => {
  const cases: [string, string][] = [
    ['0', '0'],
    ['0m', '0'],
    ['0Ki', '0'],
    ['-0', '0'],
    ['1000m', '1'],
    ['1500m', '1500m'],
    ['1.5', '1500m'],
    ['0.1', '100m'],
    ['.001', '1m'],
    ['0.001', '1m'],
    ['0.0005k', '500m'],
    ['100m', '100m'],
    ['1000', '1k'],
    ['1024', '1024'],
    ['1.', '1'],
    ['1.G', '1G'],
    ['100.035k', '100035'],
    ['10.035M', '10035k'],
    ['7.123456M', '7123456'],
    ['6.987654321G', '6987654321'],
    ['12E', '12E'],
    ['1E', '1E'],
    ['2.5P', '2500T'],
    ['5n', '5n'],
    ['4u', '4u'],
    ['1080n', '1080n'],
    ['0.000000108', '108n'],
    // rounding up to nano units, away from zero
    ['3.001n', '4n'],
    ['1.1E-9', '2e-9'],
    ['0.0000000001', '1n'],
    ['0.9n', '1n'],
    ['0.00000012345', '124n'],
    ['-0.1n', '-1n'],
    // binary
    ['1Ki', '1Ki'],
    ['8Ki', '8Ki'],
    ['1024Ki', '1Mi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['0.5Mi', '512Ki'],
    ['1.5Ki', '1536'],
    ['0.5Ki', '512'],
    ['1025Ki', '1025Ki'],
    ['3Ei', '3Ei'],
    ['100.035Ki', '102435840m'],
    ['0.000000000001Ki', '2n'],
    ['9Ei', '9223372036854775807'],
    ['-1Gi', '-1Gi'],
    // exponent form
    ['1e3', '1e3'],
    ['1E3', '1e3'],
    ['1e-3', '1e-3'],
    ['1.2e3', '1200'],
    ['1.3E+6', '1300e3'],
    ['12e6', '12e6'],
    ['0.5e0', '500e-3'],
    ['1e-9', '1e-9'],
    // signs
    ['+5', '5'],
    ['-5m', '-5m'],
    ['-1500m', '-1500m'],
  ];
  it.each(cases)('%s → %s', (input, expected) => {
    expect(canonicalQuantity(input)).toBe(expected);
  });

  it('accepts JSON numbers', () => {
    expect(canonicalQuantity(2)).toBe('2');
    expect(canonicalQuantity(0.25)).toBe('250m');
    expect(canonicalQuantity(1e21)).toBe('1e21');
  });
});

describe('invalid quantities', () => {
  const bad = ['', 'abc', '1K', '1e', '1.5.5', '1 Gi', ' 1', '1Gi ', '1k5', '1ki', '--1', '1e1000', '1Gib'];
  it.each(bad)('%j throws', (input) => {
    expect(() => Quantity.parse(input)).toThrow(QuantityParseError);
  });

  it('has a stable code and a hint', () => {
    try {
      Quantity.parse('1K');
    } catch (e) {
      expect((e as QuantityParseError).code).toBe('REGATTA_KUBE_INVALID_QUANTITY');
      expect((e as Error).message).toContain('e.g. "500m"');
    }
  });
});

describe('arithmetic and comparison', () => {
  const cmp: [string, string, number][] = [
    ['1', '1000m', 0],
    ['1Gi', '1G', 1],
    ['1Ki', '1024', 0],
    ['100m', '0.1', 0],
    ['1n', '0', 1],
    ['-1', '1m', -1],
    ['1e3', '1k', 0],
  ];
  it.each(cmp)('compare(%s, %s) = %i', (a, b, expected) => {
    expect(compareQuantities(a, b)).toBe(expected);
  });

  const sums: [string, string, string][] = [
    ['100m', '900m', '1'],
    ['1Gi', '512Mi', '1536Mi'],
    ['0', '1Gi', '1Gi'],
    ['1', '1Ki', '1025'],
    ['1Ki', '1', '1025'],
    ['250m', '-250m', '0'],
  ];
  it.each(sums)('%s + %s = %s', (a, b, expected) => {
    expect(Quantity.parse(a).add(Quantity.parse(b)).toString()).toBe(expected);
  });

  it('keeps the receiver format, or the other one when the receiver is zero', () => {
    expect(Quantity.parse('1Ki').add(Quantity.parse('1Ki')).format).toBe('BinarySI');
    expect(Quantity.parse('2').add(Quantity.parse('1Ki')).format).toBe('DecimalSI');
    expect(Quantity.parse('0').add(Quantity.parse('1Ki')).format).toBe('BinarySI');
  });

  it('subtracts and negates', () => {
    expect(Quantity.parse('2Gi').sub(Quantity.parse('1Gi')).toString()).toBe('1Gi');
    expect(Quantity.parse('1').sub(Quantity.parse('1500m')).toString()).toBe('-500m');
    expect(Quantity.parse('1500m').neg().toString()).toBe('-1500m');
  });

  const values: [string, number, number][] = [
    ['1500m', 2, 1500],
    ['1', 1, 1000],
    ['1n', 1, 1],
    ['-1500m', -2, -1500],
    ['1Gi', 1073741824, 1073741824000],
  ];
  it.each(values)('%s value %i milli %i (rounded away from zero)', (q, v, m) => {
    expect(Quantity.parse(q).value()).toBe(v);
    expect(Quantity.parse(q).milliValue()).toBe(m);
  });

  it('builds from ints and millis and serializes as its canonical string', () => {
    expect(Quantity.fromInt(1024, 'BinarySI').toString()).toBe('1Ki');
    expect(Quantity.fromMilli(1500).toString()).toBe('1500m');
    expect(JSON.stringify({ cpu: Quantity.parse('0.5') })).toBe('{"cpu":"500m"}');
    expect(Quantity.parse('1.5Gi').nanos).toBe(1610612736n * 1_000_000_000n);
  });
});
