// The watcher's mirror set started while the bus is not ready (docs/reliability-findings-1-16.md finding 9): it keeps trying,
// as its running mirrors do, instead of failing the watcher; once nats-server is back it follows registrations.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { connectBus, registerKinds, resourceId } from '@regatta/bus';
import { KubeClient } from '@regatta/kube';
import { freePorts, ManagedProcess, natsConfig, startNatsServer } from '@regatta/local-cluster';
import { KINDS } from '@regatta/api';
import { MirrorSet } from './mirror-set.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

function startNats(dir: string, port: number, monitorPort: number): Promise<ManagedProcess> {
  return startNatsServer({
    dir,
    config: natsConfig({ port, monitorPort, storeDir: join(dir, 'js') }),
    monitorPort,
  });
}

describe('MirrorSet started while nats-server is down', () => {
  it('retries its start until the bus is back, then mirrors what a controller registers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'regatta-mirror-set-'));
    const [port, monitor] = (await freePorts(2)) as [number, number];
    let server = await startNats(dir, port, monitor);
    cleanups.push(() => server.stop());
    const bus = await connectBus({ servers: `nats://127.0.0.1:${port}`, name: 'watcher' });
    cleanups.push(() => bus.close());
    const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
    const errors: string[] = [];
    const set = new MirrorSet(client, bus, { onError: (_err, kind) => errors.push(kind), resyncMs: 500 });
    cleanups.push(() => set.stop());

    await server.stop();
    let started = false;
    const start = set.start().then(() => (started = true));
    await expect
      .poll(() => errors.filter((k) => k === 'registrations').length, { timeout: 20_000 })
      .toBeGreaterThan(1);
    expect(started).toBe(false);

    server = await startNats(dir, port, monitor);
    await start;
    const registration = registerKinds(bus, 'sidecarset', 'test-0', [KINDS.namespaces]);
    cleanups.push(() => registration.stop());
    await expect.poll(() => set.running, { timeout: 30_000 }).toContain(resourceId(KINDS.namespaces));
  });

  it('gives up retrying once its signal aborts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'regatta-mirror-set-'));
    const [port, monitor] = (await freePorts(2)) as [number, number];
    const server = await startNats(dir, port, monitor);
    const bus = await connectBus({ servers: `nats://127.0.0.1:${port}`, name: 'watcher' });
    cleanups.push(() => bus.close());
    await server.stop();
    const errors: string[] = [];
    const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
    const set = new MirrorSet(client, bus, { onError: (_err, kind) => errors.push(kind) });
    const abort = new AbortController();
    const start = set.start(abort.signal);
    await expect.poll(() => errors.length, { timeout: 20_000 }).toBeGreaterThan(0);
    abort.abort();
    await start; // resolves: nothing left running
    expect(set.running).toEqual([]);
  });
});
