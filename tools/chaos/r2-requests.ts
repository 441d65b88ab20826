// R2's requests and log reading, shared by its halves (r2.ts) and its agent rows (r2-agents.ts): one create through
// the API server, timed, its refusal kept as the API server gave it; error lines in a program's log, and the defects
// among them.
import { readFile } from 'node:fs/promises';
import { KubeApiError, type KubeClient, type KubeObject } from '@regatta/kube';
import { nowMs } from '../bench/common.js';
import type { Violation } from './checker.js';
import type { Response } from './fuzz.js';

export async function send(client: KubeClient, obj: KubeObject): Promise<Response> {
  const t = nowMs();
  try {
    await client.create(obj);
    return { ms: nowMs() - t, accepted: true };
  } catch (err) {
    const ms = nowMs() - t;
    if (err instanceof KubeApiError)
      return {
        ms,
        accepted: false,
        status: err.status,
        message: err.serverMessage || err.message,
        causes: err.details?.causes ?? [],
      };
    return { ms, accepted: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/** The lines of a program's `log` at level error or fatal (pino's numbers ≥ 50, or the names). */
export function countErrorLines(log: string): number {
  return log.split('\n').filter((line) => isErrorLine(line)).length;
}

/** What a program wrote to its log `file` from byte `from` on ('' when there is no such file). */
export async function readLogFrom(file: string, from: number): Promise<string> {
  return (await readFile(file).catch(() => Buffer.alloc(0))).subarray(from).toString('utf8');
}

export function isErrorLine(line: string): boolean {
  const m = /"level":(?:(\d+)|"(\w+)")/.exec(line);
  return !!m && (Number(m[1]) >= 50 || m[2] === 'error' || m[2] === 'fatal');
}

/** Errors JavaScript throws for a mistake in the code itself: no input, however hostile, may make a program throw one. */
const DEFECT_TYPES = new Set([
  'TypeError',
  'ReferenceError',
  'RangeError',
  'SyntaxError',
  'URIError',
  'EvalError',
]);

/** A cause pino appended to an error's stack (pino-std-serializers `stackWithCauses`). */
const CAUSED_BY = /\ncaused by: (\w+): ([^\n]*)/g;

/**
 * The defects a program logged: error lines whose `err` (as pino writes an error: `type`, `message`, and a `stack`
 * ending with its causes) is, or was caused by, one of DEFECT_TYPES; each `type: message` once, with how many lines
 * logged it. A defect retried with back-off is no crash, but the object that causes it is never reconciled (finding 24).
 */
export function defectsLogged(log: string): { error: string; lines: number }[] {
  const seen = new Map<string, number>();
  for (const line of log.split('\n')) {
    if (!isErrorLine(line)) continue;
    let entry: { err?: { type?: unknown; message?: unknown; stack?: unknown } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue; // a line cut short (the program killed mid-write) is no entry
    }
    const error = defectIn(entry.err);
    if (error) seen.set(error, (seen.get(error) ?? 0) + 1);
  }
  return [...seen].map(([error, lines]) => ({ error, lines }));
}

function defectIn(
  err: { type?: unknown; message?: unknown; stack?: unknown } | undefined,
): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  if (typeof err.type === 'string' && DEFECT_TYPES.has(err.type))
    return `${err.type}: ${String(err.message ?? '')}`;
  for (const m of typeof err.stack === 'string' ? err.stack.matchAll(CAUSED_BY) : [])
    if (m[1] && DEFECT_TYPES.has(m[1])) return `${m[1]}: ${m[2] ?? ''}`;
  return undefined;
}

/** A `defect` violation for each defect `who` logged in `log` (read from `file`). */
export function defectViolations(who: string, log: string, file: string, at: number): Violation[] {
  return defectsLogged(log).map((d) => ({
    kind: 'defect',
    at,
    count: d.lines,
    detail: `${who} logged ${d.error.slice(0, 200)} (${d.lines} lines; ${file})`,
  }));
}
