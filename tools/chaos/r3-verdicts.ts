// R3's verdicts for one program with admission webhooks (tools/chaos/r3-programs.ts), from what the live part
// measured: the writes of objects it does not own must go at the speed they go with the program absent, whatever
// state it is in, and its own kinds must fail safe while it is down (refused by the API server: its webhooks are
// failurePolicy Fail, libs/runtime kind-webhook-configurations.ts) and be admitted again once it is back. Pure.
import { fmt, summarize } from '../bench/common.js';
import type { Violation } from './checker.js';

/** The program's states, in the order R3 puts it in them. */
export const PHASES = ['absent', 'running', 'killed', 'hung'] as const;
export type Phase = (typeof PHASES)[number];
/** A state its own kinds must be refused in. */
export type DownPhase = Extract<Phase, 'killed' | 'hung'>;

/** A write slower than this paid a webhook's timeout (the configurations' `timeoutSeconds` is 10). */
export const BLOCKED_MS = 5000;
/**
 * The noise model (docs/reliability-checks.md, R3): every unrelated write is paired with the same write of a ConfigMap
 * right after it (`control`), which no admission webhook matches. A state slows the unrelated writes down when their
 * median, divided by the median of its controls, exceeds the same quotient with the program absent by this factor:
 * a loaded machine slows both and cancels out; a webhook call in the path slows only the unrelated writes.
 */
export const SLOWDOWN_FACTOR = 3;
/** The family of the paired control writes. */
export const CONTROL = 'control';

/** One write of an object the program does not own (a pod, a Deployment, another program's kind). */
export interface UnrelatedWrite {
  /** `pod`, `deployment`, or the other kind's name. */
  family: string;
  op: 'create' | 'update';
  ms: number;
  /** The API server's message when it refused the write. */
  error?: string;
}

/** One write of the program's own kind, and whether the API server took it. */
export interface OwnWrite {
  kind: string;
  op: 'create' | 'update';
  phase: Exclude<Phase, 'absent'>;
  ms: number;
  admitted: boolean;
  message?: string;
}

export interface ProgramRun {
  program: string;
  /** When the run began (the suite's clock, ms): the time of its violations. */
  at: number;
  unrelated: Record<Phase, UnrelatedWrite[]>;
  own: OwnWrite[];
  /** From the program started again (killed) or SIGCONT (hung) to its kinds' first admitted create, ms; undefined: never. */
  admittedAgainMs: Record<DownPhase, number | undefined>;
  /** The program exited after SIGCONT (its lease lost) and was started again by the supervisor. */
  exitedAfterResume: boolean;
  /** From that exit to its kinds' first admitted create, ms; undefined: never, or no exit. */
  admittedAfterExitMs: number | undefined;
}

const ms = (xs: readonly UnrelatedWrite[]) => xs.map((x) => x.ms);
const measured = (xs: readonly UnrelatedWrite[]) => xs.filter((x) => x.family !== CONTROL);
const controls = (xs: readonly UnrelatedWrite[]) => xs.filter((x) => x.family === CONTROL);

/** The unrelated writes' median over their controls' median (1 with no controls: runs from before the pairing). */
export function overControls(xs: readonly UnrelatedWrite[]): number {
  const c = controls(xs);
  const p50 = summarize(ms(measured(xs))).p50;
  return c.length === 0 ? p50 : p50 / summarize(ms(c)).p50;
}

/** The state's quotient against the absent one's: over SLOWDOWN_FACTOR is a slowdown the program caused. */
export function slowedDown(state: readonly UnrelatedWrite[], absent: readonly UnrelatedWrite[]): number {
  return overControls(state) / overControls(absent);
}

