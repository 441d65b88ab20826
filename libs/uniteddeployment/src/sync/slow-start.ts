/**
 * Subset writes in slow-start batches (OpenKruise `pkg/util/tools.go` `SlowStartBatch`, used by
 * `uniteddeployment_update.go` for creating and updating subsets with an initial batch of 1): 1, 2, 4, … writes at a
 * time, each batch at once, stopping after the first batch with a failure.
 */
import { slowStartBatches } from '@regatta/rollout';

/** `slowStartInitialBatchSize` of `uniteddeployment_controller.go`. */
export const SUBSET_SLOW_START_INITIAL_BATCH = 1;

export interface SlowStartOutcome<T> {
  /** The items whose write succeeded, in order. */
  done: T[];
  /** The failures of the last batch run, with their item. */
  failed: { item: T; error: unknown }[];
}

export async function inSlowStartBatches<T>(items: readonly T[], write: (item: T) => Promise<void>): Promise<SlowStartOutcome<T>> {
  const out: SlowStartOutcome<T> = { done: [], failed: [] };
  let index = 0;
  for (const size of slowStartBatches(items.length, SUBSET_SLOW_START_INITIAL_BATCH)) {
    const batch = items.slice(index, index + size);
    index += size;
    const results = await Promise.allSettled(batch.map((item) => write(item)));
    results.forEach((r, i) => {
      const item = batch[i] as T;
      if (r.status === 'fulfilled') out.done.push(item);
      else out.failed.push({ item, error: r.reason });
    });
    if (out.failed.length > 0) break;
  }
  return out;
}
