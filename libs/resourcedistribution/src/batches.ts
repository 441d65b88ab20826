/**
 * Slow-start batches of namespaces (`pkg/controller/resourcedistribution/utils.go` syncItSlowly): 1, 2, 4, … run
 * concurrently inside a batch. Unlike the workload slow start (libs/rollout), a failure does not stop later
 * batches: every namespace is tried. Unlike upstream, a batch never exceeds `maxBatch` (default
 * {@link COPY_WRITE_CONCURRENCY}): upstream's doubling reaches 512 requests in flight over 1 000 namespaces, which on
 * a loaded API server starves the program's own lease renewals.
 */
import { POD_WRITE_CONCURRENCY } from '@regatta/runtime';

/** How many namespaces a round writes at once at most (the same bound as the workload controllers' pod writes). */
export const COPY_WRITE_CONCURRENCY = POD_WRITE_CONCURRENCY;

export async function inSlowStartBatches<T>(
  items: readonly string[],
  fn: (item: string) => Promise<T>,
  options: { initialBatch?: number; maxBatch?: number } = {},
): Promise<T[]> {
  const max = Math.max(1, options.maxBatch ?? COPY_WRITE_CONCURRENCY);
  const out: T[] = [];
  let at = 0;
  let size = Math.min(options.initialBatch ?? 1, max, items.length);
  while (size > 0) {
    const batch = items.slice(at, at + size);
    at += size;
    out.push(...(await Promise.all(batch.map(fn))));
    size = Math.min(2 * size, max, items.length - at);
  }
  return out;
}
