import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freePorts, ManagedProcess, startNatsServer, waitFor } from '@regatta/local-cluster';
import { KIND_TABLE } from '@regatta/kube';
import { Cache, connectBus, KeyedPipeline, LAST_APPLIED_ANNOTATION, MAX_VALUE_BYTES, MirrorWriter, ObjectTooLargeError, SECRET_HASH_ANNOTATION, SecretHashKeyMissingError, BusUnavailableError, type Bus, type KindRef, type KubeObject } from './index.js';

/** A writer whose bucket says a complete list is in it, as the watcher's does after its first list: caches sync. */
async function listedWriter(...args: Parameters<typeof MirrorWriter.open>): Promise<MirrorWriter> {
  const w = await MirrorWriter.open(...args);
  await w.markListed();
  return w;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A kind of our own per test, so buckets never collide with other tests or the watcher. */
function testKind(): KindRef {
  const plural = `widgets${randomBytes(4).toString('hex')}`;
  return { group: 'test.regatta.dev', version: 'v1', kind: 'Widget', plural, namespaced: true };
}

function widget(ns: string, name: string, rv: number, extra: Record<string, unknown> = {}): KubeObject {
  return { metadata: { namespace: ns, name, uid: `uid-${name}`, resourceVersion: String(rv) }, ...extra };
}

async function bus(servers: string, name = 'test'): Promise<Bus> {
  const b = await connectBus({ servers, name });
  cleanups.push(() => b.close());
  return b;
}

describe('mirror bucket → cache', () => {
  it('a cache equals what the writer wrote after a burst of creates, updates and deletes', async () => {
    const { nats } = inject('cluster');
    const kind = testKind();
    const writer = await listedWriter(await bus(nats!, 'watcher'), kind);
    for (let i = 0; i < 50; i++) await writer.put(widget('ns1', `w${i}`, 1));

    const cache = new Cache<KubeObject & { spec?: unknown }>(await bus(nats!, 'controller'), kind);
    cleanups.push(() => cache.stop());
    await cache.start();
    expect(cache.size).toBe(50);

    const events: string[] = [];
    cache.onChange((c) => events.push(`${c.type}:${c.object.metadata?.name}`));
    for (let i = 0; i < 50; i += 2) await writer.put(widget('ns1', `w${i}`, 2, { spec: { n: i } }));
    for (let i = 1; i < 50; i += 2) await writer.delete(`ns1.w${i}`);
    await writer.put(widget('ns2', 'other', 1));

    await waitFor('cache to converge', () => cache.size === 26 && cache.get('ns2', 'other') !== undefined);
    expect(cache.get('ns1', 'w2')?.spec).toEqual({ n: 2 });
    expect(cache.get('ns1', 'w3')).toBeUndefined();
    expect(cache.list({ namespace: 'ns1' })).toHaveLength(25);
    expect(events.filter((e) => e.startsWith('update'))).toHaveLength(25);
    expect(events.filter((e) => e.startsWith('delete'))).toHaveLength(25);
    expect(events).toContain('add:other');
  });

  it('marks the changes of its first read as the initial list, and none after it synced', async () => {
    const { nats } = inject('cluster');
    const kind = testKind();
    const writer = await listedWriter(await bus(nats!, 'watcher'), kind);
    for (let i = 0; i < 5; i++) await writer.put(widget('ns1', `w${i}`, 1));
    const cache = new Cache(await bus(nats!, 'controller'), kind);
    cleanups.push(() => cache.stop());
    const events: string[] = [];
    cache.onChange((c) => events.push(`${c.type}:${c.object.metadata?.name}${c.inInitialList ? ' (initial list)' : ''}`));
    await cache.start();
    await writer.put(widget('ns1', 'w0', 2));
    await writer.put(widget('ns1', 'new', 1));
    await waitFor('the live changes', () => cache.get('ns1', 'new') !== undefined);
    expect(events).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => `add:w${i} (initial list)`),
      'update:w0',
      'add:new',
    ]);
  });

  it('keeps only what `keep` selects: an object leaving the selection is a delete, one entering it an add', async () => {
    const { nats } = inject('cluster');
    const kind = testKind();
    const writer = await listedWriter(await bus(nats!, 'watcher'), kind);
    const mine = (name: string, rv: number, owner: string) =>
      widget('ns1', name, rv, {
        metadata: {
          namespace: 'ns1',
          name,
          uid: `uid-${name}`,
          resourceVersion: String(rv),
          labels: { owner },
        },
      });
    await writer.put(mine('a', 1, 'me'));
    await writer.put(mine('b', 1, 'someone-else'));

    const cache = new Cache(await bus(nats!, 'controller'), kind, {
      keep: (o) => o.metadata?.labels?.['owner'] === 'me',
    });
    cleanups.push(() => cache.stop());
    await cache.start();
    expect(cache.list().map((o) => o.metadata?.name)).toEqual(['a']);

    const events: string[] = [];
    cache.onChange((c) => events.push(`${c.type}:${c.object.metadata?.name}`));
    await writer.put(mine('a', 2, 'someone-else'));
    await writer.put(mine('b', 2, 'me'));
    await waitFor(
      'the selection to move',
      () => cache.get('ns1', 'b') !== undefined && cache.get('ns1', 'a') === undefined,
    );
    expect(events).toEqual(['delete:a', 'add:b']);
  });

  it('indexes objects by owner UID and node name', async () => {
    const { nats } = inject('cluster');
    const kind = testKind();
    const writer = await listedWriter(await bus(nats!), kind);
    const owner = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      name: 'cs',
      uid: 'owner-1',
      controller: true,
    };
    await writer.put({
      ...widget('ns', 'a', 1, { spec: { nodeName: 'node1' } }),
      metadata: { ...widget('ns', 'a', 1).metadata, ownerReferences: [owner] },
    });
    await writer.put(widget('ns', 'b', 1, { spec: { nodeName: 'node2' } }));
    const cache = new Cache(await bus(nats!), kind);
    cleanups.push(() => cache.stop());
    await cache.start();
    expect(cache.byIndex('ownerUid', 'owner-1').map((o) => o.metadata?.name)).toEqual(['a']);
    expect(cache.byIndex('nodeName', 'node2').map((o) => o.metadata?.name)).toEqual(['b']);
  });

  it('never stores managedFields, nor a Secret in clear (scrubbed by the resource listed, not the kind it says)', async () => {
    const { nats } = inject('cluster');
    // the real Secret resource, in buckets of this test's own prefix
    const b = await connectBus({ servers: nats!, name: 'watcher', prefix: `t${randomBytes(3).toString('hex')}_` });
    cleanups.push(() => b.close());
    await expect(MirrorWriter.open(b, KIND_TABLE.secrets)).rejects.toThrow(SecretHashKeyMissingError);
    const writer = await listedWriter(b, KIND_TABLE.secrets, { secretHashKey: 'k'.repeat(32) });
    const applied = JSON.stringify({ kind: 'Secret', stringData: { password: 'hunter2' } });
    await writer.put({
      ...widget('ns', 's', 1, { kind: 'secret', data: { password: 'aHVudGVyMg==' } }),
      metadata: {
        ...widget('ns', 's', 1).metadata,
        managedFields: [{ manager: 'kubectl' }],
        annotations: { [LAST_APPLIED_ANNOTATION]: applied },
      },
    });
    const cache = new Cache<KubeObject & { data?: unknown }>(b, KIND_TABLE.secrets);
    cleanups.push(() => cache.stop());
    await cache.start();
    const s = cache.get('ns', 's')!;
    expect(s.kind).toBe('Secret');
    expect(s.data).toBeUndefined();
    expect(s.metadata?.managedFields).toBeUndefined();
    expect(JSON.stringify(s)).not.toContain('hunter2');
    expect(s.metadata?.annotations?.[SECRET_HASH_ANNOTATION]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('carries a 4.4 MB value; refuses one over the limit before sending, and the bucket keeps working', async () => {
    const { nats } = inject('cluster');
    const kind = testKind();
    const writer = await listedWriter(await bus(nats!, 'watcher'), kind);
    expect(writer.limit).toBeGreaterThan(MAX_VALUE_BYTES - 8192);
    // a YAML-posted env value of control characters: 4 bytes of YAML, 6 of JSON each
    await writer.put(widget('ns', 'big', 1, { spec: { v: '\x01'.repeat(740_000) } }));
    const tooBig = widget('ns', 'too-big', 1, { spec: { v: '\x01'.repeat(1_450_000) } });
    const err = await writer.put(tooBig).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObjectTooLargeError);
    expect((err as ObjectTooLargeError).code).toBe('REGATTA_BUS_OBJECT_TOO_LARGE');
    await writer.put(widget('ns', 'small', 1));
    const cache = new Cache<KubeObject & { spec?: { v: string } }>(await bus(nats!, 'controller'), kind);
    cleanups.push(() => cache.stop());
    await cache.start();
    expect(cache.get('ns', 'big')?.spec?.v).toHaveLength(740_000);
    expect(cache.get('ns', 'too-big')).toBeUndefined();
    expect(cache.get('ns', 'small')).toBeDefined();
  });

  it('a writer opened again (watcher restart) rewrites only changed objects and removes vanished keys', async () => {
    const { nats } = inject('cluster');
    const kind = testKind();
    const first = await listedWriter(await bus(nats!), kind);
    for (const n of ['a', 'b', 'c']) await first.put(widget('ns', n, 1));

    const second = await listedWriter(await bus(nats!), kind);
    expect(second.keys().sort()).toEqual(['ns.a', 'ns.b', 'ns.c']);
    expect(await second.put(widget('ns', 'a', 1))).toBe(false);
    expect(await second.put(widget('ns', 'b', 2))).toBe(true);
    expect(await second.deleteAllExcept(new Set(['ns.a', 'ns.b']))).toEqual(['ns.c']);

    const cache = new Cache(await bus(nats!), kind);
    cleanups.push(() => cache.stop());
    await cache.start();
    expect(
      cache
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b']);
  });
});

describe('a bucket being filled (docs/adr/0057)', () => {
  it('a cache does not sync on part of a kind: only once the watcher says its list is complete', async () => {
    const { nats } = inject('cluster');
    const kind = testKind();
    // a watcher filling an empty bus: some of the kind's objects are in the bucket, the rest still on their way
    const writer = await MirrorWriter.open(await bus(nats!, 'watcher'), kind);
    for (let i = 0; i < 5; i++) await writer.put(widget('ns', `w${i}`, 1));
    const cache = new Cache(await bus(nats!, 'controller'), kind);
    cleanups.push(() => cache.stop());
    const started = cache.start();
    await expect.poll(() => cache.size, { timeout: 10_000 }).toBe(5);
    await new Promise((r) => setTimeout(r, 300));
    expect(cache.hasSynced).toBe(false);
    for (let i = 5; i < 10; i++) await writer.put(widget('ns', `w${i}`, 1));
    await writer.markListed();
    await started;
    expect(cache.hasSynced).toBe(true);
    expect(cache.size).toBe(10);
    expect(cache.get('ns', '=listed')).toBeUndefined();

    // the next watcher (a restart, a standby) finds the bucket listed: its caches sync at once
    const next = await MirrorWriter.open(await bus(nats!, 'watcher-2'), kind);
    expect(next.keys()).toHaveLength(10);
    const late = new Cache(await bus(nats!, 'controller-2'), kind);
    cleanups.push(() => late.stop());
    await late.start();
    expect(late.size).toBe(10);
  });
});

describe('pipelined writes (docs/adr/0052)', () => {
  /** A mirror writer and a started cache on a kind of the test's own. */
  async function writerAndCache(): Promise<{ writer: MirrorWriter; cache: Cache }> {
    const { nats } = inject('cluster');
    const kind = testKind();
    const writer = await listedWriter(await bus(nats!, 'watcher'), kind);
    const cache = new Cache(await bus(nats!, 'controller'), kind);
    cleanups.push(() => cache.stop());
    await cache.start();
    return { writer, cache };
  }

  it('many quick versions of one object reach the cache in order, the last winning, while other objects proceed', async () => {
    const { writer, cache } = await writerAndCache();
    /** name → the resourceVersions the cache applied, in order; and every change applied, in order */
    const seen = new Map<string, number[]>();
    const applied: string[] = [];
    cache.onChange((c) => {
      const name = c.object.metadata!.name!;
      seen.set(name, [...(seen.get(name) ?? []), Number(c.object.metadata!.resourceVersion)]);
      applied.push(`${name}@${c.object.metadata!.resourceVersion}`);
    });

    // the watcher's order of events: 100 versions of "hot", with 10 other objects changing among them
    const pipeline = new KeyedPipeline(16);
    const dones: Promise<void>[] = [];
    for (let rv = 1; rv <= 100; rv++) {
      const write = (name: string) => async () => void (await writer.put(widget('ns', name, rv)));
      dones.push((await pipeline.submit('ns.hot', write('hot'))).done);
      if (rv % 10 === 0) dones.push((await pipeline.submit(`ns.other-${rv}`, write(`other-${rv}`))).done);
      expect(pipeline.size).toBeLessThanOrEqual(16);
    }
    await Promise.all(dones);
    expect(pipeline.peakInFlight).toBeGreaterThan(1);

    await expect.poll(() => cache.get('ns', 'hot')?.metadata?.resourceVersion, { timeout: 10_000 }).toBe('100');
    await expect.poll(() => cache.size, { timeout: 10_000 }).toBe(11);
    const hot = seen.get('hot')!;
    // strictly increasing: no version overtook an earlier one (with history 1, a later one may hide an earlier)
    expect(hot.every((rv, i) => i === 0 || rv > hot[i - 1]!)).toBe(true);
    expect(hot.at(-1)).toBe(100);
    for (let rv = 10; rv <= 100; rv += 10) expect(seen.get(`other-${rv}`)).toEqual([rv]);
    // the other objects did not wait behind the hot object's queue: other-10, queued after hot@10, is written while
    // hot@2…10 still wait their turn (a single queue would write it after hot@10)
    const firstHotFrom10 = applied.findIndex((e) => e.startsWith('hot@') && Number(e.slice(4)) >= 10);
    expect(applied.indexOf('other-10@10')).toBeLessThan(firstHotFrom10);
  });

  it("the envelope carries the caller's observedAt (the watch event's arrival), so lagMs counts the wait before the put", async () => {
    const { writer, cache } = await writerAndCache();
    const lags: number[] = [];
    cache.onChange((c) => lags.push(c.lagMs ?? -1));
    await writer.put(widget('ns', 'late', 1), Date.now() - 5_000);
    await writer.put(widget('ns', 'now', 1));
    await expect.poll(() => lags.length, { timeout: 10_000 }).toBe(2);
    expect(lags[0]).toBeGreaterThanOrEqual(5_000);
    expect(lags[1]).toBeLessThan(5_000);
  });
});

describe('bus outages', () => {
  function startNats(dir: string, port: number): Promise<ManagedProcess> {
    const config = `listen: "127.0.0.1:${port}"\njetstream { store_dir: "${join(dir, 'js')}" }\n`;
    return startNatsServer({ dir, config });
  }

  it('a cache resumes after nats-server restarts, without restarting the controller', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'regatta-nats-'));
    const [port] = (await freePorts(1)) as [number];
    let server = await startNats(dir, port);
    cleanups.push(() => server.stop());
    const url = `nats://127.0.0.1:${port}`;
    await waitFor('nats to listen', async () =>
      (await connectBus({ servers: url, name: 'probe', connectTimeoutMs: 500 })).close().then(() => true),
    );

    const kind = testKind();
    const writerBus = await bus(url, 'watcher');
    const writer = await listedWriter(writerBus, kind);
    await writer.put(widget('ns', 'before', 1));
    const cache = new Cache(await bus(url, 'controller'), kind, { rewatchDelayMs: 200 });
    cleanups.push(() => cache.stop());
    await cache.start();

    await server.stop();
    server = await startNats(dir, port);
    await waitFor('writer to reconnect and write', async () => writer.put(widget('ns', 'after', 1)), {
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    await waitFor(
      'cache to see the write made after the restart',
      () => cache.get('ns', 'after') !== undefined,
      { timeoutMs: 30_000 },
    );
    expect(cache.get('ns', 'before')).toBeDefined();
  });

  it('an unreachable server is a clear error, not a hang', async () => {
    const [port] = (await freePorts(1)) as [number];
    const err = await connectBus({
      servers: `nats://127.0.0.1:${port}`,
      name: 'x',
      connectTimeoutMs: 1000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BusUnavailableError);
    expect((err as BusUnavailableError).code).toBe('REGATTA_BUS_UNAVAILABLE');
    expect((err as Error).message).toContain('NATS_URL');
  });
});
