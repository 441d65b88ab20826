/** How many pod writes a reconcile keeps in flight at most (CloneSet, Advanced StatefulSet, Advanced DaemonSet). */
export const POD_WRITE_CONCURRENCY = 16;

/**
 * Runs `fn` for every item with at most `limit` calls in flight, and waits for all of them. A failure does not stop
 * the others (a reconcile's writes are independent); the first error is rethrown once every call has settled.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let first: { err: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (err) {
        first ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (first) throw first.err;
}
