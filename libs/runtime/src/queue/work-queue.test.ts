import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ItemExponentialFailureRateLimiter } from './rate-limiter.js';
import { WorkQueue, type QueueItem } from './work-queue.js';

function key(item: QueueItem): string {
  if (item.shutdown) throw new Error('queue shut down unexpectedly');
  return item.key;
}

/** Resolves on the next macrotask, after pending promise callbacks have run. */
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('WorkQueue: de-duplication and the processing set', () => {
  it('queues a key once however often it is added, in FIFO order', async () => {
    const q = new WorkQueue({ name: 't' });
    for (const k of ['a', 'b', 'a', 'c', 'b']) q.add(k);
    expect(q.len()).toBe(3);
    expect([key(await q.get()), key(await q.get()), key(await q.get())]).toEqual(['a', 'b', 'c']);
    expect(q.len()).toBe(0);
  });

  it('never hands a key to two workers: re-added while processing, it comes back only after done', async () => {
    const q = new WorkQueue({ name: 't' });
    q.add('a');
    expect(key(await q.get())).toBe('a');
    q.add('a');
    q.add('a');
    expect(q.len()).toBe(0); // held back while 'a' is processed
    let second: string | undefined;
    void q.get().then((i) => (second = key(i)));
    await tick();
    expect(second).toBeUndefined();
    q.done('a');
    await tick();
    expect(second).toBe('a');
    q.done('a');
    expect(q.len()).toBe(0);
  });

  it('hands a key out once to many concurrent getters', async () => {
    const q = new WorkQueue({ name: 't' });
    const got: string[] = [];
    const getters = Array.from({ length: 3 }, () => q.get().then((i) => !i.shutdown && got.push(i.key)));
    q.add('x');
    q.add('x');
    q.add('y');
    await tick();
    expect(got.sort()).toEqual(['x', 'y']);
    q.shutDown();
    await Promise.all(getters);
  });

  it('ignores done for keys it did not hand out', () => {
    const q = new WorkQueue({ name: 't' });
    q.add('a');
    q.done('a');
    expect(q.len()).toBe(1);
  });
});

describe('WorkQueue: shutdown', () => {
  it('wakes waiting getters with shutdown, ignores later adds and drops what was queued', async () => {
    const q = new WorkQueue({ name: 't' });
    const waiting = q.get();
    q.shutDown();
    expect(await waiting).toEqual({ shutdown: true });
    q.add('late');
    expect(q.len()).toBe(0);
    expect(await q.get()).toEqual({ shutdown: true });

    const q2 = new WorkQueue({ name: 't2' });
    q2.add('queued');
    q2.shutDown();
    expect(q2.len()).toBe(0);
    expect(await q2.get()).toEqual({ shutdown: true });
  });

  it('shutDownWithDrain waits until every handed-out key is done', async () => {
    const q = new WorkQueue({ name: 't' });
    q.add('a');
    q.add('b');
    const a = key(await q.get());
    const b = key(await q.get());
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    q.done(a);
    await tick();
    expect(drained).toBe(false);
    q.add(b); // ignored: shutting down
    q.done(b);
    await drain;
    expect(drained).toBe(true);
    expect(q.shuttingDown).toBe(true);
  });

  it('shutDownWithDrain resolves at once when nothing is in flight', async () => {
    const q = new WorkQueue({ name: 't' });
    await expect(q.shutDownWithDrain()).resolves.toBeUndefined();
  });
});

