import { describe, expect, it } from 'vitest';
import { allOn, featureGatesValue, KNOWN_FAILURES, NOT_APPLICABLE, SPEC_FILES } from './suites.js';

describe('feature gates for the sandbox', () => {
  it('turns every gate a controller knows on, as AllAlpha=true,AllBeta=true does', () => {
    expect(allOn({ B: false, A: true })).toEqual({ A: true, B: true });
  });
  it('joins the gates of the files to run, sorted', () => {
    expect(featureGatesValue([{ featureGates: { B: true } }, { featureGates: { A: true, B: true } }])).toBe(
      'A=true,B=true',
    );
    expect(featureGatesValue([])).toBe('');
  });
  it('lists each spec file once', () => {
    const files = SPEC_FILES.map((f) => f.file);
    expect(new Set(files).size).toBe(files.length);
  });
  it('keys every not-applicable spec and known failure by a listed file, and never both', () => {
    const files = SPEC_FILES.map((f) => f.file);
    for (const key of [...Object.keys(NOT_APPLICABLE), ...Object.keys(KNOWN_FAILURES)]) {
      expect(
        files.some((f) => key.startsWith(`${f}:`)),
        key,
      ).toBe(true);
      expect(NOT_APPLICABLE[key] !== undefined && KNOWN_FAILURES[key] !== undefined, key).toBe(false);
    }
  });
});
