// Requests with a bound on how many are in flight (R2's creates, tools/chaos/r2.ts and r2-stored.ts): every item is
// handed to `fn` in its order, at most `limit` at a time, and the results come back in the items' order (a seeded
// run reports its objects as sequential sending did). Nothing is left running behind a failure (a request loop
// outliving its check kept a broken chaos run from exiting). Pure but for `fn`.

/**
 * `fn` over `items`, at most `limit` (≥ 1) running at once; results in the order of `items`. After a failure no
 * further item is started, and the first failure is thrown once those already running have settled.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a positive integer, not ${limit}`);
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i] as T, i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  return settled(Array.from({ length: Math.min(limit, items.length) }, worker)).then(() => out);
}

/** Every promise settled, then their values, or the first rejection (in the promises' order). */
export async function settled<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
