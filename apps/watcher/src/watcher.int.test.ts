import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { Cache, connectBus, KINDS, registerKinds, type Bus, type KubeObject } from '@regatta/bus';
import { KubeClient } from '@regatta/kube';
import { appEntryPath, freePort, startProgram, waitFor, type ManagedProcess } from '@regatta/local-cluster';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

/** Everything one test needs: its namespace, its bus prefix (own buckets), a client. */
async function setup() {
  const { kubeconfig, nats, dir } = inject('cluster');
  const id = randomBytes(3).toString('hex');
  const ns = `watcher-${id}`;
  const prefix = `t${id}_`;
  const client = KubeClient.fromKubeconfigFile(kubeconfig);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const bus: Bus = await connectBus({ servers: nats!, name: `test-${id}`, prefix });
  cleanups.push(() => bus.close());

  const startWatcher = async (podName: string): Promise<ManagedProcess> => {
    const port = await freePort();
    const p = startProgram({
      name: `watcher-${podName}`,
      entry: appEntryPath('watcher'),
      logFile: join(dir, 'logs', `watcher-${id}-${podName}.log`),
      env: {
        KUBECONFIG: kubeconfig,
        NATS_URL: nats!,
        REGATTA_BUS_PREFIX: prefix,
        REGATTA_LEASE_NAMESPACE: ns,
        REGATTA_HEALTH_ADDR: `127.0.0.1:${port}`,
        POD_NAME: podName,
        LOG_LEVEL: 'info',
      },
    });
    cleanups.push(() => p.stop());
    await waitFor(
      `watcher ${podName} to serve /healthz`,
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok,
      {
        timeoutMs: 30_000,
      },
    );
    return p;
  };

  const registration = await registerKinds(bus, 'test-controller', id, [KINDS.configmaps]);
  cleanups.push(() => registration.stop());
  const cache = new Cache<KubeObject & { data?: Record<string, string> }>(bus, KINDS.configmaps);
  cleanups.push(() => cache.stop());

  /** name → resourceVersion of the namespace's ConfigMaps, as the API server and as the cache see them. */
  const apiState = async () =>
    Object.fromEntries(
      (await client.listAll({ ...CM, namespace: ns })).items.map((o) => [
        o.metadata!.name!,
        o.metadata!.resourceVersion!,
      ]),
    );
  const cacheState = () =>
    Object.fromEntries(
      cache.list({ namespace: ns }).map((o) => [o.metadata!.name!, o.metadata!.resourceVersion!]),
    );
  const converged = async () => {
    const want = await apiState();
    expect(cacheState()).toEqual(want);
  };

  const create = (name: string) =>
    client.create({ ...CM, metadata: { name, namespace: ns }, data: { v: '0' } });
  const update = (name: string, v: string) =>
    client.patch({ ...CM, namespace: ns, name }, { data: { v } }, { type: 'merge' });
  const remove = (name: string) => client.delete({ ...CM, namespace: ns, name });
  return { ns, client, bus, cache, startWatcher, converged, create, update, remove };
}

describe('watcher', () => {
  it("a controller's cache equals the API server after bursts of creates, updates and deletes", async () => {
    const t = await setup();
    await t.startWatcher('a');
    await t.cache.start();
    const names = Array.from({ length: 60 }, (_, i) => `cm-${i}`);
    await Promise.all(names.map(t.create));
    await Promise.all(names.slice(0, 40).map((n) => t.update(n, '1')));
    await Promise.all(names.slice(20, 50).map(t.remove));
    await expect
      .poll(
        () =>
          t.converged().then(
            () => true,
            () => false,
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(t.cache.list({ namespace: t.ns })).toHaveLength(30);
  });

  it('kill -9 of the watcher while objects change, then a restart: caches converge with no stale keys', async () => {
    const t = await setup();
    const first = await t.startWatcher('a');
    await t.cache.start();
    await Promise.all(Array.from({ length: 20 }, (_, i) => t.create(`before-${i}`)));
    await expect.poll(() => t.cache.list({ namespace: t.ns }).length, { timeout: 20_000 }).toBe(20);

    first.killNow();
    await first.exited;
    // changes the watcher never sees as events: deletes, updates and creates while it is down
    await Promise.all(Array.from({ length: 10 }, (_, i) => t.remove(`before-${i}`)));
    await Promise.all(Array.from({ length: 5 }, (_, i) => t.update(`before-${10 + i}`, 'while-down')));
    await Promise.all(Array.from({ length: 5 }, (_, i) => t.create(`during-${i}`)));

    await t.startWatcher('b');
    await expect
      .poll(
        () =>
          t.converged().then(
            () => true,
            () => false,
          ),
        { timeout: 40_000 },
      )
      .toBe(true);
    expect(t.cache.get(t.ns, 'before-0')).toBeUndefined();
    expect(t.cache.get(t.ns, 'before-10')?.data?.['v']).toBe('while-down');
  });

  it('a standby takes over within 15 s of the leader dying, and no change is lost', async () => {
    const t = await setup();
    const watchers = { a: await t.startWatcher('a'), b: await t.startWatcher('b') };
    await t.cache.start();
    const holder = async () =>
      (
        (await t.client.getOrUndefined({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          namespace: t.ns,
          name: 'regatta-watcher',
        })) as { spec?: { holderIdentity?: string } } | undefined
      )?.spec?.holderIdentity;
    const leader = (await waitFor('a leader', holder, { timeoutMs: 30_000 })) as 'a' | 'b';
    await t.create('seen-by-first-leader');
    await expect.poll(() => t.cache.get(t.ns, 'seen-by-first-leader'), { timeout: 20_000 }).toBeDefined();

    watchers[leader].killNow();
    const killedAt = Date.now();
    await t.create('after-failover');
    await expect
      .poll(() => t.cache.get(t.ns, 'after-failover'), { timeout: 30_000, interval: 100 })
      .toBeDefined();
    const failoverMs = Date.now() - killedAt;
    expect(await holder()).toBe(leader === 'a' ? 'b' : 'a');
    expect(failoverMs).toBeLessThan(15_000);
    await t.converged();
  });

  it('mirrors only what controllers registered: no registration, no bucket', async () => {
    const t = await setup();
    await t.startWatcher('a');
    await t.cache.start(); // configmaps are registered by setup()
    const pods = new Cache(t.bus, KINDS.pods, { rewatchDelayMs: 100 });
    cleanups.push(() => pods.stop());
    const started = pods.start().then(() => 'synced');
    const outcome = await Promise.race([started, new Promise((r) => setTimeout(() => r('no bucket'), 3000))]);
    expect(outcome).toBe('no bucket');
  });
});
