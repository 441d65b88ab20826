import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { mapBounded } from './bounded.js';

describe('mapBounded', () => {
  it.each([
    ['sequential', 1, [30, 10, 20, 0], 1],
    ['two at a time', 2, [30, 10, 20, 0, 5], 2],
    ['more room than items', 8, [5, 1, 3], 3],
    ['no items', 4, [], 0],
  ])('%s: results in the items’ order, at most the limit in flight', async (_, limit, delays, maxSeen) => {
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const out = await mapBounded(delays, limit, async (ms, i) => {
      started.push(i);
      inFlight++;
      most = Math.max(most, inFlight);
      await sleep(ms);
      inFlight--;
      return `#${i}:${ms}`;
    });
    expect(out).toEqual(delays.map((ms, i) => `#${i}:${ms}`));
    // handed out in order
    expect(started).toEqual(delays.map((_, i) => i));
    expect(most).toBe(maxSeen);
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapBounded([1, 2, 3], 2, async (x) => {
        if (x === 2) throw new Error('boom 2');
        return x;
      }),
    ).rejects.toThrow('boom 2');
  });

  it.each([0, -1, 1.5])('refuses the limit %s', async (limit) => {
    await expect(mapBounded([1], limit, async (x) => x)).rejects.toThrow(RangeError);
  });
});
