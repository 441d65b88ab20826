import { describe, expect, it } from 'vitest';
import { inSlowStartBatches } from './slow-start.js';

describe('inSlowStartBatches', () => {
  it('writes 1, 2, 4, … at a time and stops after the first batch with a failure', async () => {
    const started: number[][] = [];
    let inFlight: number[] = [];
    const items = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const out = await inSlowStartBatches(items, async (n) => {
      inFlight.push(n);
      await Promise.resolve();
      if (inFlight.length > 0) {
        started.push(inFlight);
        inFlight = [];
      }
      if (n === 5) throw new Error('five');
    });
    expect(started).toEqual([[1], [2, 3], [4, 5, 6, 7]]);
    expect(out.done).toEqual([1, 2, 3, 4, 6, 7]);
    expect(out.failed.map((f) => [f.item, (f.error as Error).message])).toEqual([[5, 'five']]);
  });

  it('runs everything when nothing fails, nothing for no items', async () => {
    expect((await inSlowStartBatches([1, 2, 3, 4], async () => undefined)).done).toEqual([1, 2, 3, 4]);
    expect(await inSlowStartBatches([], async () => undefined)).toEqual({ done: [], failed: [] });
  });
});