// These tests are about time: they use vitest's fake timers (which also drive Date.now).
describe('WorkQueue: delayed and rate-limited adds (fake timers)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('adds a key when its delay passes; a key waiting twice keeps the earlier time', async () => {
    vi.useFakeTimers();
    const q = new WorkQueue({ name: 't' });
    q.addAfter('a', 1000);
    q.addAfter('a', 300);
    q.addAfter('a', 5000);
    q.addAfter('b', 500);
    q.addAfter('now', 0);
    expect(q.len()).toBe(1);
    expect(key(await q.get())).toBe('now');
    await vi.advanceTimersByTimeAsync(299);
    expect(q.len()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.len()).toBe(1);
    expect(key(await q.get())).toBe('a');
    await vi.advanceTimersByTimeAsync(200);
    expect(key(await q.get())).toBe('b');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(q.len()).toBe(0); // 'a' was not added a second time
  });

  it('re-arms for an earlier key added after a later one', async () => {
    vi.useFakeTimers();
    const q = new WorkQueue({ name: 't' });
    q.addAfter('late', 10_000);
    q.addAfter('early', 100);
    await vi.advanceTimersByTimeAsync(100);
    expect(key(await q.get())).toBe('early');
    await vi.advanceTimersByTimeAsync(9_900);
    expect(key(await q.get())).toBe('late');
  });

  it('waits longer than one Node timer can (2^31−1 ms, ~24.8 days) with capped timers', async () => {
    vi.useFakeTimers();
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const q = new WorkQueue({ name: 't' });
    const far = 2_147_483_647_000; // minReadySeconds = MaxInt32, in ms
    q.addAfter('far', far);
    await vi.advanceTimersByTimeAsync(3 * 2 ** 31);
    expect(q.len()).toBe(0);
    expect(Math.max(...spy.mock.calls.map((c) => Number(c[1] ?? 0)))).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(spy.mock.calls.length).toBeLessThan(10);
    spy.mockRestore();
  });

  it('backs off exponentially with addRateLimited until forget', async () => {
    vi.useFakeTimers();
    const q = new WorkQueue({ name: 't', rateLimiter: new ItemExponentialFailureRateLimiter(100, 10_000) });
    const readyAfter = async (): Promise<number> => {
      const start = Date.now();
      q.addRateLimited('k');
      while (q.len() === 0) await vi.advanceTimersByTimeAsync(1);
      q.done(key(await q.get()));
      return Date.now() - start;
    };
    expect([await readyAfter(), await readyAfter(), await readyAfter()]).toEqual([100, 200, 400]);
    expect(q.numRequeues('k')).toBe(3);
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
    expect(await readyAfter()).toBe(100);
  });

  it('drops delayed keys on shutdown', async () => {
    vi.useFakeTimers();
    const q = new WorkQueue({ name: 't' });
    q.addAfter('a', 100);
    q.shutDown();
    await vi.advanceTimersByTimeAsync(1000);
    expect(q.len()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports client-go workqueue metrics', async () => {
    vi.useFakeTimers();
    const registry = new Registry();
    const q = new WorkQueue({ name: 'cloneset', registry });
    new WorkQueue({ name: 'other', registry }); // a second queue shares the collectors
    q.add('a');
    q.add('a');
    q.add('b');
    const value = async (
      metric: string,
      labels: Record<string, string> = { name: 'cloneset' },
    ): Promise<number> => {
      const sum = metric.endsWith('_sum');
      const json = await registry.getSingleMetric(sum ? metric.slice(0, -4) : metric)?.get();
      const match = json?.values.find(
        (v) =>
          (!sum || (v as { metricName?: string }).metricName === metric) &&
          Object.entries(labels).every(([k, l]) => v.labels[k] === l),
      );
      return match?.value ?? NaN;
    };
    expect(await value('workqueue_adds_total')).toBe(2);
    expect(await value('workqueue_depth')).toBe(2);
    expect(await value('workqueue_depth', { name: 'other' })).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    const a = key(await q.get());
    expect(await value('workqueue_queue_duration_seconds_sum')).toBeCloseTo(2);
    await vi.advanceTimersByTimeAsync(3000);
    expect(await value('workqueue_unfinished_work_seconds')).toBeCloseTo(3);
    expect(await value('workqueue_longest_running_processor_seconds')).toBeCloseTo(3);
    q.done(a);
    expect(await value('workqueue_work_duration_seconds_sum')).toBeCloseTo(3);
    expect(await value('workqueue_unfinished_work_seconds')).toBe(0);
    q.addAfter('c', 10);
    q.addRateLimited('d');
    expect(await value('workqueue_retries_total')).toBe(2);
    const text = await registry.metrics();
    expect(text).toContain('workqueue_depth{name="cloneset",controller="cloneset"} 1');
  });
});

