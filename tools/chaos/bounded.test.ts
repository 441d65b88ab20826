import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { mapBounded, settled } from './bounded.js';

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

  it('starts nothing after a failure, and rejects once those running have settled', async () => {
    const started: number[] = [];
    let finished = 0;
    await expect(
      mapBounded([0, 1, 2, 3, 4, 5], 2, async (x) => {
        started.push(x);
        if (x === 1) throw new Error('boom 1');
        await sleep(30);
        finished++;
        return x;
      }),
    ).rejects.toThrow('boom 1');
    // item 0 was in flight when 1 failed: it ran to its end before the rejection; 2 was never started
    expect(started).toEqual([0, 1]);
    expect(finished).toBe(1);
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

describe('settled', () => {
  it('waits for every promise, then gives the values in order or the first rejection', async () => {
    expect(await settled([sleep(20).then(() => 'a'), Promise.resolve('b')])).toEqual(['a', 'b']);
    let late = false;
    await expect(
      settled([
        Promise.reject(new Error('first')),
        sleep(30).then(() => (late = true)),
        Promise.reject(new Error('second')),
      ]),
    ).rejects.toThrow('first');
    expect(late).toBe(true);
  });
});
