/** client-go `retry.RetryOnConflict` / `retry.OnError`, with the same defaults. */
import { isConflict, toKubeApiError } from './errors.js';

export interface Backoff {
  /** The first wait. */
  durationMs: number;
  /** Each wait is the previous one times this (1 = constant). */
  factor?: number;
  /** Up to this fraction of the wait is added at random (0.1 = up to +10 %). */
  jitter?: number;
  /** No wait grows beyond this. */
  capMs?: number;
}

export interface RetryOptions {
  /** Attempts in total, the first included. */
  steps?: number;
  backoff?: Backoff;
  /** Stops waiting and rethrows the last error when aborted. */
  signal?: AbortSignal;
}

/** client-go `retry.DefaultRetry`: 5 attempts 10 ms apart (+10 % jitter), for conflicts between controllers. */
export const DEFAULT_RETRY: Readonly<Required<Pick<RetryOptions, 'steps' | 'backoff'>>> = {
  steps: 5,
  backoff: { durationMs: 10, factor: 1, jitter: 0.1 },
};

/** client-go `retry.DefaultBackoff`: 4 attempts, 10 ms growing ×5 (+10 % jitter), for contended writes. */
export const DEFAULT_BACKOFF: Readonly<Required<Pick<RetryOptions, 'steps' | 'backoff'>>> = {
  steps: 4,
  backoff: { durationMs: 10, factor: 5, jitter: 0.1 },
};

/** The waits between attempts for a backoff, without jitter: `[d, d·f, d·f², …]` capped. */
export function backoffDelays(steps: number, backoff: Backoff): number[] {
  const out: number[] = [];
  let d = backoff.durationMs;
  for (let i = 0; i < steps - 1; i++) {
    out.push(backoff.capMs === undefined ? d : Math.min(d, backoff.capMs));
    d *= backoff.factor ?? 1;
  }
  return out;
}

/** Resolves after `ms`, or at once when `signal` aborts (also used by list-watch.ts). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      resolve();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `fn` until it succeeds, the error is not retriable, or `steps` attempts were made; then rethrows the last
 * error unchanged.
 */
export async function retryOnError<T>(
  fn: () => Promise<T>,
  retriable: (err: unknown) => boolean,
  options: RetryOptions = {},
): Promise<T> {
  const steps = Math.max(1, options.steps ?? DEFAULT_RETRY.steps);
  const backoff = options.backoff ?? DEFAULT_RETRY.backoff;
  const delays = backoffDelays(steps, backoff);
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const delay = delays[attempt];
      if (delay === undefined || !retriable(err) || options.signal?.aborted) throw err;
      await sleep(delay * (1 + Math.random() * (backoff.jitter ?? 0)), options.signal);
      if (options.signal?.aborted) throw err;
    }
  }
}

/**
 * Re-runs `fn` — which must re-read the object and re-apply its change — while it fails with a 409 Conflict
 * (defaults: {@link DEFAULT_RETRY}). Other errors, and the last conflict, are rethrown unchanged.
 */
export function retryOnConflict<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  return retryOnError(fn, (err) => isConflict(toKubeApiError(err)), options);
}
