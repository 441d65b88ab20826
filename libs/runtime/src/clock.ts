/** Milliseconds since the epoch; injected so time-based logic can be tested without waiting. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/**
 * Resolves after `ms`, or early (without rejecting) when `signal` aborts; returns whether the
 * full time elapsed.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
