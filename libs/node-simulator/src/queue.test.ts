import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './queue.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('KeyedQueue', () => {
  it('never runs a key twice at once and re-runs a key added while running', async () => {
    const runs: string[] = [];
    let active = 0;
    let maxActive = 0;
    let release: () => void = () => undefined;
    const q = new KeyedQueue(
      async (k) => {
        active++;
        maxActive = Math.max(maxActive, active);
        runs.push(k);
        if (k === 'a' && runs.length === 1) await new Promise<void>((r) => (release = r));
        active--;
      },
      4,
      () => undefined,
    );
    q.add('a');
    q.add('a');
    q.add('b');
    await tick();
    expect(runs).toEqual(['a', 'b']);
    release();
    await q.idle(1000);
    expect(runs).toEqual(['a', 'b', 'a']);
    expect(maxActive).toBe(2);
  });

  it('retries failures with back-off and reports them', async () => {
    const errors: number[] = [];
    let n = 0;
    const q = new KeyedQueue(
      async () => {
        if (++n < 3) throw new Error('boom');
      },
      1,
      (_k, _e, attempt) => errors.push(attempt),
    );
    q.add('x');
    await new Promise((r) => setTimeout(r, 600));
    expect(n).toBe(3);
    expect(errors).toEqual([1, 2]);
    await q.stop();
  });
});
