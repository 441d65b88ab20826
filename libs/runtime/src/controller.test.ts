import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Controller } from './controller.js';
import { AlreadyStartedError, InvalidOptionsError } from './errors.js';
import type { Logger } from './logger.js';
import { ItemExponentialFailureRateLimiter } from './queue/rate-limiter.js';
import { TerminalError, type ReconcileContext, type Request, type Result } from './reconcile.js';

interface Line {
  level: string;
  bindings: Record<string, unknown>;
  fields: Record<string, unknown>;
  msg: string;
}

/** A logger that keeps its lines (our Logger interface, implemented for inspection). */
function recordingLogger(
  lines: Line[] = [],
  bindings: Record<string, unknown> = {},
): Logger & { lines: Line[] } {
  const at =
    (level: string) =>
    (a: object | string, b?: string): void => {
      lines.push(
        typeof a === 'string'
          ? { level, bindings, fields: {}, msg: a }
          : { level, bindings, fields: a as Record<string, unknown>, msg: b ?? '' },
      );
    };
  return {
    lines,
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    child: (more) => recordingLogger(lines, { ...bindings, ...more }),
  };
}

type Behaviour = (req: Request, ctx: ReconcileContext, call: number) => Promise<Result> | Result;

/** A reconciler that records its calls and follows a script. */
function scripted(behaviour: Behaviour) {
  const calls: { req: Request; ctx: ReconcileContext }[] = [];
  return {
    calls,
    reconcile: async (req: Request, ctx: ReconcileContext): Promise<Result> => {
      calls.push({ req, ctx });
      return behaviour(req, ctx, calls.length);
    },
  };
}

async function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function metric(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const json = await registry.getSingleMetric(name)?.get();
  const v = json?.values.find((x) => Object.entries(labels).every(([k, l]) => x.labels[k] === l));
  return v?.value ?? NaN;
}

function run(controller: Controller): { stop: () => Promise<void> } {
  const ac = new AbortController();
  const done = controller.start(ac.signal);
  return {
    stop: async () => {
      ac.abort();
      await done;
    },
  };
}

