import { describe, expect, it } from 'vitest';
import { applyMergePatch, createMergePatch } from './merge-patch.js';

describe('applyMergePatch (RFC 7396 appendix A)', () => {
  const cases: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(cases)('%j + %j = %j', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('does not modify its inputs', () => {
    const target = { a: { b: 1 }, c: [1] };
    const patch = { a: { b: 2 } };
    const out = applyMergePatch<{ a: { b: number }; c: number[] }>(target, patch);
    expect(target).toEqual({ a: { b: 1 }, c: [1] });
    out.c.push(2);
    expect(target.c).toEqual([1]);
  });
});

describe('createMergePatch', () => {
  const cases: [string, object, object, object][] = [
    ['equal', { a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 2] } }, {}],
    ['changed scalar', { a: 1 }, { a: 2 }, { a: 2 }],
    ['added member', { a: 1 }, { a: 1, b: { c: 1 } }, { b: { c: 1 } }],
    ['removed member', { a: 1, b: 2 }, { a: 1 }, { b: null }],
    ['nested change', { m: { labels: { x: '1', y: '2' } } }, { m: { labels: { x: '1', y: '3', z: '4' } } }, { m: { labels: { y: '3', z: '4' } } }],
    ['nested removal', { m: { annotations: { k: 'v' } } }, { m: { annotations: {} } }, { m: { annotations: { k: null } } }],
    ['array replaced whole', { list: [1, 2, 3] }, { list: [1, 2] }, { list: [1, 2] }],
    ['object becomes scalar', { a: { b: 1 } }, { a: 'x' }, { a: 'x' }],
    ['scalar becomes object', { a: 'x' }, { a: { b: 1 } }, { a: { b: 1 } }],
    ['null in after removes', { a: 1 }, { a: null }, { a: null }],
    ['undefined in after removes', { a: 1 }, { a: undefined }, { a: null }],
    ['keys needing escapes are plain here', { 'apps.kruise.io/x': 'a' }, { 'apps.kruise.io/x': 'b' }, { 'apps.kruise.io/x': 'b' }],
  ];
  it.each(cases)('%s', (_name, before, after, expected) => {
    const patch = createMergePatch(before, after);
    expect(patch).toEqual(expected);
    // round trip (null members of `after` come back absent, as RFC 7396 defines)
    const withoutNulls = JSON.parse(JSON.stringify(after, (_k, v: unknown) => (v === null ? undefined : v))) as object;
    expect(applyMergePatch(before, patch)).toEqual(withoutNulls);
  });

  it('needs objects', () => {
    expect(() => createMergePatch([1], [2])).toThrow(TypeError);
  });
});

describe('merge patches with a member named __proto__ (docs/reliability.md finding 26)', () => {
  it('apply: the member is merged like any other and Object.prototype is untouched', () => {
    const out = applyMergePatch<Record<string, unknown>>({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(JSON.stringify(out)).toBe('{"a":1,"__proto__":{"polluted":true}}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('create: a changed or removed `__proto__` member is in the patch', () => {
    const before = JSON.parse('{"__proto__": {"a": 1}, "k": 1}') as object;
    expect(JSON.stringify(createMergePatch(before, JSON.parse('{"__proto__": {"a": 2}, "k": 1}')))).toBe('{"__proto__":{"a":2}}');
    expect(JSON.stringify(createMergePatch(before, { k: 1 }))).toBe('{"__proto__":null}');
  });
});
