// A clustered bus (docs/operations.md "A clustered bus", docs/adr/0086): three nats-servers in a JetStream cluster,
// buckets replicated on all three, and the faults a cluster must take without losing an acknowledged write: a server
// killed, one paused (SIGSTOP: a partition), one whose store is wiped, all restarted; and a bucket reset, which a
// cache must resync from instead of trusting what it held.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsBus, waitFor, type NatsBus } from '@regatta/local-cluster';
import { Cache, connectBus, MirrorWriter, type Bus, type KindRef, type KubeObject } from './index.js';

let nats: NatsBus;
let dir: string;
const open: Bus[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'regatta-bus-cluster-'));
  nats = await startNatsBus(dir, 3);
}, 120_000);

afterAll(async () => {
  for (const b of open.splice(0)) await b.close().catch(() => undefined);
  await nats?.stop();
});

function testKind(): KindRef {
  return { group: 'test.regatta.dev', version: 'v1', kind: 'Widget', plural: `w${randomBytes(4).toString('hex')}`, namespaced: true };
}

function widget(name: string, rv: number): KubeObject {
  return { metadata: { namespace: 'ns', name, uid: `uid-${name}`, resourceVersion: String(rv) } };
}

async function bus(name: string): Promise<Bus> {
  const b = await connectBus({ servers: nats.url, name });
  open.push(b);
  return b;
}

/**
 * Puts until acknowledged, as the watcher retries a failed write: what matters is that no acknowledged one is lost.
 * A client connected to the paused server notices only after two unanswered pings (10 s apart, libs/bus
 * connection.ts) and then reconnects to another: up to about 30 s without an answer (a full run failed at 30 s).
 */
async function putAcked(w: MirrorWriter, obj: KubeObject): Promise<void> {
  await waitFor(`put ${obj.metadata?.name}`, async () => w.put(obj).then(() => true, () => false), {
    timeoutMs: 60_000,
    intervalMs: 100,
  });
}

/** The index of the server leading the bucket's stream. */
async function leaderOf(b: Bus, bucket: string): Promise<number> {
  const jsm = await jetstreamManager(b.nc);
  const leader = (await jsm.streams.info(`KV_${bucket}`)).cluster?.leader;
  return nats.servers.findIndex((s) => s.name === leader);
}

/** Messages of the bucket's stream as server `i` holds it in its own store (its monitoring port). */
async function storedOn(i: number, bucket: string): Promise<number | undefined> {
  const res = await fetch(`${nats.servers[i]!.monitor}/jsz?streams=true`);
  const jsz = (await res.json()) as {
    account_details?: { stream_detail?: { name: string; state: { messages: number } }[] }[];
  };
  for (const a of jsz.account_details ?? [])
    for (const s of a.stream_detail ?? []) if (s.name === `KV_${bucket}`) return s.state.messages;
  return undefined;
}

/** Writes rv `rv` of `names`, concurrently with `fault`, then checks the cache holds exactly that. */
async function writeThrough(
  w: MirrorWriter,
  cache: Cache,
  names: string[],
  rv: number,
  fault: () => Promise<void>,
): Promise<void> {
  const writes = (async () => {
    for (const n of names) await putAcked(w, widget(n, rv));
  })();
  await fault();
  await writes;
  await waitFor(
    `cache to hold version ${rv} of ${names.length} objects`,
    () => names.every((n) => cache.get('ns', n)?.metadata?.resourceVersion === String(rv)) && cache.inSync,
    { timeoutMs: 60_000 },
  );
}

