import { describe, expect, it } from 'vitest';
import { cloneJson, ownValue, setMember } from './json.js';

describe('cloneJson and setMember: a member named __proto__ (docs/reliability.md finding 26)', () => {
  const parsed = JSON.parse('{"__proto__": ["x"], "a": {"__proto__": {"b": 1}}}') as Record<string, unknown>;

  it('JSON.parse keeps `__proto__` as an own member; the copy does too and keeps the plain prototype', () => {
    const copy = cloneJson(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(ownValue(copy, '__proto__')).toEqual(['x']);
    expect((copy as { values?: unknown }).values).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
  });

  it('setMember sets `__proto__` as a member and any other key by assignment', () => {
    const out: Record<string, unknown> = {};
    setMember(out, '__proto__', { polluted: true });
    setMember(out, 'name', 'n');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"name":"n"}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
