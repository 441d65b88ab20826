import { describe, expect, it } from 'vitest';
import { GoJsonError, goJson, goQuote } from './go-json.js';

describe('goJson (Go json.Marshal of interface{} values)', () => {
  const cases: [string, unknown, string][] = [
    ['sorts keys at every level', { b: 1, a: { d: [2, 1], c: true } }, '{"a":{"c":true,"d":[2,1]},"b":1}'],
    ['drops undefined members', { a: undefined, b: null }, '{"b":null}'],
    ['undefined in an array is null', [1, undefined], '[1,null]'],
    [
      'escapes HTML characters as Go does',
      { x: '<a href="?a&b">' },
      '{"x":"\\u003ca href=\\"?a\\u0026b\\"\\u003e"}',
    ],
    ['escapes line and paragraph separators', '\u2028\u2029', '"\\u2028\\u2029"'],
    ['escapes control characters', '\u0001\n\t', '"\\u0001\\n\\t"'],
    ['keeps valid surrogate pairs', '😀', '"😀"'],
    ['replaces a lone surrogate', 'a\ud800b', '"a\ufffdb"'],
    ['prints numbers in shortest form', [1, 1.5, 1e21, 1e-7, -0.25], '[1,1.5,1e+21,1e-7,-0.25]'],
    ['empty containers', { a: {}, b: [] }, '{"a":{},"b":[]}'],
  ];
  it.each(cases)('%s', (_name, value, expected) => {
    expect(goJson(value)).toBe(expected);
  });

  it('is independent of key insertion order', () => {
    expect(goJson({ z: 1, a: { y: 2, b: 3 } })).toBe(goJson({ a: { b: 3, y: 2 }, z: 1 }));
  });

  it('quotes plain strings without copying work', () => {
    expect(goQuote('plain')).toBe('"plain"');
  });

  it('rejects values without a JSON form with a path', () => {
    expect(() => goJson({ a: [Number.NaN] })).toThrow(GoJsonError);
    expect(() => goJson({ a: [Number.NaN] })).toThrow('/a/0');
    expect(() => goJson({ f: () => 1 })).toThrow('a function has no JSON form');
    expect(() => goJson(new Date(0))).toThrow('only plain objects');
  });
});
