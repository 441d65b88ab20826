// How long a simulated container's main process and its lifecycle hooks run, read from what the container spec
// says they run (`command`/`args`, `lifecycle.postStart`/`preStop`) and, without a command, from what the image
// catalogue knows of the image's own command. Only a few plain commands are understood (sleep, true, false, echo,
// exit, tail -f, and `sh -c` scripts made of them); anything else is taken for a server that runs until it is
// stopped, which is what the simulator assumed of every container before. Pure.
//
// Also whether the process ends on SIGTERM (kubelet's first stop signal): a container's main process is PID 1 of
// its PID namespace, and the kernel delivers no signal to PID 1 whose disposition is the default, so `sleep`,
// `tail -f` and a shell without a `trap` ignore SIGTERM and are only ended by the SIGKILL at the end of the grace
// period (see kubelet's killContainer, upstream kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go). A
// server the simulator does not understand is taken to handle SIGTERM, as servers do.
import { exitsWithoutCommand } from './image-catalogue.js';
import { parseImageRef } from './image-ref.js';
import type { Container, LifecycleHandler } from './types.js';

/** What the main process does: exits after `runMs` with `exitCode`, or (`runMs` null) runs until stopped. */
export interface MainProcess {
  runMs: number | null;
  exitCode: number;
  /** It exits when sent SIGTERM; false: it runs on until SIGKILL (a plain command as PID 1, no handler). */
  exitsOnSigterm: boolean;
}

/** Something not understood: taken for a server, which runs until stopped and exits on SIGTERM. */
const SERVER: MainProcess = { runMs: null, exitCode: 0, exitsOnSigterm: true };
/** An understood command that runs until stopped with no SIGTERM handler (`sleep infinity`, `tail -f`). */
const FOREVER: MainProcess = { runMs: null, exitCode: 0, exitsOnSigterm: false };
/** Longest finite duration (a timer's limit, ~24.8 days); a longer sleep (`sleep 999d`) runs until stopped. */
export const MAX_FINITE_MS = 2 ** 31 - 1;

const UNIT_MS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** GNU `sleep` operands (`10`, `0.5`, `5m`, `999d`, `infinity`; several add up) in ms; null: forever or unknown. */
export function sleepMs(operands: readonly string[]): number | null {
  if (operands.length === 0) return null;
  let total = 0;
  for (const op of operands) {
    if (op === 'inf' || op === 'infinity') return null;
    const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(op);
    if (!m) return null;
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? 1000);
  }
  return total > MAX_FINITE_MS ? null : Math.round(total);
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash']);
const INSTANT = new Set(['true', ':', 'echo', 'printf', 'date', 'env', 'hostname', 'pwd', 'id']);
const TERM_NAMES = new Set(['TERM', 'SIGTERM', '15']);

