import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import {
  freePorts,
  startNatsServer,
  ManagedProcess,
  natsConfig,
  newNatsAuth,
  type NatsAuth,
} from '@regatta/local-cluster';
import { KIND_TABLE } from '@regatta/kube';
import { BusRefusedError, Cache, connectBus, MirrorWriter, readRegistrations, registerKinds, REGISTRATIONS_BUCKET, type Bus } from './index.js';

/** A writer whose bucket says a complete list is in it, as the watcher's does after its first list: caches sync. */
async function listedWriter(...args: Parameters<typeof MirrorWriter.open>): Promise<MirrorWriter> {
  const w = await MirrorWriter.open(...args);
  await w.markListed();
  return w;
}

// A nats-server of its own with the bus's two roles, as the sandbox and a cluster install run it.
let server: ManagedProcess;
let url: string;
let auth: NatsAuth;
const buses: Bus[] = [];

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'regatta-nats-auth-'));
  const [port, monitor] = (await freePorts(2)) as [number, number];
  auth = newNatsAuth('');
  const config = natsConfig({ port, monitorPort: monitor, storeDir: join(dir, 'js'), auth });
  server = await startNatsServer({ dir, config, monitorPort: monitor });
  url = `nats://127.0.0.1:${port}`;
});

afterAll(async () => {
  for (const b of buses) await b.close();
  await server.stop();
});

async function as(role: 'watcher' | 'controller' | 'cloneset' | 'resourcedistribution'): Promise<Bus> {
  const u = role === 'watcher' || role === 'controller' ? auth[role] : auth.controllers![role]!;
  const b = await connectBus({ servers: url, name: role, user: u.user, pass: u.password });
  buses.push(b);
  return b;
}

describe('bus credentials', () => {
  it('the watcher writes mirrors; a controller reads them and registers its kinds', async () => {
    const watcher = await as('watcher');
    const writer = await listedWriter(watcher, KIND_TABLE.configmaps);
    await writer.put({ metadata: { namespace: 'ns', name: 'a', resourceVersion: '1' } });
    await readRegistrations(watcher); // the watcher creates the registrations bucket

    const controller = await as('cloneset');
    const cache = new Cache(controller, KIND_TABLE.configmaps);
    await cache.start();
    expect(cache.get('ns', 'a')).toBeDefined();
    const reg = registerKinds(controller, 'cloneset', 'pod-0', [KIND_TABLE.pods]);
    await expect
      .poll(async () => (await readRegistrations(watcher)).map((r) => r.controller), { timeout: 10_000 })
      .toContain('cloneset');
    await reg.stop();
    await cache.stop();
  });

  it('a controller may not write, create or delete mirror buckets', async () => {
    const controller = await as('controller');
    const kv = await controller.kvm.open(`mirror_configmaps_v1_core`);
    await expect(kv.put('ns.forged', '{}')).rejects.toThrow(/[Pp]ermission/);
    await expect(controller.kvm.create('mirror_forged_v1_core', {})).rejects.toThrow(
      /[Pp]ermission|timeout/i,
    );
    const jsm = await jetstreamManager(controller.nc);
    await expect(jsm.streams.delete('KV_mirror_configmaps_v1_core')).rejects.toThrow(
      /[Pp]ermission|timeout/i,
    );
    const watcher = await as('watcher');
    const cache = new Cache(watcher, KIND_TABLE.configmaps);
    await cache.start();
    expect(cache.get('ns', 'forged')).toBeUndefined();
    await cache.stop();
  });

  it("a controller writes only its own registration key, cannot roll the bucket up, nor delete others' consumers", async () => {
    const watcher = await as('watcher');
    await readRegistrations(watcher);
    const regs = await watcher.kvm.open(REGISTRATIONS_BUCKET);
    await regs.put('resourcedistribution.pod-0', JSON.stringify({ kinds: [KIND_TABLE.secrets] }));

    const cloneset = await as('cloneset');
    const kv = await cloneset.kvm.open(REGISTRATIONS_BUCKET);
    await kv.put('cloneset.pod-1', JSON.stringify({ kinds: [KIND_TABLE.pods] }));
    await expect(kv.put('resourcedistribution.pod-1', '{}')).rejects.toThrow(/[Pp]ermission/);
    await expect(kv.delete('resourcedistribution.pod-0')).rejects.toThrow(/[Pp]ermission/);
    // the reader role registers nothing
    const reader = await (await as('controller')).kvm.open(REGISTRATIONS_BUCKET);
    await expect(reader.put('cloneset.pod-2', '{}')).rejects.toThrow(/[Pp]ermission/);

    // `Nats-Rollup: all` on its own key would purge every key of the stream: the stream refuses rollups
    const js = jetstream(cloneset.nc);
    const h = headers();
    h.set('Nats-Rollup', 'all');
    await expect(js.publish(`$KV.${REGISTRATIONS_BUCKET}.cloneset.pod-1`, '{}', { headers: h })).rejects.toThrow(
      /rollup/i,
    );
    expect(new TextDecoder().decode((await regs.get('resourcedistribution.pod-0'))!.value)).toContain('secrets');

    // a watcher's consumer (a KV watch) cannot be deleted by a controller
    const it = await regs.watch();
    const consumers = await (await jetstreamManager(watcher.nc)).consumers.list(`KV_${REGISTRATIONS_BUCKET}`).next();
    expect(consumers.length).toBeGreaterThan(0);
    const jsm = await jetstreamManager(cloneset.nc);
    await expect(jsm.consumers.delete(`KV_${REGISTRATIONS_BUCKET}`, consumers[0]!.name)).rejects.toThrow(
      /[Pp]ermission|timeout/i,
    );
    it.stop();
  });

  it('an anonymous client is refused with a clear error', async () => {
    const err = await connectBus({ servers: url, name: 'anonymous', connectTimeoutMs: 2000 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BusRefusedError);
    expect((err as BusRefusedError).code).toBe('REGATTA_BUS_REFUSED');
    expect((err as Error).message).toMatch(/[Aa]uthorization/);
  });
});
