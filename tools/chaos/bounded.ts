// Requests with a bound on how many are in flight (R2's creates, tools/chaos/r2.ts and r2-stored.ts): every item is
// handed to `fn` in its order, at most `limit` at a time, and the results come back in the items' order (a seeded
// run reports its objects as sequential sending did). Pure but for `fn`.

/** `fn` over `items`, at most `limit` (≥ 1) running at once; results in the order of `items`. The first failure rejects. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a positive integer, not ${limit}`);
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
