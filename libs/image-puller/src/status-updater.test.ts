import { describe, expect, it } from 'vitest';
import { StatusUpdater } from './status-updater.js';
import type { NodeImageStatus } from './types.js';

const st = (succeeded: number, pulling = 0): NodeImageStatus => ({
  desired: 10,
  succeeded,
  pulling,
  failed: 0,
  waiting: 0,
});

type Step =
  | { at: number; offer: NodeImageStatus; want: 'write' | 'unchanged' | 'limited'; pending?: NodeImageStatus }
  | { at: number; flush: NodeImageStatus | 'pending'; want: boolean };

/** Runs `steps` against a fresh updater on a fake clock; returns the statuses written, in order. */
async function run(steps: Step[], o: { burst?: number; failAt?: number[] } = {}): Promise<NodeImageStatus[]> {
  let now = 0;
  const written: NodeImageStatus[] = [];
  const u = new StatusUpdater({
    clock: { now: () => now, random: () => 0.5 },
    ...(o.burst !== undefined ? { burst: o.burst } : {}),
    write: (s) => {
      if (o.failAt?.includes(now)) return Promise.reject(new Error('conflict'));
      written.push(s);
      return Promise.resolve();
    },
  });
  for (const [i, step] of steps.entries()) {
    now = step.at;
    if ('offer' in step) {
      const got = await u.offer(step.offer).catch(() => 'threw');
      expect(got, `step ${i} (t=${step.at})`).toBe(step.want);
      expect(u.pending, `pending after step ${i}`).toEqual(step.pending);
    } else {
      const got = await u.flush(step.flush === 'pending' ? undefined : step.flush);
      expect(got, `step ${i} (t=${step.at})`).toBe(step.want);
      expect(u.pending).toBeUndefined();
    }
  }
  return written;
}

describe('StatusUpdater (0.5 writes/s, burst 5, per node)', () => {
  it.each<[string, Step[], NodeImageStatus[], { burst?: number; failAt?: number[] }?]>([
    [
      'a changed status is written at once while the burst lasts',
      [
        { at: 0, offer: st(0, 1), want: 'write' },
        { at: 10, offer: st(1), want: 'write' },
      ],
      [st(0, 1), st(1)],
    ],
    [
      'the same status again is not written',
      [
        { at: 0, offer: st(1), want: 'write' },
        {
          at: 3000,
          offer: { failed: 0, waiting: 0, pulling: 0, succeeded: 1, desired: 10 },
          want: 'unchanged',
        },
      ],
      [st(1)],
    ],
    [
      'the same status is re-written after 12 h + jitter',
      [
        { at: 0, offer: st(1), want: 'write' },
        { at: 12.4 * 3600_000, offer: st(1), want: 'unchanged' },
        { at: 12.6 * 3600_000, offer: st(1), want: 'write' },
      ],
      [st(1), st(1)],
    ],
    [
      'burst spent: limited, held as pending, the latest offer replaces it and is written when a token is back',
      [
        ...[0, 1, 2, 3, 4].map((n) => ({ at: n, offer: st(n), want: 'write' as const })),
        { at: 100, offer: st(5), want: 'limited', pending: st(5) },
        { at: 1000, offer: st(6), want: 'limited', pending: st(6) },
        { at: 2000, offer: st(7), want: 'write' },
        { at: 2500, offer: st(8), want: 'limited', pending: st(8) },
        { at: 4100, offer: st(8), want: 'write' },
      ],
      [st(0), st(1), st(2), st(3), st(4), st(7), st(8)],
    ],
    [
      'a limited status that is then the last written one again is dropped (nothing to write)',
      [
        { at: 0, offer: st(1), want: 'write' },
        { at: 1, offer: st(2), want: 'limited', pending: st(2) },
        { at: 2, offer: st(1), want: 'unchanged' },
      ],
      [st(1)],
      { burst: 1 },
    ],
    [
      'a failed write stays pending and is tried again on the next offer',
      [
        { at: 0, offer: st(1), want: 'threw' as 'write', pending: st(1) },
        { at: 3000, offer: st(1), want: 'write' },
      ],
      [st(1)],
      { failAt: [0] },
    ],
    [
      'flush on stop writes the pending status past the bucket',
      [
        { at: 0, offer: st(1), want: 'write' },
        { at: 1, offer: st(2), want: 'limited', pending: st(2) },
        { at: 2, flush: 'pending', want: true },
      ],
      [st(1), st(2)],
      { burst: 1 },
    ],
    [
      'flush of the newest status (a report after the last sync) writes it',
      [
        { at: 0, offer: st(1, 1), want: 'write' },
        { at: 1, flush: st(2), want: true },
      ],
      [st(1, 1), st(2)],
      { burst: 1 },
    ],
    [
      'flush writes nothing when the last write holds the status',
      [
        { at: 0, offer: st(1), want: 'write' },
        { at: 1, flush: st(1), want: false },
        { at: 2, flush: 'pending', want: false },
      ],
      [st(1)],
    ],
  ])('%s', async (_name, steps, written, o) => {
    expect(await run(steps, o)).toEqual(written);
  });

  it('a node reporting every 250 ms for 20 s: 5 writes, then one per 2 s, and the flush on stop writes the latest', async () => {
    let now = 0;
    const written: NodeImageStatus[] = [];
    const u = new StatusUpdater({
      clock: { now: () => now, random: () => 0 },
      write: (s) => (written.push(s), Promise.resolve()),
    });
    for (let i = 0; i < 80; i++) {
      now = i * 250;
      await u.offer(st(i));
    }
    expect(written.map((s) => s.succeeded)).toEqual([0, 1, 2, 3, 4, 8, 16, 24, 32, 40, 48, 56, 64, 72]);
    expect(u.pending).toEqual(st(79));
    expect(await u.flush()).toBe(true);
    expect(written.at(-1)).toEqual(st(79));
  });
});
