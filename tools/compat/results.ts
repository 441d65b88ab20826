/**
 * One spec's outcome from its process: ginkgo's JSON report (`--ginkgo.json-report`), the exit code, and whether
 * the runner had to stop it at the per-spec timeout.
 */
import type { Spec } from './specs.js';

export type Outcome = 'passed' | 'failed' | 'not applicable';

export interface SpecResult {
  spec: Spec;
  outcome: Outcome;
  /** Why it failed (first line of the failure and where) or why it does not apply; empty when passed. */
  reason: string;
  seconds: number;
  /** When it ran (`YYYY-MM-DD HH:MM UTC`), the code it ran against and the per-spec timeout (s), once stored. */
  at?: string;
  code?: string;
  timeout?: number;
}

/** The parts of ginkgo v2's JSON report (`types.Report`) the runner reads. */
interface GinkgoSpecReport {
  LeafNodeType?: string;
  LeafNodeText?: string;
  LeafNodeLocation?: { FileName?: string; LineNumber?: number };
  State?: string;
  RunTime?: number;
  Failure?: { Message?: string; Location?: { FileName?: string; LineNumber?: number } };
}
interface GinkgoSuiteReport {
  SpecReports?: GinkgoSpecReport[] | null;
}

const MAX_REASON = 300;

/** A failure message on one line (gomega's `Expected\n    <int>: 1\nto equal\n    <int>: 2` → one line), shortened. */
export function firstLine(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line;
}

const base = (f: string | undefined) => (f ?? '').split('/').pop() ?? '';

/**
 * The outcome of one focused run. `report` is the parsed JSON report (undefined when the process wrote none),
 * `timedOutAfter` the per-spec timeout in seconds when the runner killed the process.
 */
export function outcomeOf(
  spec: Spec,
  run: { report: unknown; exitCode: number | null; seconds: number; timedOutAfter?: number },
): SpecResult {
  const { seconds } = run;
  if (run.timedOutAfter !== undefined)
    return {
      spec,
      outcome: 'failed',
      reason: `no result within the per-spec timeout of ${run.timedOutAfter} s`,
      seconds,
    };
  const suites = Array.isArray(run.report) ? (run.report as GinkgoSuiteReport[]) : [];
  const all = suites.flatMap((s) => s.SpecReports ?? []);
  const ran = all.filter((r) => r.LeafNodeType === 'It' && r.State !== 'skipped' && r.State !== 'pending');
  const mine = ran.find((r) => r.LeafNodeLocation?.LineNumber === spec.line) ?? ran[0];
  // a failure outside the spec (BeforeSuite, AfterSuite) still fails the run
  const other = all.find(
    (r) => r.LeafNodeType !== 'It' && r.State && r.State !== 'passed' && r.State !== 'skipped',
  );
  if (!mine) {
    if (other) return { spec, outcome: 'failed', reason: failureText(other), seconds };
    return {
      spec,
      outcome: 'failed',
      reason:
        run.report === undefined
          ? `the e2e process exited with ${run.exitCode} and wrote no report`
          : 'the focus selected no spec (the source and the binary disagree)',
      seconds,
    };
  }
  if (mine.State !== 'passed') return { spec, outcome: 'failed', reason: failureText(mine), seconds };
  if (other) return { spec, outcome: 'failed', reason: failureText(other), seconds };
  return { spec, outcome: 'passed', reason: '', seconds };
}

function failureText(r: GinkgoSpecReport): string {
  const where = r.Failure?.Location?.LineNumber
    ? ` (${base(r.Failure.Location.FileName)}:${r.Failure.Location.LineNumber})`
    : '';
  const msg = firstLine(r.Failure?.Message ?? '') || r.State || 'failed';
  return `${r.State && r.State !== 'failed' ? `${r.State}: ` : ''}${msg}${where}`;
}

/** A failed result with its known cause (KNOWN_FAILURES) in front of the failure message. */
export function withKnownCause(r: SpecResult, known: Readonly<Record<string, string>>): SpecResult {
  const cause = known[`${r.spec.file}:${r.spec.text}`];
  if (r.outcome !== 'failed' || cause === undefined || r.reason.startsWith('Known cause:')) return r;
  return { ...r, reason: `Known cause: ${cause}. Failure: ${r.reason}` };
}

/** The failure message of a reason `withKnownCause` wrote (results stored before causes were kept apart). */
export function withoutKnownCause(reason: string): string {
  const at = reason.indexOf('. Failure: ');
  return reason.startsWith('Known cause:') && at >= 0 ? reason.slice(at + '. Failure: '.length) : reason;
}