describe('WorkQueue: low priority (the objects of the initial list)', () => {
  it('hands out low keys only when no other key waits, each in FIFO order', async () => {
    const q = new WorkQueue({ name: 't' });
    q.add('old-1', { priority: 'low' });
    q.add('old-2', { priority: 'low' });
    q.add('new-1');
    q.add('old-1'); // moved up: now served in its normal turn
    q.add('new-2');
    q.add('new-1', { priority: 'low' }); // already queued higher: stays where it is
    expect(q.len()).toBe(4);
    const order: string[] = [];
    for (let i = 0; i < 4; i++) order.push(key(await q.get()));
    expect(order).toEqual(['new-1', 'old-1', 'new-2', 'old-2']);
    expect(q.len()).toBe(0);
  });

  it('reports how much of its depth waits at low priority', async () => {
    const registry = new Registry();
    const q = new WorkQueue({ name: 'jobs', registry });
    const text = async () => registry.metrics();
    q.add('old-1', { priority: 'low' });
    q.add('old-2', { priority: 'low' });
    q.add('old-3', { priority: 'low' });
    q.add('new-1');
    q.add('old-1'); // moved up
    expect(await text()).toContain('workqueue_depth{name="jobs",controller="jobs"} 4');
    expect(await text()).toContain('regatta_workqueue_low_priority_depth{name="jobs",controller="jobs"} 2');
    for (let i = 0; i < 3; i++) q.done(key(await q.get()));
    expect(await text()).toContain('regatta_workqueue_low_priority_depth{name="jobs",controller="jobs"} 1');
  });

  it('a low key added while processed comes back low after done; moved up meanwhile, it comes back first', async () => {
    const q = new WorkQueue({ name: 't' });
    q.add('a');
    expect(key(await q.get())).toBe('a');
    q.add('a', { priority: 'low' });
    q.add('b');
    q.done('a');
    expect(key(await q.get())).toBe('b');
    expect(key(await q.get())).toBe('a');
    q.add('a', { priority: 'low' });
    q.add('c', { priority: 'low' });
    q.done('a');
    q.add('a');
    expect(key(await q.get())).toBe('a');
    expect(key(await q.get())).toBe('c');
    q.done('a');
    q.done('b');
    q.done('c');
    expect(q.len()).toBe(0);
  });

  it('never hands a key out twice through a stale low entry', async () => {
    const q = new WorkQueue({ name: 't' });
    q.add('a', { priority: 'low' });
    q.add('a'); // moved up; its low entry is stale
    expect(key(await q.get())).toBe('a');
    q.done('a');
    q.add('z', { priority: 'low' });
    let next: QueueItem | undefined;
    expect(key(await q.get())).toBe('z');
    void q.get().then((i) => (next = i));
    await tick();
    expect(next).toBeUndefined();
    q.shutDown();
    await tick();
    expect(next).toEqual({ shutdown: true });
  });
});

describe('WorkQueue: high priority (an object being deleted)', () => {
  it('hands out high keys before every normal and low one, each level in FIFO order', async () => {
    const q = new WorkQueue({ name: 't' });
    q.add('old', { priority: 'low' });
    q.add('n-1');
    q.add('d-1', { priority: 'high' });
    q.add('n-2');
    q.add('n-1', { priority: 'high' }); // moved up: after d-1, before n-2
    q.add('d-2', { priority: 'high' });
    q.add('d-1'); // already queued higher: stays where it is
    expect(q.len()).toBe(5);
    const order: string[] = [];
    for (let i = 0; i < 5; i++) order.push(key(await q.get()));
    expect(order).toEqual(['d-1', 'n-1', 'd-2', 'n-2', 'old']);
  });

  it('a key moved up while processed comes back high after done; its stale entries hand it out once', async () => {
    const q = new WorkQueue({ name: 't' });
    q.add('a');
    q.add('b');
    q.add('a', { priority: 'high' }); // its normal entry goes stale
    expect(key(await q.get())).toBe('a');
    q.add('a'); // added again while processed
    q.add('a', { priority: 'high' });
    q.add('c', { priority: 'high' });
    q.done('a');
    expect([key(await q.get()), key(await q.get()), key(await q.get())]).toEqual(['c', 'a', 'b']);
    for (const k of ['a', 'b', 'c']) q.done(k);
    let next: QueueItem | undefined;
    void q.get().then((i) => (next = i));
    await tick();
    expect(next).toBeUndefined();
    expect(q.len()).toBe(0);
    q.shutDown();
  });
});
