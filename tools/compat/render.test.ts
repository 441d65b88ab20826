import { describe, expect, it } from 'vitest';
import {
  cell,
  counts,
  realResultsFromMarkdown,
  renderConsole,
  renderMarkdown,
  resultsFromMarkdown,
} from './render.js';
import type { SpecResult } from './results.js';

const file = 'apps/v1alpha1/cloneset.go';
const spec = (line: number, text: string) => ({
  file,
  line,
  text,
  containers: ['CloneSet', 'CloneSet Updating'],
});
const results: SpecResult[] = [
  { spec: spec(345, 'scales in normal cases'), outcome: 'passed', reason: '', seconds: 31.4 },
  {
    spec: spec(717, 'same imageID'),
    outcome: 'failed',
    reason: 'Timed out | after 60s (cloneset.go:790)',
    seconds: 75,
  },
  { spec: spec(1717, 'pre-download'), outcome: 'not applicable', reason: 'needs kruise-daemon', seconds: 0 },
];
const info = {
  version: '1.9.1',
  date: '2026-12-03 07:00 UTC',
  code: 'abc1234',
  timeout: 600,
  command: 'npm run compat',
};

describe('renderMarkdown', () => {
  it('writes one table per kind with counts, results and reasons', () => {
    const md = renderMarkdown(results, info, [
      { kind: 'CloneSet', file },
      { kind: 'Advanced StatefulSet', file: 'apps/v1beta1/statefulset.go' },
    ]);
    expect(md).toContain('**Total: 1 passed, 1 failed, 1 not applicable.**');
    expect(md).toContain(
      '## CloneSet (`test/e2e/apps/v1alpha1/cloneset.go`): 1 passed, 1 failed, 1 not applicable',
    );
    expect(md).not.toContain('Advanced StatefulSet');
    const rows = md.split('\n').filter((l) => /^\| \d/.test(l));
    expect(rows).toEqual([
      '| 345 | CloneSet Updating › scales in normal cases | passed | 31 |  |',
      '| 717 | CloneSet Updating › same imageID | **failed** | 75 | Timed out \\| after 60s (cloneset.go:790) |',
      '| 1717 | CloneSet Updating › pre-download | n/a |  | needs kruise-daemon |',
    ]);
    expect(md.endsWith('\n')).toBe(true);
  });
});

describe('helpers', () => {
  it('counts outcomes', () => expect(counts(results)).toEqual({ passed: 1, failed: 1, 'not applicable': 1 }));
  it('escapes table cells', () => expect(cell('a|b\n  c')).toBe('a\\|b c'));
  it('prints a console table with reasons under failures', () => {
    const text = renderConsole(results);
    expect(text).toContain('  717  failed         same imageID\n');
    expect(text.endsWith('1 passed, 1 failed, 1 not applicable')).toBe(true);
  });
});

describe('resultsFromMarkdown', () => {
  it('reads back the rows of a rendered document, with its run date, code and timeout', () => {
    const md = renderMarkdown(results, info, [{ kind: 'CloneSet', file }]);
    const specs = results.map((r) => r.spec);
    expect(resultsFromMarkdown(md, specs)).toEqual(
      results.map((r) => ({
        ...r,
        seconds: r.outcome === 'not applicable' ? 0 : Math.round(r.seconds),
        at: info.date,
        code: info.code,
        timeout: info.timeout,
      })),
    );
  });

  it('skips rows of specs no longer listed, and sections of other files', () => {
    const md = renderMarkdown(results, info, [{ kind: 'CloneSet', file }]);
    expect(resultsFromMarkdown(md, [spec(345, 'scales in normal cases')]).map((r) => r.spec.line)).toEqual([
      345,
    ]);
    expect(resultsFromMarkdown(md, [{ ...spec(345, 'x'), file: 'apps/v1beta1/statefulset.go' }])).toEqual([]);
  });
});

describe('the real-nodes column', () => {
  const real: SpecResult[] = [
    { ...results[0]!, seconds: 40, at: '2026-12-07 13:00 UTC', code: 'def5678' },
    {
      ...results[2]!,
      outcome: 'failed',
      reason: 'no | exec',
      seconds: 12,
      at: '2026-12-07 13:00 UTC',
      code: 'def5678',
    },
  ];
  it('adds a column with the real-node outcome and the run and commit it comes from', () => {
    const md = renderMarkdown(results, info, [{ kind: 'CloneSet', file }], real);
    expect(md).toContain(
      'Latest result: 2026-12-07 13:00 UTC, code\ndef5678 (`npm run compat -- --real-nodes`)',
    );
    const rows = md.split('\n').filter((l) => /^\| \d/.test(l));
    expect(rows).toEqual([
      '| 345 | CloneSet Updating › scales in normal cases | passed | 31 |  | passed (40 s) |',
      '| 717 | CloneSet Updating › same imageID | **failed** | 75 | Timed out \\| after 60s (cloneset.go:790) |  |',
      '| 1717 | CloneSet Updating › pre-download | n/a |  | needs kruise-daemon | **failed** (12 s): no \\| exec |',
    ]);
    // both read back
    const specs = results.map((r) => r.spec);
    expect(resultsFromMarkdown(md, specs)).toHaveLength(3);
    expect(realResultsFromMarkdown(md, specs)).toEqual(real);
  });
});
