// R2's requests and log reading, shared by its halves (r2.ts) and its agent rows (r2-agents.ts): one create through
// the API server, timed, its refusal kept as the API server gave it; error lines in a program's log.
import { readFile } from 'node:fs/promises';
import { KubeApiError, type KubeClient, type KubeObject } from '@regatta/kube';
import { nowMs } from '../bench/common.js';
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

/** Log lines at level error or fatal (pino's numbers ≥ 50, or the names) written to `file` from byte `from` on. */
export async function countErrorLines(file: string, from: number): Promise<number> {
  return (await readLogFrom(file, from)).split('\n').filter((line) => isErrorLine(line)).length;
}

/** What a program wrote to its log `file` from byte `from` on ('' when there is no such file). */
export async function readLogFrom(file: string, from: number): Promise<string> {
  return (await readFile(file).catch(() => Buffer.alloc(0))).subarray(from).toString('utf8');
}

export function isErrorLine(line: string): boolean {
  const m = /"level":(?:(\d+)|"(\w+)")/.exec(line);
  return !!m && (Number(m[1]) >= 50 || m[2] === 'error' || m[2] === 'fatal');
}
