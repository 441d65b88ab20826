import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  freePorts,
  locateBinaries,
  ManagedProcess,
  natsConfig,
  newNatsAuth,
  waitFor,
  type NatsAuth,
} from '@regatta/local-cluster';
import {
  BusUnavailableError,
  Cache,
  connectBus,
  KINDS,
  MirrorWriter,
  readRegistrations,
  registerKinds,
  type Bus,
} from './index.js';

// A nats-server of its own with the bus's two roles, as the sandbox and a cluster install run it.
let server: ManagedProcess;
let url: string;
let auth: NatsAuth;
const buses: Bus[] = [];

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'regatta-nats-auth-'));
  const [port, monitor] = (await freePorts(2)) as [number, number];
  auth = newNatsAuth('');
  await writeFile(
    join(dir, 'nats.conf'),
    natsConfig({ port, monitorPort: monitor, storeDir: join(dir, 'js'), auth }),
  );
  server = ManagedProcess.start({
    name: 'nats',
    command: locateBinaries().natsServer,
    args: ['-c', join(dir, 'nats.conf')],
    logFile: join(dir, 'nats.log'),
  });
  url = `nats://127.0.0.1:${port}`;
  await waitFor('nats-server', async () => (await fetch(`http://127.0.0.1:${monitor}/healthz`)).ok);
});

afterAll(async () => {
  for (const b of buses) await b.close();
  await server.stop();
});

async function as(role: 'watcher' | 'controller'): Promise<Bus> {
  const b = await connectBus({ servers: url, name: role, user: auth[role].user, pass: auth[role].password });
  buses.push(b);
  return b;
}

describe('bus credentials', () => {
  it('the watcher writes mirrors; a controller reads them and registers its kinds', async () => {
    const watcher = await as('watcher');
    const writer = await MirrorWriter.open(watcher, KINDS.configmaps);
    await writer.put({ metadata: { namespace: 'ns', name: 'a', resourceVersion: '1' } });
    await readRegistrations(watcher); // the watcher creates the registrations bucket

    const controller = await as('controller');
    const cache = new Cache(controller, KINDS.configmaps);
    await cache.start();
    expect(cache.get('ns', 'a')).toBeDefined();
    const reg = registerKinds(controller, 'cloneset', 'pod-0', [KINDS.pods]);
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
    const cache = new Cache(watcher, KINDS.configmaps);
    await cache.start();
    expect(cache.get('ns', 'forged')).toBeUndefined();
    await cache.stop();
  });

  it('an anonymous client is refused with a clear error', async () => {
    const err = await connectBus({ servers: url, name: 'anonymous', connectTimeoutMs: 2000 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BusUnavailableError);
    expect((err as Error).message).toMatch(/[Aa]uthorization/);
  });
});
