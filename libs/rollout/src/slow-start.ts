/** `DoItSlowly` batches: creations go out 1, 2, 4, … at a time, stopping after the first batch with a failure. */

/** The batch sizes for `count` calls starting at `initialBatchSize` (1 for CloneSet pod creation). */
export function slowStartBatches(count: number, initialBatchSize = 1): number[] {
  const out: number[] = [];
  let remaining = Math.max(0, count);
  for (let size = Math.min(remaining, initialBatchSize); size > 0; size = Math.min(2 * size, remaining)) {
    out.push(size);
    remaining -= size;
  }
  return out;
}