describe('a three-server bus', () => {
  it('replicates buckets on all three and loses no acknowledged write through a kill, a pause, a wiped store and a full restart', async () => {
    const kind = testKind();
    const watcher = await bus('watcher');
    expect(watcher.replicas).toBe(3);
    const w = await MirrorWriter.open(watcher, kind);
    await w.markListed();
    const jsm = await jetstreamManager(watcher.nc);
    expect((await jsm.streams.info(`KV_${w.bucket}`)).config.num_replicas).toBe(3);

    const cache = new Cache(await bus('controller'), kind);
    await cache.start();
    const names = Array.from({ length: 60 }, (_, i) => `o${i}`);
    for (const n of names) await putAcked(w, widget(n, 1));

    // the stream's leader killed (SIGKILL) mid-writes: a new leader is elected, writes go on
    const killed = await leaderOf(watcher, w.bucket);
    await writeThrough(w, cache, names, 2, async () => {
      await new Promise((r) => setTimeout(r, 50));
      nats.process(killed).killNow();
    });
    await nats.restart(killed);
    await waitFor('the killed server to catch up', async () => (await storedOn(killed, w.bucket)) === 61, {
      timeoutMs: 30_000,
    });

    // the leader paused (SIGSTOP, as a partition) and resumed: it steps down and catches up
    const paused = await leaderOf(watcher, w.bucket);
    const pid = nats.process(paused).pid;
    await writeThrough(w, cache, names, 3, async () => {
      process.kill(pid, 'SIGSTOP');
    });
    process.kill(pid, 'SIGCONT');
    await waitFor('the paused server to catch up', async () => (await storedOn(paused, w.bucket)) === 61, {
      timeoutMs: 30_000,
    });

    // a server's store wiped (a lost disk) and the server started again: it gets the bucket back from the others
    const wiped = (paused + 1) % 3;
    await writeThrough(w, cache, names, 4, async () => {
      await nats.process(wiped).stop();
      await rm(nats.servers[wiped]!.storeDir, { recursive: true, force: true });
      await nats.restart(wiped);
    });
    await waitFor('the wiped server to hold the bucket again', async () => (await storedOn(wiped, w.bucket)) === 61, {
      timeoutMs: 60_000,
    });

    // all three stopped and started again: every acknowledged write is still there (sync_interval: always)
    for (let i = 0; i < 3; i++) await nats.process(i).stop();
    await Promise.all([0, 1, 2].map((i) => nats.restart(i)));
    for (const n of names.slice(0, 10)) await putAcked(w, widget(n, 5));
    await waitFor('cache to follow the restarted bus', () => cache.get('ns', 'o9')?.metadata?.resourceVersion === '5' && cache.inSync, {
      timeoutMs: 60_000,
    });
    for (const n of names.slice(10)) expect(cache.get('ns', n)?.metadata?.resourceVersion).toBe('4');
    expect(cache.size).toBe(60);
    await cache.stop();
  }, 300_000);

  it('a cache whose bucket is reset resyncs: out of sync while the bucket is refilled, then only what vanished is deleted', async () => {
    const kind = testKind();
    const watcher = await bus('watcher');
    // the previous test restarted all three servers: JetStream answers once they have elected their meta leader (a
    // full run's bucket creation timed out before that)
    await waitFor(
      'JetStream to answer after the restart',
      async () => (await jetstreamManager(watcher.nc)).getAccountInfo().then(() => true, () => false),
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const w = await MirrorWriter.open(watcher, kind);
    for (const n of ['a', 'b', 'c']) await w.put(widget(n, 1));
    await w.markListed();
    const cache = new Cache(await bus('controller'), kind, { resetCheckMs: 200, rewatchDelayMs: 100 });
    await cache.start();
    const deleted: string[] = [];
    cache.onChange((c) => c.type === 'delete' && deleted.push(c.object.metadata!.name!));

    // the bucket deleted (as a wiped single-server store loses it) and made again by the watcher
    const jsm = await jetstreamManager(watcher.nc);
    await jsm.streams.delete(`KV_${w.bucket}`);
    expect(await w.bucketReset()).toBe(true);
    await waitFor('cache to leave sync', () => !cache.inSync, { timeoutMs: 10_000 });
    await w.reopen();
    expect(await w.bucketReset()).toBe(false);
    // the refill so far: 'a' is back; the cache still holds b and c and deletes nothing yet
    await w.put(widget('a', 2));
    await waitFor('cache to read the refilled bucket', () => cache.get('ns', 'a')?.metadata?.resourceVersion === '2');
    expect(cache.inSync).toBe(false);
    expect(cache.size).toBe(3);
    expect(deleted).toEqual([]);

    // the relist is complete (b is back, c is gone): in sync, c deleted
    await w.put(widget('b', 2));
    await w.markListed();
    await waitFor('cache to resync', () => cache.inSync, { timeoutMs: 10_000 });
    expect(deleted).toEqual(['c']);
    expect(cache.list().map((o) => o.metadata?.name).sort()).toEqual(['a', 'b']);
    await cache.stop();
  }, 120_000);
});
