import { describe, expect, it } from 'vitest';
import { firstLine, outcomeOf, withKnownCause, withoutKnownCause } from './results.js';

const spec = {
  file: 'apps/v1alpha1/cloneset.go',
  line: 717,
  text: 'in-place update images with the same imageID',
  containers: [],
};
const it717 = (over: Record<string, unknown>) => ({
  LeafNodeType: 'It',
  LeafNodeText: spec.text,
  LeafNodeLocation: {
    FileName: 'github.com/openkruise/kruise/test/e2e/apps/v1alpha1/cloneset.go',
    LineNumber: 717,
  },
  ...over,
});
const skipped = { LeafNodeType: 'It', LeafNodeLocation: { LineNumber: 72 }, State: 'skipped' };

describe('outcomeOf', () => {
  it('passed when the focused spec passed', () => {
    const report = [{ SpecReports: [skipped, it717({ State: 'passed' })] }];
    expect(outcomeOf(spec, { report, exitCode: 0, seconds: 12 })).toEqual({
      spec,
      outcome: 'passed',
      reason: '',
      seconds: 12,
    });
  });

  it('failed with the first line of the failure and its location', () => {
    const report = [
      {
        SpecReports: [
          it717({
            State: 'failed',
            Failure: {
              Message: '\nTimed out after 60.001s.\nExpected\n    <bool>: false\nto be true',
              Location: {
                FileName: 'github.com/openkruise/kruise/test/e2e/apps/v1alpha1/cloneset.go',
                LineNumber: 790,
              },
            },
          }),
        ],
      },
    ];
    expect(outcomeOf(spec, { report, exitCode: 1, seconds: 70 })).toMatchObject({
      outcome: 'failed',
      reason: 'Timed out after 60.001s. Expected <bool>: false to be true (cloneset.go:790)',
    });
  });

  it('names a state other than failed (timedout, panicked)', () => {
    const report = [
      { SpecReports: [it717({ State: 'timedout', Failure: { Message: 'A suite timeout occurred' } })] },
    ];
    expect(outcomeOf(spec, { report, exitCode: 1, seconds: 600 }).reason).toBe(
      'timedout: A suite timeout occurred',
    );
  });

  it('fails when the process wrote no report, or the focus selected nothing', () => {
    expect(outcomeOf(spec, { report: undefined, exitCode: 2, seconds: 1 }).reason).toBe(
      'the e2e process exited with 2 and wrote no report',
    );
    expect(outcomeOf(spec, { report: [{ SpecReports: [skipped] }], exitCode: 0, seconds: 1 }).reason).toMatch(
      /selected no spec/,
    );
  });

  it('a failed suite node (BeforeSuite, AfterEach of the suite) fails the spec', () => {
    const report = [
      {
        SpecReports: [
          it717({ State: 'passed' }),
          { LeafNodeType: 'SynchronizedAfterSuite', State: 'failed', Failure: { Message: 'cleanup failed' } },
        ],
      },
    ];
    expect(outcomeOf(spec, { report, exitCode: 1, seconds: 5 })).toMatchObject({
      outcome: 'failed',
      reason: 'cleanup failed',
    });
  });

  it('failed at the per-spec timeout', () => {
    expect(
      outcomeOf(spec, { report: undefined, exitCode: null, seconds: 660, timedOutAfter: 600 }).reason,
    ).toBe('no result within the per-spec timeout of 600 s');
  });
});

describe('firstLine', () => {
  it('joins the lines and shortens long messages', () => {
    expect(firstLine('\n\n  hello  \nworld')).toBe('hello world');
    expect(firstLine('x'.repeat(400))).toHaveLength(300);
  });
});

describe('withKnownCause', () => {
  const known = { [`${spec.file}:${spec.text}`]: 'simulator gap' };
  it('puts the known cause of a failure first, once', () => {
    const failed = { spec, outcome: 'failed' as const, reason: 'Timed out', seconds: 1 };
    const once = withKnownCause(failed, known);
    expect(once.reason).toBe('Known cause: simulator gap. Failure: Timed out');
    expect(withKnownCause(once, known)).toEqual(once);
    expect(withoutKnownCause(once.reason)).toBe('Timed out');
    expect(withoutKnownCause('Timed out')).toBe('Timed out');
  });
  it('leaves passed specs and specs without a known cause alone', () => {
    const passed = { spec, outcome: 'passed' as const, reason: '', seconds: 1 };
    expect(withKnownCause(passed, known)).toEqual(passed);
    expect(withKnownCause({ ...passed, outcome: 'failed', reason: 'x' }, {})).toMatchObject({ reason: 'x' });
  });
});
