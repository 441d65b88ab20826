// How long a simulated container's main process and its lifecycle hooks run, read from what the container spec
// says they run (`command`/`args`, `lifecycle.postStart`/`preStop`) and, without a command, from what the image
// catalogue knows of the image's own command. Only a few plain commands are understood (sleep, true, false, echo,
// exit, and `sh -c` scripts made of them); anything else is taken for a server that runs until it is stopped,
// which is what the simulator assumed of every container before. Pure.
import { exitsWithoutCommand } from './image-catalogue.js';
import { parseImageRef } from './image-ref.js';
import type { Container, LifecycleHandler } from './types.js';

/** What the main process does: exits after `runMs` with `exitCode`, or (`runMs` null) runs until stopped. */
export interface MainProcess {
  runMs: number | null;
  exitCode: number;
}

const FOREVER: MainProcess = { runMs: null, exitCode: 0 };
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

/** Splits one shell statement into words (quotes removed; no expansion). */
function words(statement: string): string[] {
  return (statement.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^(["'])(.*)\1$/, '$2'));
}

/** A command line (argv) as a process: understood commands only, anything else runs until stopped. */
export function processOf(argv: readonly string[]): MainProcess {
  const [first, ...rest] = argv;
  if (first === undefined) return FOREVER;
  const name = first.split('/').pop() ?? first;
  if (SHELLS.has(name)) {
    const c = rest.indexOf('-c');
    const script = c >= 0 ? rest[c + 1] : undefined;
    return script === undefined ? FOREVER : scriptOf(script);
  }
  return statementOf([name, ...rest]) ?? FOREVER;
}

/** One simple command: its duration and exit code, or undefined when not understood. */
function statementOf(w: readonly string[]): MainProcess | undefined {
  const [cmd, ...ops] = w;
  if (cmd === 'sleep') {
    const ms = sleepMs(ops);
    return ms === null ? FOREVER : { runMs: ms, exitCode: 0 };
  }
  if (cmd === 'false') return { runMs: 0, exitCode: 1 };
  if (cmd === 'exit') return { runMs: 0, exitCode: Number(ops[0] ?? 0) || 0 };
  if (cmd !== undefined && INSTANT.has(cmd)) return { runMs: 0, exitCode: 0 };
  return undefined;
}

/** A `sh -c` script of statements separated by `;`, `&&` or new lines: their durations add up. */
function scriptOf(script: string): MainProcess {
  let runMs = 0;
  let exitCode = 0;
  for (const statement of script.split(/;|&&|\n/)) {
    const w = words(statement.trim());
    if (w.length === 0) continue;
    const p = statementOf(w);
    if (!p || p.runMs === null) return FOREVER;
    runMs += p.runMs;
    exitCode = p.exitCode;
    if (w[0] === 'exit') break;
  }
  return { runMs: Math.min(runMs, MAX_FINITE_MS), exitCode };
}

/**
 * The main process of a container: its `command` (+ `args`); `args` alone replace the image's command, which
 * only matters for images the catalogue knows (no entrypoint); no command at all runs the image's own command.
 */
export function mainProcessOf(c: Pick<Container, 'image' | 'command' | 'args'>): MainProcess {
  const known = exitsWithoutCommand(parseImageRef(c.image ?? '').repository);
  if (c.command && c.command.length > 0) return processOf([...c.command, ...(c.args ?? [])]);
  if (c.args && c.args.length > 0) return known ? processOf(c.args) : FOREVER;
  return known ? { runMs: 0, exitCode: 0 } : FOREVER;
}

/** How long a lifecycle hook takes: `exec` of an understood command or `sleep.seconds`; 0 for the rest. */
export function hookMs(h: LifecycleHandler | null | undefined): number {
  if (!h) return 0;
  if (h.sleep && typeof h.sleep.seconds === 'number') return Math.max(0, h.sleep.seconds) * 1000;
  const cmd = h.exec?.command;
  if (cmd && cmd.length > 0) return processOf(cmd).runMs ?? 0;
  return 0;
}
