import { stat } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from './errors.js';
import { LeaderElector, type LeaderElectionOptions } from './leader-election.js';
import type { Lease, LeaseStore } from './lease.js';
import { MemoryLeaseStore } from './testing/memory-lease-store.js';

// Real time with short timings (lease 300 ms, renew deadline 200 ms, retry 50 ms): the loop
// sleeps on real timers, and these durations keep each test well under a second.
const fast = { leaseDurationMs: 300, renewDeadlineMs: 200, retryPeriodMs: 50 };
const ns = 'kruise-system';
const name = 'cloneset-leader';

interface Candidate {
  elector: LeaderElector;
  events: string[];
  stop: AbortController;
  done: Promise<'stopped' | 'lost'>;
}

function candidate(
  store: MemoryLeaseStore,
  identity: string,
  extra: Partial<LeaderElectionOptions> = {},
): Candidate {
  const events: string[] = [];
  const stop = new AbortController();
  const elector = new LeaderElector({
    store,
    namespace: ns,
    name,
    identity,
    ...fast,
    random: () => 0,
    callbacks: {
      onStartedLeading: (signal) => {
        events.push('started');
        signal.addEventListener('abort', () => events.push('leadership-signal-aborted'));
      },
      onStoppedLeading: () => events.push('stopped'),
      onNewLeader: (id) => events.push(`leader:${id}`),
    },
    ...extra,
  });
  return { elector, events, stop, done: elector.run(stop.signal) };
}

