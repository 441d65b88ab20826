import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { Cache, connectBus, type Bus } from '@regatta/bus';
import { KubeClient } from '@regatta/kube';
import { freePorts, ManagedProcess, natsConfig, startNatsServer } from '@regatta/local-cluster';
import { KINDS } from '@regatta/api';
import { KindMirror } from './kind-mirror.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** A nats-server of this test's own, so it can be stopped without disturbing other files. */
function startNats(dir: string, port: number, monitorPort: number): Promise<ManagedProcess> {
  return startNatsServer({ dir, config: natsConfig({ port, monitorPort, storeDir: join(dir, 'js') }), monitorPort });
}

describe('KindMirror', () => {
  it('writes that fail while the bus is down are retried; meanwhile it reports itself behind (issue 8)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'regatta-mirror-'));
    const [port, monitor] = (await freePorts(2)) as [number, number];
    let server = await startNats(dir, port, monitor);
    cleanups.push(() => server.stop());
    const url = `nats://127.0.0.1:${port}`;
    const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
    const ns = `mirror-${randomBytes(3).toString('hex')}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const create = (name: string) =>
      client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: { v: '1' } });

    const bus: Bus = await connectBus({ servers: url, name: 'watcher' });
    cleanups.push(() => bus.close());
    const errors: unknown[] = [];
    const mirror = await KindMirror.start(client, bus, KINDS.configmaps, {
      onError: (err) => errors.push(err),
      retryMs: 200,
      staleAfterMs: 2_000,
    });
    cleanups.push(() => mirror.stop());
    await create('before');
    const cache = new Cache(bus, KINDS.configmaps, { rewatchDelayMs: 200 });
    cleanups.push(() => cache.stop());
    await cache.start();
    await expect.poll(() => cache.get(ns, 'before'), { timeout: 15_000 }).toBeDefined();
    // the object can reach the bus before the mirror marks its first list done
    await expect.poll(() => mirror.lagReason(), { timeout: 30_000 }).toBeUndefined();

    await server.stop();
    await create('while-down');
    await expect.poll(() => mirror.lagReason(), { timeout: 20_000 }).toMatch(/writes failing/);

    server = await startNats(dir, port, monitor);
    await expect.poll(() => cache.get(ns, 'while-down'), { timeout: 30_000 }).toBeDefined();
    await expect.poll(() => mirror.lagReason(), { timeout: 10_000 }).toBeUndefined();
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe('KindMirror on an empty bus (docs/adr/0057)', () => {
  it('a cache started while the mirror fills the bucket syncs only with the whole kind in it', async () => {
    const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
    const ns = `mirror-${randomBytes(3).toString('hex')}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const n = 300;
    for (let i = 0; i < n; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i + k}`, namespace: ns } }),
        ),
      );
    // a bus prefix nothing was mirrored under: the first list writes every object into an empty bucket
    const prefix = `fill${randomBytes(3).toString('hex')}_`;
    const bus: Bus = await connectBus({ servers: inject('cluster').nats!, name: 'watcher', prefix });
    cleanups.push(() => bus.close());
    const mirror = await KindMirror.start(client, bus, KINDS.configmaps, { onError: () => undefined });
    cleanups.push(() => mirror.stop());
    const cache = new Cache(bus, KINDS.configmaps, { rewatchDelayMs: 50 });
    cleanups.push(() => cache.stop());
    await cache.start();
    // what a controller sees the moment it may act: every ConfigMap made above, not the first few
    expect(cache.list({ namespace: ns, filter: (o) => o.metadata?.name?.startsWith('cm-') === true })).toHaveLength(n);
  });
});
