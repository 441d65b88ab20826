import { describe, expect, it } from 'vitest';
import { forEachLimited } from './limited.js';

describe('forEachLimited', () => {
  it('runs every item with at most `limit` in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5 * (n % 3)));
      seen.push(n);
      inFlight--;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('finishes the others after a failure, then rethrows the first error', async () => {
    const done: number[] = [];
    await expect(
      forEachLimited([1, 2, 3, 4], 2, async (n) => {
        if (n === 2) throw new Error('two');
        if (n === 3) throw new Error('three');
        done.push(n);
      }),
    ).rejects.toThrow('two');
    expect(done).toEqual([1, 4]);
  });

  it('does nothing for no items', async () => {
    await forEachLimited([], 4, () => Promise.reject(new Error('never')));
  });
});
