// ObjectWatch while its bucket does not exist yet (the watcher has not created it, or the bus prefix is wrong): it
// waits quietly, and a stop ends the wait, so a node agent told to stop before its first sync exits.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { connectBus, ObjectWatch, type Bus, type KindRef } from './index.js';

const buses: Bus[] = [];
afterEach(async () => {
  for (const b of buses.splice(0)) await b.close();
});

describe('ObjectWatch on a bucket that does not exist', () => {
  it('reports no error while it waits, and start() returns once stop() is called, unsynced', async () => {
    const { nats } = inject('cluster');
    const bus = await connectBus({ servers: nats!, name: 'agent', prefix: `t${randomBytes(3).toString('hex')}_` });
    buses.push(bus);
    const kind: KindRef = { group: 'test.regatta.dev', version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: false };
    const errors: unknown[] = [];
    const w = new ObjectWatch(bus, kind, undefined, 'n1', () => undefined, {
      onError: (e) => errors.push(e),
      rewatchDelayMs: 50,
    });
    let started = false;
    const starting = w.start().then(() => (started = true));
    await sleep(500); // about ten rounds of waiting
    expect(started).toBe(false);
    await w.stop();
    await starting;
    expect(w.hasSynced).toBe(false);
    expect(errors).toEqual([]);
  });
});
