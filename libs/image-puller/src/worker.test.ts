import { describe, expect, it } from 'vitest';
import { PullPool } from './pull-pool.js';
import type { ImageRuntime } from './runtime.js';
import { MemoryRuntime } from './testing/memory-runtime.js';
import type { ImageTagSpec, ImageTagStatus } from './types.js';
import { formatElapsed, PullWorker } from './worker.js';

function run(tag: ImageTagSpec, runtime: ImageRuntime, o: { pool?: PullPool; clock?: { t: number } } = {}) {
  const statuses: ImageTagStatus[] = [];
  const events: { ref?: string; type: string; reason: string; message: string }[] = [];
  const sleeps: number[] = [];
  const clock = o.clock ?? { t: 1_000_000 };
  const w = new PullWorker('nginx', tag, undefined, [], {
    runtime,
    ...(o.pool ? { pool: o.pool } : {}),
    update: (s) => statuses.push(s),
    events: (ref, type, reason, message) =>
      events.push({ ...(ref?.name ? { ref: ref.name } : {}), type, reason, message }),
    now: () => clock.t,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.t += ms;
    },
  });
  return { w, statuses, events, sleeps, clock };
}

const owner = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'ImagePullJob',
  namespace: 'ns',
  name: 'job',
  uid: 'u1',
};

describe('PullWorker (imagepuller_worker.go pullWorker)', () => {
  it('Waiting → Pulling → Succeeded with imageID, progress 100 and PullImageSucceed on the NodeImage', async () => {
    const r = run({ tag: '1.20', version: 3 }, new MemoryRuntime());
    await r.w.done;
    expect(r.statuses.map((s) => s.phase)).toEqual(['Waiting', 'Pulling', 'Succeeded']);
    expect(r.statuses[2]).toMatchObject({
      tag: '1.20',
      version: 3,
      progress: 100,
      imageID: 'nginx@sha256:abc',
    });
    expect(r.statuses[2]!.completionTime).toBeDefined();
    expect(r.statuses[1]!.startTime).toBe(r.statuses[2]!.startTime);
    expect(r.events).toEqual([
      { type: 'Normal', reason: 'PullImageSucceed', message: 'Image nginx:1.20, ecalpsedTime 0ms' },
    ]);
  });

  it.each([
    ['IfNotPresent and present: no pull', 'IfNotPresent', 0],
    ['Always and present: pulls', 'Always', 1],
    ['empty policy and present: pulls', undefined, 1],
  ])('%s', async (_n, policy, pulls) => {
    const rt = new MemoryRuntime();
    rt.present.add('nginx:1.20');
    const r = run({ tag: '1.20', ...(policy ? { imagePullPolicy: policy } : {}) }, rt);
    await r.w.done;
    expect(rt.pulls.length).toBe(pulls);
    expect(r.statuses.at(-1)).toMatchObject({ phase: 'Succeeded', progress: 100 });
  });

  it('retries with 1 s, 2 s, 4 s between attempts and succeeds on the fourth', async () => {
    const rt = new MemoryRuntime([new Error('e1'), new Error('e2'), new Error('e3'), 'ok']);
    const r = run({ tag: '1.20' }, rt);
    await r.w.done;
    expect(rt.pulls.length).toBe(4);
    expect(r.sleeps).toEqual([1000, 2000, 4000]);
    expect(r.statuses.at(-1)!.phase).toBe('Succeeded');
  });

  it('backoffLimit 1: two attempts, Failed with the last error; PullImageFailed on each owner and the NodeImage', async () => {
    const rt = new MemoryRuntime([new Error('not found 1'), new Error('not found 2')]);
    const r = run({ tag: 'x', pullPolicy: { backoffLimit: 1 }, ownerReferences: [owner] }, rt);
    await r.w.done;
    expect(rt.pulls.length).toBe(2);
    expect(r.sleeps).toEqual([1000]);
    expect(r.statuses.at(-1)).toMatchObject({ phase: 'Failed', message: 'not found 2' });
    expect(r.events).toEqual([
      { ref: 'job', type: 'Warning', reason: 'PullImageFailed', message: 'Image nginx:x not found 2' },
      { type: 'Warning', reason: 'PullImageFailed', message: 'Image nginx:x not found 2' },
    ]);
  });

  it('activeDeadlineSeconds passed between attempts: Failed "pulling exceeds the activeDeadlineSeconds"', async () => {
    const rt = new MemoryRuntime([new Error('slow'), new Error('slow')]);
    const clock = { t: 0 };
    const r = run({ tag: 'x', pullPolicy: { activeDeadlineSeconds: 1 } }, rt, { clock });
    await r.w.done;
    expect(rt.pulls.length).toBe(1);
    expect(r.statuses.at(-1)).toMatchObject({
      phase: 'Failed',
      message: 'pulling exceeds the activeDeadlineSeconds',
    });
  });

  it('each attempt is bounded by what is left of the deadline', async () => {
    const timeouts: number[] = [];
    const rt = new MemoryRuntime([], async (_ref, req) => void timeouts.push(req.timeoutMs));
    const r = run({ tag: 'x', pullPolicy: { timeoutSeconds: 600, activeDeadlineSeconds: 30 } }, rt);
    await r.w.done;
    expect(timeouts).toEqual([30_000]);
  });

  it('a stopped worker aborts its pull and reports nothing more', async () => {
    let signal: AbortSignal | undefined;
    const rt = new MemoryRuntime([], (_ref, req) => {
      signal = req.signal;
      return new Promise((_res, rej) =>
        req.signal.addEventListener('abort', () => rej(new Error('aborted'))),
      );
    });
    const r = run({ tag: 'x' }, rt);
    await expect.poll(() => signal).toBeDefined();
    r.w.stop();
    await r.w.done;
    expect(signal!.aborted).toBe(true);
    expect(r.statuses.map((s) => s.phase)).toEqual(['Waiting', 'Pulling']);
    expect(r.events).toEqual([]);
  });

  it('a bounded pool runs one pull at a time; the others wait in Waiting', async () => {
    const gates: (() => void)[] = [];
    const rt = new MemoryRuntime([], () => new Promise<void>((res) => gates.push(res)));
    const pool = new PullPool(1);
    const rs = ['a', 'b', 'c'].map((tag) => run({ tag }, rt, { pool }));
    await expect.poll(() => gates.length).toBe(1);
    expect(rs.map((r) => r.statuses.at(-1)!.phase)).toEqual(['Pulling', 'Waiting', 'Waiting']);
    for (let i = 0; i < 3; i++) {
      await expect.poll(() => gates.length).toBe(i + 1);
      gates[i]!();
    }
    await Promise.all(rs.map((r) => r.w.done));
    expect(rt.maxRunning).toBe(1);
    expect(rs.map((r) => r.statuses.at(-1)!.phase)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
  });
});

describe('formatElapsed (Go duration text)', () => {
  it.each([
    [12, '12ms'],
    [1500, '1.5s'],
    [123_250, '2m3.25s'],
    [3_723_000, '1h2m3s'],
  ])('%i → %s', (ms, s) => expect(formatElapsed(ms)).toBe(s));
});
