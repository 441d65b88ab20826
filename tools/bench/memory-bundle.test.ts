// The bundles' code is ASCII only, so V8 holds it one byte a character (tools/build/ascii.mjs; docs/adr/0051): the
// escaped code means what the original meant.
import { describe, expect, it } from 'vitest';
import { asciiOnly } from '../build/ascii.mjs';

/** Evaluates an expression (the bundle's code is trusted, so is this test's). */
const evaluate = (code: string): unknown => new Function(`return (${code});`)();

describe('asciiOnly', () => {
  it.each([
    ['a string', `'1 µs — ok'`],
    ['a template', '`${1 + 1} µs`'],
    ['a regular expression', `/(\\d+)(ns|us|µs|ms)/.exec('12µs')?.slice(1)`],
    ['a character class', `/^[µ€]+$/.test('€µ')`],
    ['a surrogate pair, u flag', `/^😀$/u.test('😀') && '😀'.length`],
    ['an identifier', `(() => { const café = 2; return café * 3; })()`],
    ['plain ASCII', `'unchanged'`],
  ])('%s means the same', (_, code) => {
    const escaped = asciiOnly(code);
    expect([...escaped].filter((c) => c.charCodeAt(0) > 0x7f)).toEqual([]);
    expect(evaluate(escaped)).toEqual(evaluate(code));
  });

  it('leaves ASCII code as it is', () => {
    expect(asciiOnly(`const a = "x"; // y`)).toBe(`const a = "x"; // y`);
  });
});
