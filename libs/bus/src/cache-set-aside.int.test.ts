// Issue 47's critical defect, at the cache: one value in a mirror bucket that a program cannot read (two bytes of
// garbage put with the watcher's credentials, a newer watcher's format, an object of the wrong shape) used to end
// the cache's watch at that entry, every 500 ms, so every later change of the kind went unseen while the cache still
// said it was synced: a CloneSet controller showed 0 of its running pods and created more every 5 minutes. Now the
// entry is set aside, counted and reported once, and the rest of the kind flows (docs/adr/0068).
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { waitFor } from '@regatta/local-cluster';
import {
  Cache,
  connectBus,
  MirrorWriter,
  ObjectWatch,
  type Bus,
  type KindRef,
  type KubeObject,
  type SetAsideEntry,
} from './index.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function testKind(): KindRef {
  const plural = `poisons${randomBytes(4).toString('hex')}`;
  return { group: 'test.regatta.dev', version: 'v1', kind: 'Poison', plural, namespaced: true };
}

function widget(name: string, rv: number, extra: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { namespace: 'default', name, uid: `uid-${name}`, resourceVersion: String(rv) },
    ...extra,
  };
}

async function bus(name: string): Promise<Bus> {
  const b = await connectBus({ servers: inject('cluster').nats!, name });
  cleanups.push(() => b.close());
  return b;
}

/** A listed bucket with `names` written, as the watcher leaves it, and a raw handle on it to put anything. */
async function mirror(kind: KindRef, names: string[]) {
  const b = await bus('watcher');
  const writer = await MirrorWriter.open(b, kind);
  for (const n of names) await writer.put(widget(n, 1));
  await writer.markListed();
  const kv = await b.kvm.open(writer.bucket);
  return { b, writer, kv };
}

async function startedCache(kind: KindRef, setAside: SetAsideEntry[]): Promise<Cache> {
  const cache = new Cache(await bus('controller'), kind, {
    rewatchDelayMs: 100,
    onSetAside: (e) => setAside.push(e),
  });
  cleanups.push(() => cache.stop());
  await cache.start();
  return cache;
}

describe('a value a cache cannot read', () => {
  it('is set aside at start: the cache syncs with every other object, and changes after it keep flowing', async () => {
    const kind = testKind();
    const { writer, kv } = await mirror(kind, ['a', 'b']);
    await kv.put('default.zz-poison-1', new Uint8Array([0xde, 0xad]));
    await writer.put(widget('c', 1)); // written after the garbage: before the fix the cache never got here

    const setAside: SetAsideEntry[] = [];
    const cache = await startedCache(kind, setAside);
    expect(
      cache
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
    expect(cache.inSync).toBe(true);
    expect(cache.setAsideCount).toBe(1);
    expect(setAside).toMatchObject([{ key: 'default.zz-poison-1', reason: 'envelope' }]);
    expect(String((setAside[0]!.error as Error).message)).toMatch(/cannot be read: not JSON/);

    await writer.put(widget('d', 1));
    await writer.put(widget('a', 2, { spec: { n: 2 } }));
    await waitFor(
      'later changes',
      () =>
        cache.get('default', 'd') !== undefined &&
        cache.get('default', 'a')?.metadata?.resourceVersion === '2',
    );
    expect(cache.inSync).toBe(true);
    expect(setAside).toHaveLength(1); // reported once
  });

  it('over a key that held a good object keeps that object (stale, never absent) until a good value comes', async () => {
    const kind = testKind();
    const { writer, kv } = await mirror(kind, ['pod-1', 'pod-2']);
    const setAside: SetAsideEntry[] = [];
    const cache = await startedCache(kind, setAside);
    const changes: string[] = [];
    cache.onChange((c) => changes.push(`${c.type}:${c.object.metadata?.name}`));

    await kv.put('default.pod-1', new TextEncoder().encode('{"v":2,"object":{}}'));
    await waitFor('the bad value reported', () => setAside.length === 1);
    expect(setAside[0]).toMatchObject({ key: 'default.pod-1', reason: 'envelope' });
    expect(cache.get('default', 'pod-1')?.metadata?.resourceVersion).toBe('1');
    expect(changes).toEqual([]);

    // the watcher writes the object again (any change to it): the key is good again
    await writer.put(widget('pod-1', 5));
    await waitFor('the good value', () => cache.get('default', 'pod-1')?.metadata?.resourceVersion === '5');
    expect(cache.setAsideCount).toBe(0);
    expect(changes).toEqual(['update:pod-1']);
  });

  it('an envelope whose object the program cannot index is set aside as a wrong shape', async () => {
    const kind = testKind();
    const { writer } = await mirror(kind, ['a']);
    const setAside: SetAsideEntry[] = [];
    const cache = await startedCache(kind, setAside);
    await writer.put({
      ...widget('worse', 1),
      metadata: { ...widget('worse', 1).metadata, ownerReferences: { uid: 'x' } },
    } as unknown as KubeObject);
    await writer.put(widget('after', 1));
    await waitFor('the object after it', () => cache.get('default', 'after') !== undefined);
    expect(cache.get('default', 'worse')).toBeUndefined();
    expect(setAside).toMatchObject([{ key: 'default.worse', reason: 'shape' }]);
    expect(
      cache
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'after']);
  });

  it('a watcher restarting on the bucket writes the object over the bad value (the repair)', async () => {
    const kind = testKind();
    const { kv } = await mirror(kind, ['a']);
    await kv.put('default.a', new Uint8Array([0x00]));
    const setAside: SetAsideEntry[] = [];
    const cache = await startedCache(kind, setAside);
    expect(cache.get('default', 'a')).toBeUndefined();

    const restarted = await MirrorWriter.open(await bus('watcher-2'), kind); // used to throw on the bad value
    expect(await restarted.put(widget('a', 1))).toBe(true); // same resourceVersion, written again
    await waitFor('the repaired object', () => cache.get('default', 'a') !== undefined);
    expect(cache.setAsideCount).toBe(0);
  });

  it('a cache whose watch ended is not in sync until it has read its bucket again', async () => {
    const kind = testKind();
    await mirror(kind, ['a']);
    const controller = await connectBus({ servers: inject('cluster').nats!, name: 'controller-closing' });
    const cache = new Cache(controller, kind, { rewatchDelayMs: 100, onError: () => undefined });
    cleanups.push(() => cache.stop());
    await cache.start();
    expect(cache.inSync).toBe(true);
    await controller.close();
    await waitFor('out of sync', () => !cache.inSync);
    expect(cache.hasSynced).toBe(true); // it did sync once; what it holds now is old
  });
});

describe('a value an object watch cannot read', () => {
  it('is set aside; the object stays as last seen and the next good value applies', async () => {
    const kind = testKind();
    const { writer, kv } = await mirror(kind, ['node-1']);
    const seen: (string | undefined)[] = [];
    const setAside: SetAsideEntry[] = [];
    const watch = new ObjectWatch(
      await bus('agent'),
      kind,
      'default',
      'node-1',
      (o) => seen.push(o?.metadata?.resourceVersion),
      {
        rewatchDelayMs: 100,
        onSetAside: (e) => setAside.push(e),
      },
    );
    cleanups.push(() => watch.stop());
    await watch.start();
    await kv.put('default.node-1', new Uint8Array([0xff]));
    await waitFor('reported', () => setAside.length === 1);
    await writer.put(widget('node-1', 2));
    await waitFor('the next good value', () => watch.object?.metadata?.resourceVersion === '2');
    expect(seen).toEqual(['1', '2']);
    expect(setAside).toHaveLength(1);
  });
});