/** Splits one shell statement into words (quotes removed; no expansion). */
function words(statement: string): string[] {
  return (statement.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^(["'])(.*)\1$/, '$2'));
}

/** A command line (argv) as a process: understood commands only, anything else runs until stopped. */
export function processOf(argv: readonly string[]): MainProcess {
  const [first, ...rest] = argv;
  if (first === undefined) return SERVER;
  const name = first.split('/').pop() ?? first;
  if (SHELLS.has(name)) {
    const c = rest.indexOf('-c');
    const script = c >= 0 ? rest[c + 1] : undefined;
    return script === undefined ? SERVER : scriptOf(script);
  }
  const p = statementOf([name, ...rest]);
  return p ? { ...p, exitsOnSigterm: false } : SERVER;
}

/** One simple command: its duration (null: until stopped) and exit code, or undefined when not understood. */
function statementOf(w: readonly string[]): Omit<MainProcess, 'exitsOnSigterm'> | undefined {
  const [cmd, ...ops] = w;
  if (cmd === 'exec') return statementOf(ops);
  if (cmd === 'sleep') return { runMs: sleepMs(ops), exitCode: 0 };
  // `tail -f FILE` (`-F`, `--follow`): follows the file until stopped
  if (cmd === 'tail' && ops.some((o) => /^-[a-zA-Z]*[fF]|^--follow/.test(o)))
    return { runMs: null, exitCode: 0 };
  if (cmd === 'false') return { runMs: 0, exitCode: 1 };
  if (cmd === 'exit') return { runMs: 0, exitCode: Number(ops[0] ?? 0) || 0 };
  if (cmd !== undefined && INSTANT.has(cmd)) return { runMs: 0, exitCode: 0 };
  return undefined;
}

/**
 * A `sh -c` script of statements separated by `;`, `&&`, `&` or new lines: the durations of the ones in the
 * foreground add up, `wait` waits for the ones started in the background (`cmd &`). The shell (PID 1) exits on
 * SIGTERM only with a `trap … TERM` whose action is not empty, and only while it waits in `wait` (a shell runs its
 * traps between commands, so a foreground `sleep` defers it): the usual `trap 'exit 0' TERM; sleep infinity & wait`.
 */
function scriptOf(script: string): MainProcess {
  let runMs = 0;
  let exitCode = 0;
  /** When the background jobs end, relative to the script's start (null: never). */
  let backgroundUntil: number | null = 0;
  let trapsTerm = false;
  let blocksInForeground = false;
  const parts = script.split(/(;|&&|\n|&)/);
  for (let i = 0; i < parts.length; i += 2) {
    const w = words((parts[i] ?? '').trim());
    if (w.length === 0) continue;
    const background = parts[i + 1] === '&';
    if (w[0] === 'trap') {
      // trap ACTION SIGNAL…: an empty action ignores the signals
      const [, action, ...signals] = w;
      if (signals.some((s) => TERM_NAMES.has(s.toUpperCase())))
        trapsTerm = action !== undefined && action !== '';
      continue;
    }
    if (w[0] === 'wait' && w.length === 1) {
      if (backgroundUntil === null) runMs = Infinity;
      else runMs = Math.max(runMs, backgroundUntil);
      continue;
    }
    const p = statementOf(w);
    if (!p) return SERVER;
    if (background) {
      backgroundUntil =
        p.runMs === null || backgroundUntil === null ? null : Math.max(backgroundUntil, runMs + p.runMs);
      continue;
    }
    if (p.runMs === null) return FOREVER;
    if (p.runMs > 0) blocksInForeground = true;
    runMs += p.runMs;
    exitCode = p.exitCode;
    if (w[0] === 'exit') break;
  }
  const exitsOnSigterm = trapsTerm && !blocksInForeground;
  if (!Number.isFinite(runMs)) return { runMs: null, exitCode: 0, exitsOnSigterm };
  return { runMs: Math.min(runMs, MAX_FINITE_MS), exitCode, exitsOnSigterm };
}

/**
 * The main process of a container: its `command` (+ `args`); `args` alone replace the image's command, which
 * only matters for images the catalogue knows (no entrypoint); no command at all runs the image's own command.
 */
export function mainProcessOf(c: Pick<Container, 'image' | 'command' | 'args'>): MainProcess {
  const known = exitsWithoutCommand(parseImageRef(c.image ?? '').repository);
  if (c.command && c.command.length > 0) return processOf([...c.command, ...(c.args ?? [])]);
  if (c.args && c.args.length > 0) return known ? processOf(c.args) : SERVER;
  return known ? { runMs: 0, exitCode: 0, exitsOnSigterm: false } : SERVER;
}

/** How long a lifecycle hook takes: `exec` of an understood command or `sleep.seconds`; 0 for the rest. */
export function hookMs(h: LifecycleHandler | null | undefined): number {
  if (!h) return 0;
  if (h.sleep && typeof h.sleep.seconds === 'number') return Math.max(0, h.sleep.seconds) * 1000;
  const cmd = h.exec?.command;
  if (cmd && cmd.length > 0) return processOf(cmd).runMs ?? 0;
  return 0;
}
