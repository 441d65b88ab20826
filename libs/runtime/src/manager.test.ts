import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  CacheSyncTimeoutError,
  GracefulShutdownTimeoutError,
  LeaderElectionLostError,
  ManagerStartedError,
  RunnableFailedError,
} from './errors.js';
import { Manager, type SignalSource } from './manager.js';
import {
  startStopRunnable,
  type Checker,
  type Runnable,
  type StartStop,
  type SyncWaiter,
} from './runnable.js';
import { MemoryLeaseStore } from './testing/memory-lease-store.js';

/** A runnable that records its start and stop in a shared journal. */
function runnable(
  journal: string[],
  name: string,
  opts: { leader?: boolean; server?: boolean; stopDelayMs?: number; failAfterMs?: number } = {},
): Runnable {
  return {
    name,
    ...(opts.server && { isServer: true }),
    needLeaderElection: () => opts.leader ?? false,
    start: async (signal) => {
      journal.push(`start ${name}`);
      await new Promise<void>((resolve, reject) => {
        if (opts.failAfterMs !== undefined)
          setTimeout(() => reject(new Error(`${name} crashed`)), opts.failAfterMs);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      if (opts.stopDelayMs) await new Promise((r) => setTimeout(r, opts.stopDelayMs));
      journal.push(`stop ${name}`);
    },
  };
}

function cache(journal: string[], name: string, syncAfterMs: number): Runnable & SyncWaiter {
  let synced!: () => void;
  const whenSynced = new Promise<void>((r) => (synced = r));
  return {
    name,
    start: async (signal) => {
      journal.push(`start ${name}`);
      setTimeout(() => {
        journal.push(`synced ${name}`);
        synced();
      }, syncAfterMs);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      journal.push(`stop ${name}`);
    },
    waitForSync: () => whenSynced,
  };
}

async function waitFor(cond: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const noSignals = { handleSignals: false } as const;

describe('Manager: order', () => {
  it('starts servers, caches (and waits for sync), others, then leader runnables; stops in reverse', async () => {
    const journal: string[] = [];
    const m = new Manager(noSignals);
    m.add(runnable(journal, 'controller', { leader: true }));
    m.add(runnable(journal, 'other'));
    m.add(cache(journal, 'pods', 30));
    m.add(runnable(journal, 'probes', { server: true }));
    const stop = new AbortController();
    const done = m.start(stop.signal);
    await waitFor(() => journal.includes('start controller'));
    expect(m.hasSynced()).toBe(true);
    await m.elected;
    expect(m.isLeader()).toBe(true);
    stop.abort();
    await done;
    expect(journal).toEqual([
      'start probes',
      'start pods',
      'synced pods',
      'start other',
      'start controller',
      'stop controller',
      'stop other',
      'stop pods',
      'stop probes',
    ]);
  });

  it('waits for a cache that is only a SyncWaiter, and reports readiness through its check', async () => {
    let synced!: () => void;
    const waiter: SyncWaiter = { name: 'bus', waitForSync: () => new Promise<void>((r) => (synced = r)) };
    const checks = new Map<string, Checker>();
    const probes: Runnable & {
      addHealthzCheck: (n: string, c: Checker) => void;
      addReadyzCheck: (n: string, c: Checker) => void;
    } = {
      name: 'probes',
      isServer: true,
      start: (signal) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
      addHealthzCheck: (n, c) => checks.set(`healthz/${n}`, c),
      addReadyzCheck: (n, c) => checks.set(`readyz/${n}`, c),
    };
    const m = new Manager({ ...noSignals, probes });
    m.add(waiter);
    let serving = false;
    const webhooks: Runnable & { startedCheck(): Checker } = {
      name: 'webhook-server',
      isServer: true,
      start: (signal) => {
        serving = true;
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      },
      startedCheck: () => () => {
        if (!serving) throw new Error('not serving');
      },
    };
    m.add(webhooks);
    expect(() => checks.get('readyz/webhook-server')?.()).toThrow(/not serving/);
    const stop = new AbortController();
    const done = m.start(stop.signal);
    await new Promise((r) => setTimeout(r, 10));
    expect(() => checks.get('readyz/cache-sync')?.()).toThrow(/not synced/);
    synced();
    await waitFor(() => m.hasSynced());
    expect(() => checks.get('readyz/cache-sync')?.()).not.toThrow();
    expect(() => checks.get('readyz/webhook-server')?.()).not.toThrow();
    expect(checks.has('healthz/ping')).toBe(true);
    stop.abort();
    await done;
  });
  it('runs a start/stop cache (start resolves once synced) through startStopRunnable', async () => {
    const journal: string[] = [];
    let synced = false;
    const waiters: (() => void)[] = [];
    const busCache: StartStop = {
      start: async () => {
        journal.push('cache start');
        setTimeout(() => {
          synced = true;
          waiters.splice(0).forEach((w) => w());
        }, 20);
        await busCache.waitForSync?.();
      },
      stop: async () => {
        journal.push('cache stop');
        return Promise.resolve();
      },
      waitForSync: () => (synced ? Promise.resolve() : new Promise<void>((r) => waiters.push(r))),
    };
    const m = new Manager(noSignals);
    m.add(startStopRunnable('pods', busCache));
    m.add(runnable(journal, 'controller', { leader: true }));
    const stop = new AbortController();
    const done = m.start(stop.signal);
    await m.elected;
    expect(synced).toBe(true);
    stop.abort();
    await done;
    expect(journal).toEqual(['cache start', 'start controller', 'stop controller', 'cache stop']);
  });
  it('stops a start/stop cache that never syncs when told to stop while it waits', async () => {
    const journal: string[] = [];
    const neverSyncs: StartStop = {
      start: () => {
        journal.push('cache start');
        return new Promise<void>(() => undefined);
      },
      stop: async () => {
        journal.push('cache stop');
        return Promise.resolve();
      },
      waitForSync: () => new Promise<void>(() => undefined),
    };
    const m = new Manager({ ...noSignals, gracefulShutdownTimeoutMs: 5_000 });
    m.add(startStopRunnable('pods', neverSyncs));
    const stop = new AbortController();
    const done = m.start(stop.signal);
    await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await done;
    expect(journal).toEqual(['cache start', 'cache stop']);
  });
});

describe('Manager: failures', () => {
  it('fails with CacheSyncTimeoutError when a cache does not sync in time, and stops what started', async () => {
    const journal: string[] = [];
    const m = new Manager({ ...noSignals, cacheSyncTimeoutMs: 30 });
    m.add(cache(journal, 'slow', 10_000));
    m.add(runnable(journal, 'controller', { leader: true }));
    const err = await m.start().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheSyncTimeoutError);
    expect((err as CacheSyncTimeoutError).code).toBe('REGATTA_CACHE_SYNC_TIMEOUT');
    expect(journal).toEqual(['start slow', 'stop slow']);
  });

  it('stops everything when a runnable fails, and rejects with it', async () => {
    const journal: string[] = [];
    const m = new Manager(noSignals);
    m.add(runnable(journal, 'server', { server: true }));
    m.add(runnable(journal, 'flaky', { failAfterMs: 20 }));
    m.add(runnable(journal, 'controller', { leader: true }));
    const err = await m.start().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunnableFailedError);
    expect((err as Error).message).toMatch(/'flaky'.*flaky crashed/);
    expect(journal).toEqual([
      'start server',
      'start flaky',
      'start controller',
      'stop controller',
      'stop server',
    ]);
  });

  it('treats a runnable that returns before being stopped as failed', async () => {
    const m = new Manager(noSignals);
    m.add({ name: 'quitter', start: () => Promise.resolve() });
    await expect(m.start()).rejects.toThrow(
      /'quitter' stopped unexpectedly: it returned before being stopped/,
    );
  });

  it('gives up after the graceful-shutdown timeout, naming what is still running', async () => {
    const journal: string[] = [];
    const m = new Manager({ ...noSignals, gracefulShutdownTimeoutMs: 50 });
    m.add(runnable(journal, 'stuck', { leader: true, stopDelayMs: 5000 }));
    m.add(runnable(journal, 'server', { server: true }));
    const stop = new AbortController();
    const done = m.start(stop.signal);
    await m.elected;
    const t0 = Date.now();
    stop.abort();
    const err = await done.catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(err).toBeInstanceOf(GracefulShutdownTimeoutError);
    expect((err as GracefulShutdownTimeoutError).pending).toEqual(['stuck']);
  });

  it('refuses adds after start', async () => {
    const m = new Manager(noSignals);
    const stop = new AbortController();
    const done = m.start(stop.signal);
    expect(() => m.add(runnable([], 'late'))).toThrow(ManagerStartedError);
    stop.abort();
    await done;
  });
});

describe('Manager: signals', () => {
  it('stops gracefully on SIGTERM, exits on a second signal, and removes its listeners', async () => {
    const journal: string[] = [];
    const source = new EventEmitter();
    let forced = 0;
    const m = new Manager({
      signalSource: source as unknown as SignalSource,
      onForcedExit: () => forced++,
    });
    m.add(runnable(journal, 'controller', { leader: true, stopDelayMs: 30 }));
    const done = m.start();
    await m.elected;
    expect(source.listenerCount('SIGTERM')).toBe(1);
    source.emit('SIGTERM');
    source.emit('SIGINT');
    await done;
    expect(forced).toBe(1);
    expect(journal).toEqual(['start controller', 'stop controller']);
    expect(source.listenerCount('SIGTERM') + source.listenerCount('SIGINT')).toBe(0);
  });
});

// Real timers with short leases (300 ms / 200 ms / 50 ms), as in leader-election.test.ts.
describe('Manager: leader election', () => {
  const le = (store: MemoryLeaseStore, identity: string) => ({
    store,
    namespace: 'kruise-system',
    name: 'cloneset',
    identity,
    leaseDurationMs: 300,
    renewDeadlineMs: 200,
    retryPeriodMs: 50,
  });

  it('runs leader runnables only on the elected manager; others start everywhere; failover on stop', async () => {
    const store = new MemoryLeaseStore();
    const journalA: string[] = [];
    const journalB: string[] = [];
    const a = new Manager({ ...noSignals, leaderElection: le(store, 'a') });
    a.add(runnable(journalA, 'controller', { leader: true }));
    a.add(runnable(journalA, 'webhooks', { server: true }));
    const stopA = new AbortController();
    const doneA = a.start(stopA.signal);
    await a.elected;
    const b = new Manager({ ...noSignals, leaderElection: le(store, 'b') });
    b.add(runnable(journalB, 'controller', { leader: true }));
    b.add(runnable(journalB, 'webhooks', { server: true }));
    const stopB = new AbortController();
    const doneB = b.start(stopB.signal);
    await new Promise((r) => setTimeout(r, 150));
    expect(journalB).toEqual(['start webhooks']); // standby: serves webhooks, does not reconcile
    expect(b.isLeader()).toBe(false);
    stopA.abort();
    await doneA;
    // the controller stopped before the lease was released
    expect(journalA).toEqual(['start webhooks', 'start controller', 'stop controller', 'stop webhooks']);
    await b.elected;
    expect(journalB).toEqual(['start webhooks', 'start controller']);
    stopB.abort();
    await doneB;
  });

  it('stops with LeaderElectionLostError when the lease cannot be renewed', async () => {
    const store = new MemoryLeaseStore();
    const journal: string[] = [];
    const m = new Manager({ ...noSignals, leaderElection: le(store, 'a') });
    m.add(runnable(journal, 'controller', { leader: true }));
    const done = m.start();
    await m.elected;
    store.failWith = 503;
    const err = await done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LeaderElectionLostError);
    expect((err as LeaderElectionLostError).code).toBe('REGATTA_LEADER_ELECTION_LOST');
    expect(journal).toEqual(['start controller', 'stop controller']);
  });
});