describe('Controller: the four exits of a reconcile', () => {
  it('success: forgets the key and counts success', async () => {
    const registry = new Registry();
    const r = scripted(() => ({}));
    const c = new Controller({ name: 'cs', reconciler: r, registry });
    const h = run(c);
    c.enqueue({ namespace: 'ns', name: 'web' });
    await waitFor(() => r.calls.length === 1);
    await h.stop();
    expect(r.calls[0]?.req).toEqual({ namespace: 'ns', name: 'web' });
    expect(
      await metric(registry, 'controller_runtime_reconcile_total', { controller: 'cs', result: 'success' }),
    ).toBe(1);
    expect(
      await metric(registry, 'controller_runtime_reconcile_total', { controller: 'cs', result: 'error' }),
    ).toBe(0);
    expect(c.queue.numRequeues('ns/web')).toBe(0);
    const time = await registry.getSingleMetric('controller_runtime_reconcile_time_seconds')?.get();
    expect(
      time?.values.find(
        (v) =>
          (v as { metricName?: string }).metricName === 'controller_runtime_reconcile_time_seconds_count',
      )?.value,
    ).toBe(1);
  });

  it('error: retries with growing back-off until success, which forgets the history', async () => {
    const registry = new Registry();
    const log = recordingLogger();
    const r = scripted((_req, _ctx, call) => {
      if (call <= 3) throw new Error(`conflict #${call}`);
      return {};
    });
    const c = new Controller({
      name: 'cs',
      reconciler: r,
      registry,
      logger: log,
      rateLimiter: new ItemExponentialFailureRateLimiter(10, 1000),
    });
    const h = run(c);
    c.enqueue({ name: 'cluster-scoped' });
    await waitFor(() => r.calls.length === 4);
    await waitFor(() => c.queue.numRequeues('cluster-scoped') === 0);
    await h.stop();
    expect(
      await metric(registry, 'controller_runtime_reconcile_total', { controller: 'cs', result: 'error' }),
    ).toBe(3);
    expect(await metric(registry, 'controller_runtime_reconcile_errors_total', { controller: 'cs' })).toBe(3);
    expect(
      await metric(registry, 'controller_runtime_reconcile_total', { controller: 'cs', result: 'success' }),
    ).toBe(1);
    expect(await metric(registry, 'workqueue_retries_total', { name: 'cs' })).toBe(3);
    const errors = log.lines.filter((l) => l.level === 'error');
    expect(errors.map((l) => (l.fields['err'] as Error).message)).toEqual([
      'conflict #1',
      'conflict #2',
      'conflict #3',
    ]);
    expect(errors.map((l) => l.fields['retries'])).toEqual([1, 2, 3]);
    expect(errors[0]?.bindings).toMatchObject({ controller: 'cs', name: 'cluster-scoped' });
  });

  it('terminal error: logged and counted, not retried', async () => {
    const registry = new Registry();
    const log = recordingLogger();
    const r = scripted(() => {
      throw new Error('outer', {
        cause: new TerminalError('spec.selector does not match the template labels'),
      });
    });
    const c = new Controller({ name: 'cs', reconciler: r, registry, logger: log });
    const h = run(c);
    c.enqueue({ namespace: 'ns', name: 'bad' });
    await waitFor(() => r.calls.length === 1);
    await new Promise((res) => setTimeout(res, 50));
    await h.stop();
    expect(r.calls).toHaveLength(1);
    expect(
      await metric(registry, 'controller_runtime_terminal_reconcile_errors_total', { controller: 'cs' }),
    ).toBe(1);
    expect(await metric(registry, 'controller_runtime_reconcile_errors_total', { controller: 'cs' })).toBe(1);
    expect(log.lines.find((l) => l.level === 'error')?.msg).toMatch(/terminal/);
  });

  it('requeueAfter: forgets the back-off and reconciles again after the delay', async () => {
    const registry = new Registry();
    const r = scripted((_req, _ctx, call) => (call === 1 ? { requeueAfterMs: 40 } : {}));
    const c = new Controller({ name: 'cs', reconciler: r, registry });
    const h = run(c);
    const t0 = Date.now();
    c.enqueue({ namespace: 'ns', name: 'web' });
    await waitFor(() => r.calls.length === 2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(39);
    await h.stop();
    expect(
      await metric(registry, 'controller_runtime_reconcile_total', {
        controller: 'cs',
        result: 'requeue_after',
      }),
    ).toBe(1);
  });

  it('requeue: adds rate-limited and counts requeue', async () => {
    const registry = new Registry();
    const r = scripted((_req, _ctx, call) => (call === 1 ? { requeue: true } : {}));
    const c = new Controller({ name: 'cs', reconciler: r, registry });
    const h = run(c);
    c.enqueue({ namespace: 'ns', name: 'web' });
    await waitFor(() => r.calls.length === 2);
    await h.stop();
    expect(
      await metric(registry, 'controller_runtime_reconcile_total', { controller: 'cs', result: 'requeue' }),
    ).toBe(1);
  });

  it('a synchronous throw is an error like any other', async () => {
    const registry = new Registry();
    let calls = 0;
    const c = new Controller({
      name: 'cs',
      registry,
      rateLimiter: new ItemExponentialFailureRateLimiter(1, 10),
      reconciler: {
        reconcile: (): Promise<Result> => {
          calls++;
          if (calls === 1) throw new Error('sync');
          return Promise.resolve({});
        },
      },
    });
    const h = run(c);
    c.enqueue({ name: 'x' });
    await waitFor(() => calls === 2);
    await h.stop();
    expect(
      await metric(registry, 'controller_runtime_reconcile_total', { controller: 'cs', result: 'error' }),
    ).toBe(1);
  });
});

describe('Controller: workers', () => {
  it('runs up to N reconciles at once, never two for the same key', async () => {
    const registry = new Registry();
    let active = 0;
    let peak = 0;
    const perKey = new Map<string, number>();
    let overlap = false;
    let done = 0;
    const c = new Controller({
      name: 'cs',
      registry,
      maxConcurrentReconciles: 4,
      reconciler: {
        reconcile: async (req) => {
          const n = (perKey.get(req.name) ?? 0) + 1;
          perKey.set(req.name, n);
          if (n > 1) overlap = true;
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 5));
          active--;
          perKey.set(req.name, n - 1);
          done++;
          return {};
        },
      },
    });
    expect(await metric(registry, 'controller_runtime_max_concurrent_reconciles', { controller: 'cs' })).toBe(
      4,
    );
    const h = run(c);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 8; i++) c.enqueue({ namespace: 'ns', name: `obj-${i}` });
      await new Promise((r) => setTimeout(r, 2));
    }
    await waitFor(() => c.queue.len() === 0 && active === 0 && done >= 8);
    await h.stop();
    expect(overlap).toBe(false);
    expect(peak).toBe(4);
    expect(await metric(registry, 'controller_runtime_active_workers', { controller: 'cs' })).toBe(0);
  });

  it('gives each call a fresh reconcileID, bound on the call logger with the request', async () => {
    const log = recordingLogger();
    const r = scripted((_req, ctx) => {
      ctx.log.info({ step: 1 }, 'inside');
      return {};
    });
    const c = new Controller({ name: 'cs', reconciler: r, logger: log });
    const h = run(c);
    c.enqueue({ namespace: 'ns', name: 'a' });
    await waitFor(() => r.calls.length === 1);
    c.enqueue({ namespace: 'ns', name: 'a' });
    await waitFor(() => r.calls.length === 2);
    await h.stop();
    const [first, second] = r.calls.map((call) => call.ctx.reconcileID);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).not.toBe(first);
    const inside = log.lines.find((l) => l.msg === 'inside');
    expect(inside?.bindings).toEqual({ controller: 'cs', namespace: 'ns', name: 'a', reconcileID: first });
  });

  it('processes keys queued before start; on stop aborts ctx.signal and waits for in-flight reconciles', async () => {
    let sawAbort = false;
    let finished = false;
    const r = scripted(async (_req, ctx) => {
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      sawAbort = ctx.signal.aborted;
      await new Promise((res) => setTimeout(res, 20));
      finished = true;
      return {};
    });
    const c = new Controller({ name: 'cs', reconciler: r });
    c.enqueue({ namespace: 'ns', name: 'early' });
    const h = run(c);
    await waitFor(() => r.calls.length === 1);
    c.enqueue({ namespace: 'ns', name: 'dropped' });
    await h.stop();
    expect(sawAbort).toBe(true);
    expect(finished).toBe(true);
    expect(r.calls).toHaveLength(1);
    expect(c.queue.shuttingDown).toBe(true);
  });

  it('aborts ctx.signal when the reconciliation timeout passes', async () => {
    let reason: unknown;
    const r = scripted(async (_req, ctx) => {
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      reason = ctx.signal.reason;
      return {};
    });
    const c = new Controller({ name: 'cs', reconciler: r, reconciliationTimeoutMs: 20 });
    const h = run(c);
    c.enqueue({ name: 'slow' });
    await waitFor(() => reason !== undefined);
    await h.stop();
    expect((reason as Error).name).toBe('TimeoutError');
  });

  it('rejects bad options and a second start', async () => {
    const reconciler = scripted(() => ({}));
    expect(() => new Controller({ name: 'x', reconciler, maxConcurrentReconciles: 0 })).toThrow(
      InvalidOptionsError,
    );
    const c = new Controller({ name: 'x', reconciler });
    const h = run(c);
    await expect(c.start(new AbortController().signal)).rejects.toThrow(AlreadyStartedError);
    await h.stop();
    expect(c.needLeaderElection()).toBe(true);
    expect(new Controller({ name: 'y', reconciler, needLeaderElection: false }).needLeaderElection()).toBe(
      false,
    );
  });
});
