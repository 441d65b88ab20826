/**
 * Slow-start batches of namespaces (`pkg/controller/resourcedistribution/utils.go` syncItSlowly): 1, 2, 4, … run
 * concurrently inside a batch. Unlike the workload slow start (libs/rollout), a failure does not stop later
 * batches: every namespace is tried.
 */
export async function inSlowStartBatches<T>(
  items: readonly string[],
  fn: (item: string) => Promise<T>,
  initialBatch = 1,
): Promise<T[]> {
  const out: T[] = [];
  let at = 0;
  for (let size = Math.min(initialBatch, items.length); size > 0; size = Math.min(2 * size, items.length - at)) {
    const batch = items.slice(at, at + size);
    at += size;
    out.push(...(await Promise.all(batch.map(fn))));
  }
  return out;
}
