import { describe, expect, it } from 'vitest';
import { KeyedPipeline, PUT_WINDOW } from './keyed-pipeline.js';

/** A task whose end the test decides. */
interface Pending {
  key: string;
  seq: number;
  finish: (fail?: boolean) => void;
}

/** Lets every queued promise callback run. */
const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => setImmediate(r));
};

/** Deterministic pseudo-random numbers (mulberry32), so a failing seed can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A harness recording starts per key, what runs at once, and letting the test end tasks in any order. */
function harness(window: number) {
  const p = new KeyedPipeline(window);
  const running: Pending[] = [];
  const started = new Map<string, number[]>();
  const runningPerKey = new Map<string, number>();
  let maxPerKey = 0;
  let maxOutstanding = 0;
  const task = (key: string, seq: number) => () =>
    new Promise<void>((resolve, reject) => {
      started.set(key, [...(started.get(key) ?? []), seq]);
      const n = (runningPerKey.get(key) ?? 0) + 1;
      runningPerKey.set(key, n);
      maxPerKey = Math.max(maxPerKey, n);
      maxOutstanding = Math.max(maxOutstanding, p.size);
      running.push({
        key,
        seq,
        finish: (fail) => {
          runningPerKey.set(key, runningPerKey.get(key)! - 1);
          if (fail) reject(new Error(`task ${key}#${seq} failed`));
          else resolve();
        },
      });
    });
  return {
    p,
    running,
    started,
    task,
    get maxPerKey() {
      return maxPerKey;
    },
    get maxOutstanding() {
      return maxOutstanding;
    },
  };
}

describe('KeyedPipeline', () => {
  it('rejects a window that is not a positive integer', () => {
    for (const w of [0, -1, 1.5, Number.NaN]) expect(() => new KeyedPipeline(w)).toThrow(RangeError);
    expect(new KeyedPipeline().window).toBe(PUT_WINDOW);
  });

  it.each([
    { name: 'one key: one at a time, in order', keys: ['a', 'a', 'a', 'a'], window: 8, firstWave: ['a#0'] },
    { name: 'distinct keys: all at once', keys: ['a', 'b', 'c', 'd'], window: 8, firstWave: ['a#0', 'b#1', 'c#2', 'd#3'] },
    { name: 'mixed: each key its first task', keys: ['a', 'b', 'a', 'c', 'b'], window: 8, firstWave: ['a#0', 'b#1', 'c#3'] },
    { name: 'window of 2 bounds distinct keys', keys: ['a', 'b', 'c', 'd'], window: 2, firstWave: ['a#0', 'b#1'] },
    { name: 'a queued same-key task holds a slot', keys: ['a', 'a', 'b'], window: 2, firstWave: ['a#0'] },
  ])('$name', async ({ keys, window, firstWave }) => {
    const h = harness(window);
    const submits = keys.map((k, i) => h.p.submit(k, h.task(k, i)));
    await flush();
    expect(h.running.map((r) => `${r.key}#${r.seq}`)).toEqual(firstWave);
    expect(h.p.size).toBeLessThanOrEqual(window);
    // end tasks one by one until everything ran
    while (h.running.length > 0) {
      h.running.shift()!.finish();
      await flush();
    }
    await Promise.all(submits);
    await h.p.idle();
    for (const [k, seqs] of h.started) expect(seqs).toEqual(keys.flatMap((x, i) => (x === k ? [i] : [])));
    expect(h.p.size).toBe(0);
  });

  it('a failed task does not stop the next one of its key, and its error reaches whoever awaits it', async () => {
    const h = harness(4);
    const a0 = await h.p.submit('a', h.task('a', 0));
    const a1 = await h.p.submit('a', h.task('a', 1));
    await flush();
    h.running.shift()!.finish(true);
    await expect(a0.done).rejects.toThrow('task a#0 failed');
    await flush();
    expect(h.running.map((r) => r.seq)).toEqual([1]);
    h.running.shift()!.finish();
    await expect(a1.done).resolves.toBeUndefined();
    await h.p.idle();
  });

  it('admission waits when the window is full (backpressure) and is first come, first served', async () => {
    const h = harness(2);
    const admitted: string[] = [];
    const submit = (k: string, i: number) => void h.p.submit(k, h.task(k, i)).then(() => admitted.push(`${k}#${i}`));
    ['a', 'b', 'c', 'a', 'd'].forEach(submit);
    await flush();
    expect(admitted).toEqual(['a#0', 'b#1']);
    expect(h.p.blocked).toBe(3);
    h.running.find((r) => r.key === 'b')!.finish();
    await flush();
    expect(admitted).toEqual(['a#0', 'b#1', 'c#2']);
    h.running.find((r) => r.key === 'a')!.finish();
    await flush();
    expect(admitted).toEqual(['a#0', 'b#1', 'c#2', 'a#3']);
    while (h.running.length > 0) {
      h.running.shift()!.finish();
      await flush();
    }
    await h.p.idle();
    expect(admitted).toEqual(['a#0', 'b#1', 'c#2', 'a#3', 'd#4']);
  });

  it('idle() waits for queued and running tasks', async () => {
    const h = harness(4);
    await h.p.submit('a', h.task('a', 0));
    await h.p.submit('a', h.task('a', 1));
    let idle = false;
    void h.p.idle().then(() => (idle = true));
    await flush();
    h.running.shift()!.finish();
    await flush();
    expect(idle).toBe(false);
    h.running.shift()!.finish();
    await flush();
    expect(idle).toBe(true);
  });

  // property: whatever the keys, window and order in which tasks end (some failing), every task runs exactly once,
  // a key's tasks start in submission order one at a time, and no more than `window` are ever outstanding
  it.each(Array.from({ length: 40 }, (_, seed) => ({ seed })))('random schedule, seed $seed', async ({ seed }) => {
    const rand = rng(seed + 1);
    const window = 1 + Math.floor(rand() * 8);
    const keyCount = 1 + Math.floor(rand() * 6);
    const n = 20 + Math.floor(rand() * 60);
    const keys = Array.from({ length: n }, () => `k${Math.floor(rand() * keyCount)}`);
    const h = harness(window);
    let next = 0;
    const dones: Promise<void>[] = [];
    const submitting = (async () => {
      for (; next < n; next++) {
        const i = next;
        const a = await h.p.submit(keys[i]!, h.task(keys[i]!, i));
        dones.push(a.done.catch(() => undefined));
      }
    })();
    for (let guard = 0; guard < 10 * n && (next < n || h.running.length > 0 || h.p.size > 0); guard++) {
      await flush();
      expect(h.p.inFlight).toBeLessThanOrEqual(window);
      if (h.running.length === 0) continue;
      const [r] = h.running.splice(Math.floor(rand() * h.running.length), 1);
      r!.finish(rand() < 0.2);
    }
    await submitting;
    await Promise.all(dones);
    await h.p.idle();
    expect(h.maxPerKey).toBe(1);
    expect(h.maxOutstanding).toBeLessThanOrEqual(window);
    expect(h.p.peakInFlight).toBeLessThanOrEqual(window);
    expect([...h.started.values()].flat().sort((a, b) => a - b)).toEqual(keys.map((_, i) => i));
    for (const [k, seqs] of h.started) expect(seqs).toEqual(keys.flatMap((x, i) => (x === k ? [i] : [])));
  });
});
