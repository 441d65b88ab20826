// Waiting in scenario files: for a status to describe the current generation, and "nothing happens" windows.
import { expect } from 'vitest';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Asserts `check` on every sample for `ms` (a "nothing happens" window); returns the last sample's value. */
export async function holds<T>(ms: number, sample: () => Promise<T>, check: (v: T) => void): Promise<T> {
  const end = Date.now() + ms;
  let last = await sample();
  check(last);
  while (Date.now() < end) {
    await sleep(300);
    last = await sample();
    check(last);
  }
  return last;
}

/** An object whose status says which generation it describes. */
export interface Generational {
  metadata?: { generation?: number };
  status?: { observedGeneration?: number };
}

/**
 * Polls `read` until the status describes the object's current generation (`status.observedGeneration ===
 * metadata.generation`); returns the object read then.
 */
export async function waitObserved<T extends Generational>(
  read: () => Promise<T>,
  timeoutMs = 15_000,
): Promise<T> {
  let last = await read();
  await expect
    .poll(
      async () => {
        last = await read();
        return last.status?.observedGeneration === last.metadata?.generation;
      },
      { timeout: timeoutMs },
    )
    .toBe(true);
  return last;
}