async function waitFor(cond: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** `a` goes on renewing (three more writes), never stops leading, and stops when asked. */
async function expectStillLeading(a: Candidate, store: MemoryLeaseStore): Promise<void> {
  const writes = store.writes;
  await waitFor(() => store.writes >= writes + 3);
  expect(a.elector.isLeader()).toBe(true);
  expect(a.events).not.toContain('stopped');
  a.stop.abort();
  expect(await a.done).toBe('stopped');
}

describe('LeaderElector', () => {
  it('creates the lease when there is none, leads, and keeps renewing it', async () => {
    const store = new MemoryLeaseStore();
    const a = candidate(store, 'a');
    await waitFor(() => a.elector.isLeader());
    expect(a.events).toEqual(['leader:a', 'started']);
    const first = store.peek(ns, name)?.spec?.renewTime;
    await waitFor(() => store.writes >= 3);
    expect(store.peek(ns, name)?.spec).toMatchObject({
      holderIdentity: 'a',
      leaseDurationSeconds: 1,
      leaseTransitions: 0,
    });
    expect(store.peek(ns, name)?.spec?.renewTime).not.toBe(first);
    a.stop.abort();
    expect(await a.done).toBe('stopped');
  });

  it('renews in one round trip while it leads: a write guarded by the version it last wrote, no read', async () => {
    const store = new MemoryLeaseStore();
    const a = candidate(store, 'a');
    await waitFor(() => a.elector.isLeader());
    const [reads, writes] = [store.reads, store.writes];
    await waitFor(() => store.writes >= writes + 3);
    expect(store.reads).toBe(reads);
    // someone else's write makes the next optimistic renewal fail (409): it reads the lease, then renews
    const current = store.peek(ns, name);
    if (!current) throw new Error('no lease');
    await store.update({ ...current, metadata: { ...current.metadata, labels: { touched: 'yes' } } });
    const afterTouch = store.writes;
    await waitFor(() => store.writes >= afterTouch + 1);
    expect(store.reads).toBeGreaterThan(reads);
    expect(a.elector.isLeader()).toBe(true);
    expect(store.peek(ns, name)?.spec?.holderIdentity).toBe('a');
    a.stop.abort();
    expect(await a.done).toBe('stopped');
  });

  it('lets exactly one of several candidates lead; the others see it as the leader', async () => {
    const store = new MemoryLeaseStore();
    const all = ['a', 'b', 'c'].map((id) => candidate(store, id));
    await waitFor(() => all.some((c) => c.elector.isLeader()));
    await new Promise((r) => setTimeout(r, 400)); // longer than a lease: still one leader
    const leaders = all.filter((c) => c.elector.isLeader());
    expect(leaders).toHaveLength(1);
    const leader = leaders[0]?.elector.identity;
    for (const c of all) expect(c.elector.getLeader()).toBe(leader);
    for (const c of all) c.stop.abort();
    await Promise.all(all.map((c) => c.done));
  });

  it('releases the lease on stop, so a standby takes over at once', async () => {
    const store = new MemoryLeaseStore();
    const a = candidate(store, 'a');
    await waitFor(() => a.elector.isLeader());
    const b = candidate(store, 'b', { retryPeriodMs: 50 });
    await waitFor(() => b.elector.getLeader() === 'a');
    a.stop.abort();
    expect(await a.done).toBe('stopped');
    expect(a.events).toEqual(['leader:a', 'started', 'leadership-signal-aborted', 'stopped']);
    expect(store.peek(ns, name)?.spec?.holderIdentity).toBe('');
    const released = Date.now();
    await waitFor(() => b.elector.isLeader());
    expect(Date.now() - released).toBeLessThan(250); // without a release b would wait a full lease
    expect(store.peek(ns, name)?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    b.stop.abort();
    await b.done;
  });

  it('takes over a lease whose holder stopped renewing, after the lease duration', async () => {
    const store = new MemoryLeaseStore();
    const a = candidate(store, 'a', { releaseOnCancel: false });
    await waitFor(() => a.elector.isLeader());
    const b = candidate(store, 'b');
    await waitFor(() => b.elector.getLeader() === 'a');
    a.stop.abort(); // a crashes: it does not release
    await a.done;
    const crashed = Date.now();
    await waitFor(() => b.elector.isLeader());
    // the lease advertises leaseDurationSeconds: 1 (300 ms rounded up), and b honours it
    expect(Date.now() - crashed).toBeGreaterThanOrEqual(800);
    expect(b.events).toEqual(['leader:a', 'leader:b', 'started']);
    b.stop.abort();
    await b.done;
  });

  it('gives leadership up when it cannot renew within the renew deadline', async () => {
    const store = new MemoryLeaseStore();
    const a = candidate(store, 'a');
    await waitFor(() => a.elector.isLeader());
    store.failWith = 503;
    const cut = Date.now();
    expect(await a.done).toBe('lost');
    const took = Date.now() - cut;
    expect(took).toBeGreaterThanOrEqual(100);
    expect(took).toBeLessThan(300); // before the lease could expire for the others
    expect(a.elector.isLeader()).toBe(false);
    expect(a.events.slice(-2)).toEqual(['leadership-signal-aborted', 'stopped']);
  });

  it('keeps leading after a pause past the renew deadline when nobody wrote the lease meanwhile', async () => {
    const store = new MemoryLeaseStore();
    let pausedMs = 0;
    const a = candidate(store, 'a', { clock: () => Date.now() + pausedMs });
    await waitFor(() => a.elector.isLeader());
    pausedMs = 1000; // as after a SIGSTOP of 1 s: past the renew deadline (200 ms) and the lease (300 ms)
    await expectStillLeading(a, store);
  });

  it('gives leadership up after a pause past the renew deadline when the lease was written meanwhile', async () => {
    const store = new MemoryLeaseStore();
    let pausedMs = 0;
    const a = candidate(store, 'a', { clock: () => Date.now() + pausedMs });
    await waitFor(() => a.elector.isLeader());
    const current = store.peek(ns, name);
    if (!current) throw new Error('no lease');
    // a write the paused elector did not make (the holder is unchanged: only the version tells)
    await store.update({ ...current, metadata: { ...current.metadata, labels: { touched: 'yes' } } });
    pausedMs = 1000;
    expect(await a.done).toBe('lost');
    expect(a.elector.mayWrite()).toBe(false);
  });

  it('fences writes: a standby may write, a leader while its lease is fresh, a resumed one only once it renewed', async () => {
    const store = new MemoryLeaseStore();
    let pausedMs = 0;
    const a = candidate(store, 'a', { clock: () => Date.now() + pausedMs });
    await waitFor(() => a.elector.isLeader());
    const b = candidate(store, 'b');
    await waitFor(() => b.elector.getLeader() === 'a');
    expect([a.elector.mayWrite(), b.elector.mayWrite()]).toEqual([true, true]);
    // as at the instant a SIGSTOPped leader resumes: its last renewal a second ago, past the renew deadline (200 ms)
    pausedMs = 1000;
    expect(a.elector.isLeader()).toBe(true);
    expect(a.elector.mayWrite()).toBe(false);
    // nobody wrote the lease meanwhile (b observed it only): the renew loop renews it, and writes may go again
    await waitFor(() => a.elector.mayWrite());
    expect(a.elector.isLeader()).toBe(true);
    b.stop.abort();
    await b.done;
    a.stop.abort();
    expect(await a.done).toBe('stopped');
    // stopped (its lease released): it led, so it writes no more
    expect(a.elector.mayWrite()).toBe(false);
  });

  it('keeps leading when its renewal was answered while the event loop was held past the renew deadline', async () => {
    const store = new MemoryLeaseStore();
    let holdNextRenewal = false;
    // the renewal is answered (its answer waits in an I/O callback), then the loop is held past the deadline by
    // other work: when the loop resumes, its timers run before its I/O, so the round's deadline timer fires first
    const held: LeaseStore = {
      get: (namespace, leaseName) => store.get(namespace, leaseName),
      create: (lease) => store.create(lease),
      update: (lease) => {
        if (!holdNextRenewal) return store.update(lease);
        holdNextRenewal = false;
        return store.update(lease).then(
          (written) =>
            new Promise<Lease>((resolve) => {
              stat(process.cwd(), () => resolve(written)); // the answer: an I/O callback, ready during the hold
              const until = Date.now() + 300; // held past the renew deadline (200 ms) and the lease (300 ms)
              while (Date.now() < until);
            }),
        );
      },
    };
    const a = candidate(store, 'a', { store: held });
    await waitFor(() => a.elector.isLeader());
    holdNextRenewal = true;
    await expectStillLeading(a, store);
  });

  it('gives leadership up at once when it finds another holder on the lease', async () => {
    const store = new MemoryLeaseStore();
    const a = candidate(store, 'a');
    await waitFor(() => a.elector.isLeader());
    const current = store.peek(ns, name);
    if (!current) throw new Error('no lease');
    await store.update({ ...current, spec: { ...current.spec, holderIdentity: 'intruder' } });
    expect(await a.done).toBe('lost');
    expect(a.elector.getLeader()).toBe('intruder');
  });

  it('keeps trying while the API server is down, and leads once it is back', async () => {
    const store = new MemoryLeaseStore();
    store.failWith = 500;
    const a = candidate(store, 'a');
    await new Promise((r) => setTimeout(r, 150));
    expect(a.elector.isLeader()).toBe(false);
    store.failWith = undefined;
    await waitFor(() => a.elector.isLeader());
    a.stop.abort();
    await a.done;
  });

  it('validates its options and runs once', async () => {
    const store = new MemoryLeaseStore();
    expect(
      () => new LeaderElector({ store, namespace: ns, name, leaseDurationMs: 1000, renewDeadlineMs: 1000 }),
    ).toThrow(InvalidOptionsError);
    expect(() => new LeaderElector({ store, namespace: ns, name, identity: '' })).toThrow(/identity/);
    const e = new LeaderElector({ store, namespace: ns, name });
    expect(e.identity).toMatch(/_[0-9a-f-]{36}$/);
    const stop = new AbortController();
    stop.abort();
    expect(await e.run(stop.signal)).toBe('stopped');
    await expect(e.run(stop.signal)).rejects.toThrow(/started only once/);
  });
});
