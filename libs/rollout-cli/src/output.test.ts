import { describe, expect, it } from 'vitest';
import { formatStructured, parseOutputFormat } from './output.js';

describe('-o', () => {
  it.each([
    [undefined, 'table'],
    ['', 'table'],
    ['json', 'json'],
    ['yaml', 'yaml'],
  ])('%s is %s', (v, f) => expect(parseOutputFormat(v)).toBe(f));

  it('refuses other formats with what it takes', () => {
    expect(() => parseOutputFormat('wide')).toThrow('-o must be json or yaml (or left out for a table), got "wide"');
  });

  it('prints JSON and YAML ending in a newline', () => {
    expect(formatStructured('json', { a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
    expect(formatStructured('yaml', { a: [1] })).toBe('a:\n  - 1\n');
  });
});
