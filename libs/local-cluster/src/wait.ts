import { setTimeout as sleep } from 'node:timers/promises';
import { WaitTimeoutError } from './errors.js';

/**
 * Polls `check` until it returns a value other than undefined/false, or throws WaitTimeoutError.
 * Errors thrown by `check` count as "not yet" (the last one is attached as the cause).
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  {
    timeoutMs = 60_000,
    intervalMs = 100,
    signal,
  }: { timeoutMs?: number; intervalMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    signal?.throwIfAborted();
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const e = new WaitTimeoutError(what, timeoutMs);
      if (lastError) (e as { cause?: unknown }).cause = lastError;
      throw e;
    }
    await sleep(intervalMs);
  }
}
