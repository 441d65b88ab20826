import { describe, expect, it } from 'vitest';
import { goEscapedJson } from './json-body.js';

describe('request bodies escape as Go does', () => {
  it.each([
    [{ command: 'a && b > c < d' }, '{"command":"a \\u0026\\u0026 b \\u003e c \\u003c d"}'],
    [{ s: 'line\u2028sep\u2029' }, '{"s":"line\\u2028sep\\u2029"}'],
    [{ s: 'tab\tnew\nq"' }, '{"s":"tab\\tnew\\nq\\""}'],
    [[1, 'x'], '[1,"x"]'],
  ])('%j → %s', (value, body) => {
    expect(goEscapedJson(value)).toBe(body);
    expect(JSON.parse(goEscapedJson(value))).toEqual(value);
  });
});
