import { describe, expect, it } from 'vitest';
import { countBy, medianMax, passed, renderResults, type CheckResult } from './report.js';

const ok: CheckResult = {
  id: 'R6',
  title: 'restart mid-rollout',
  figures: [['pods', '30']],
  violations: [],
  crashes: 0,
  notes: [],
};

describe('report', () => {
  it('passes only with no violation and no crash', () => {
    expect(passed(ok)).toBe(true);
    expect(passed({ ...ok, crashes: 1 })).toBe(false);
    expect(passed({ ...ok, violations: [{ kind: 'unavailable', at: 0, count: 1, detail: '' }] })).toBe(false);
  });

  it('counts and summarises', () => {
    expect(countBy(['a', 'b', 'a'])).toBe('a 2, b 1');
    expect(countBy([])).toBe('none');
    expect(medianMax([1000, 3000, 2000])).toBe('2.0 s / 3.0 s');
    expect(medianMax([])).toBe('n/a');
  });

  it('prints a table with a verdict per check, then the violations and notes', () => {
    const text = renderResults([
      ok,
      {
        id: 'R4',
        title: 'leaked expectation',
        figures: [['healed after', '301.0 s']],
        violations: [{ kind: 'incomplete', at: 2500, count: 1, detail: 'never resumed' }],
        crashes: 0,
        notes: ['timeout 300 s'],
      },
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^check +result +figure +value$/);
    expect(lines[2]).toMatch(/^R6 restart mid-rollout +pass +pods +30$/);
    expect(lines[3]).toMatch(/^ +violations +0$/);
    expect(lines[5]).toMatch(
      /^R4 leaked expectation +FAIL \(1 violation\(s\), 0 crash\(es\)\) +healed after +301\.0 s$/,
    );
    expect(lines.slice(-2)).toEqual([
      'R4 violation incomplete (×1, first at 2.5 s): never resumed',
      'R4 note: timeout 300 s',
    ]);
  });
});