export function r3Violations(run: ProgramRun): Violation[] {
  const out: Violation[] = [];
  const add = (kind: Violation['kind'], count: number, detail: string) =>
    out.push({ kind, at: run.at, count, detail: `${run.program}: ${detail}` });
  const base = summarize(ms(measured(run.unrelated.absent))).p50;
  for (const phase of PHASES) {
    const writes = measured(run.unrelated[phase]);
    const refused = writes.filter((x) => x.error !== undefined);
    const [first] = refused;
    if (first)
      add(
        'unavailable',
        refused.length,
        `${refused.length}/${writes.length} writes of objects it does not own refused with the program ${phase} ` +
          `(first: ${first.family} ${first.op}: ${first.error})`,
      );
    const blocked = writes.filter((x) => x.ms > BLOCKED_MS);
    if (blocked.length > 0)
      add(
        'unavailable',
        blocked.length,
        `${blocked.length}/${writes.length} writes of objects it does not own took over ${BLOCKED_MS / 1000} s ` +
          `with the program ${phase} (a webhook's timeout paid)`,
      );
    const p50 = summarize(ms(writes)).p50;
    const slowdown = slowedDown(run.unrelated[phase], run.unrelated.absent);
    if (phase !== 'absent' && slowdown > SLOWDOWN_FACTOR)
      add(
        'unavailable',
        writes.length,
        `writes of objects it does not own slowed down with the program ${phase}: p50 ${fmt(p50)} ms against ` +
          `${fmt(base)} ms with it absent, ${fmt(slowdown, 2)}× once divided by their control writes' medians`,
      );
  }
  for (const w of run.own) {
    const down = w.phase !== 'running';
    if (down && w.admitted)
      add(
        'admission',
        1,
        `a ${w.kind} ${w.op} was admitted with the program ${w.phase} (its webhooks not called)`,
      );
    if (!down && !w.admitted)
      add(
        'admission',
        1,
        `a valid ${w.kind} ${w.op} was refused with the program running: ${w.message ?? ''}`,
      );
  }
  for (const phase of ['killed', 'hung'] as const)
    if (run.admittedAgainMs[phase] === undefined)
      add(
        'admission',
        1,
        `its kinds were not admitted again after it was ${phase === 'killed' ? 'restarted' : 'resumed'}`,
      );
  if (run.exitedAfterResume && run.admittedAfterExitMs === undefined)
    add('admission', 1, 'its kinds were not admitted again after its exit on SIGCONT and its restart');
  return out;
}

/** `create 41.0 / 90.2 ms, update 30.1 / 62.0 ms`: p50 / p99 of the writes' durations by operation. */
function p50p99(writes: readonly UnrelatedWrite[]): string {
  const of = (op: UnrelatedWrite['op']) => {
    const xs = ms(writes.filter((x) => x.op === op));
    if (xs.length === 0) return `${op} n/a`;
    const s = summarize(xs);
    return `${op} ${fmt(s.p50)} / ${fmt(s.p99)} ms`;
  };
  return `${of('create')}, ${of('update')}`;
}

/** `refused 2/2 (10.0 s)`: how many of the down phase's own-kind writes were refused, and the slowest answer. */
function refusals(own: readonly OwnWrite[], phase: DownPhase): string {
  const writes = own.filter((w) => w.phase === phase);
  if (writes.length === 0) return 'n/a';
  const refused = writes.filter((w) => !w.admitted).length;
  return `refused ${refused}/${writes.length} (slowest answer ${fmt(Math.max(...writes.map((w) => w.ms)) / 1000)} s)`;
}

const seconds = (x: number | undefined) => (x === undefined ? 'never' : `${fmt(x / 1000)} s`);

/** The figures of one program's row (docs/reliability.md publishes them). */
export function r3Figures(run: ProgramRun, kinds: readonly string[]): [string, string][] {
  const base = summarize(ms(measured(run.unrelated.absent))).p50;
  const ratio = (phase: Phase) =>
    `p50 ${fmt(summarize(ms(measured(run.unrelated[phase]))).p50 / base, 2)}× absent, ` +
    `${fmt(slowedDown(run.unrelated[phase], run.unrelated.absent), 2)}× over controls`;
  const n = measured(run.unrelated.absent).length;
  const control = (phase: Phase) => fmt(summarize(ms(controls(run.unrelated[phase]))).p50);
  return [
    [`unrelated writes (${n} per state), program absent`, p50p99(measured(run.unrelated.absent))],
    ['… running', `${p50p99(measured(run.unrelated.running))} (${ratio('running')})`],
    ['… killed (-9)', `${p50p99(measured(run.unrelated.killed))} (${ratio('killed')})`],
    ['… hung (SIGSTOP)', `${p50p99(measured(run.unrelated.hung))} (${ratio('hung')})`],
    [
      'control writes (ConfigMaps) p50: absent / running / killed / hung',
      `${PHASES.map(control).join(' / ')} ms`,
    ],
    [`${kinds.join(', ')} writes, killed`, refusals(run.own, 'killed')],
    ['… hung', refusals(run.own, 'hung')],
    [
      'admitted again after restart / SIGCONT / exit after SIGCONT',
      `${seconds(run.admittedAgainMs.killed)} / ${seconds(run.admittedAgainMs.hung)} / ` +
        (run.exitedAfterResume ? seconds(run.admittedAfterExitMs) : 'no exit'),
    ],
  ];
}
