import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { Cache, connectBus, registerKinds, REGISTRATIONS_BUCKET, type Bus, type KubeObject } from '@regatta/bus';
import { KIND_TABLE, KubeClient, type CoreEvent } from '@regatta/kube';
import { appEntryPath, freePort, startProgram, waitFor, type ManagedProcess } from '@regatta/local-cluster';
import { programKubeconfig } from '@regatta/testing';
import { createPodFromProtobuf, createPodFromYaml, largePodProtobuf, largePodYaml } from './testing/large-pods.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const ROOT_CA = 'kube-root-ca.crt';

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

  const ports = new Map<string, number>();
  // the watcher runs on its chart ServiceAccount, as the scenario programs do (docs/adr/0054)
  const watcherKubeconfig = await programKubeconfig({ app: 'watcher', adminKubeconfig: kubeconfig, leaseNamespace: ns });
  const startWatcher = async (podName: string): Promise<ManagedProcess> => {
    const port = await freePort();
    ports.set(podName, port);
    const p = startProgram({
      name: `watcher-${podName}`,
      entry: appEntryPath('watcher'),
      logFile: join(dir, 'logs', `watcher-${id}-${podName}.log`),
      env: {
        KUBECONFIG: watcherKubeconfig,
        NATS_URL: nats!,
        REGATTA_BUS_PREFIX: prefix,
        REGATTA_LEASE_NAMESPACE: ns,
        REGATTA_HEALTH_ADDR: `127.0.0.1:${port}`,
        POD_NAME: podName,
        LOG_LEVEL: 'info',
        // this file's stand-in controller (docs/adr/0009)
        REGATTA_MIRROR_ALLOW: 'test-controller=configmaps.v1,pods.v1',
      },
    });
    cleanups.push(() => p.stop());
    await waitFor(
      `watcher ${podName} to serve /healthz`,
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok,
      {
        // a limit for a wedged start, not a speed check: a Node start takes tens of seconds on a loaded machine
        timeoutMs: 120_000,
      },
    );
    return p;
  };

  const registration = await registerKinds(bus, 'test-controller', id, [KIND_TABLE.configmaps]);
  cleanups.push(() => registration.stop());
  const cache = new Cache<KubeObject & { data?: Record<string, string> }>(bus, KIND_TABLE.configmaps);
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
  /** A watcher's endpoint (`/metrics`, `/readyz`). */
  const health = (podName: string, path: string) => fetch(`http://127.0.0.1:${ports.get(podName)}${path}`);
  return { id, ns, client, bus, cache, startWatcher, health, converged, create, update, remove };
}

describe('watcher', { timeout: 300_000 }, () => {
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
    // kube-controller-manager publishes kube-root-ca.crt into every namespace, as in any cluster
    expect(t.cache.list({ namespace: t.ns }).filter((o) => o.metadata?.name !== ROOT_CA)).toHaveLength(30);
  });

  it('many quick changes to one object reach the cache in order, the last winning, while other objects change too (docs/adr/0052)', async () => {
    const t = await setup();
    await t.startWatcher('a');
    await t.cache.start();
    const others = Array.from({ length: 20 }, (_, i) => `other-${i}`);
    await Promise.all(['hot', ...others].map(t.create));
    await expect
      .poll(() => t.cache.list({ namespace: t.ns }).filter((o) => o.metadata?.name !== ROOT_CA).length, {
        timeout: 20_000,
      })
      .toBe(21);
    /** the resourceVersions of "hot" the cache applied, in order (etcd revisions: numbers, compared only here) */
    const hot: bigint[] = [];
    let othersDuringHot = 0;
    t.cache.onChange((c) => {
      if (c.object.metadata?.namespace !== t.ns) return;
      if (c.object.metadata.name === 'hot') hot.push(BigInt(c.object.metadata.resourceVersion!));
      else if (hot.length > 0 && c.type === 'update') othersDuringHot++;
    });
    // 100 patches of one object all in flight at once (the API server orders them) among 60 changes of the others
    await Promise.all([
      ...Array.from({ length: 100 }, (_, i) => t.update('hot', String(i + 1))),
      ...others.flatMap((n) => ['1', '2', '3'].map((v) => t.update(n, v))),
    ]);
    await expect
      .poll(
        () =>
          t.converged().then(
            () => true,
            () => false,
          ),
        { timeout: 30_000 },
      )
      .toBe(true);
    // never an older version after a newer one, and the last one wins
    expect(hot.every((rv, i) => i === 0 || rv > hot[i - 1]!)).toBe(true);
    const last = await t.client.get<KubeObject & { data?: Record<string, string> }>({ ...CM, namespace: t.ns, name: 'hot' });
    expect(hot.at(-1)).toBe(BigInt(last.metadata!.resourceVersion!));
    expect(t.cache.get(t.ns, 'hot')?.data).toEqual(last.data);
    // the others were not held behind the hot object's queue
    expect(othersDuringHot).toBeGreaterThan(0);
  });

  it('kill -9 of the watcher while objects change, then a restart: caches converge with no stale keys', async () => {
    const t = await setup();
    const first = await t.startWatcher('a');
    await t.cache.start();
    await Promise.all(Array.from({ length: 20 }, (_, i) => t.create(`before-${i}`)));
    await expect
      .poll(() => t.cache.list({ namespace: t.ns }).filter((o) => o.metadata?.name !== ROOT_CA).length, {
        timeout: 20_000,
      })
      .toBe(20);

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
    const pods = new Cache(t.bus, KIND_TABLE.pods, { rewatchDelayMs: 100 });
    cleanups.push(() => pods.stop());
    const started = pods.start().then(() => 'synced');
    const outcome = await Promise.race([started, new Promise((r) => setTimeout(() => r('no bucket'), 3000))]);
    expect(outcome).toBe('no bucket');
  });
});

/** The value of one sample of the watcher's metrics, 0 when absent. */
async function metric(res: Response, name: string, labels: string): Promise<number> {
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('watcher: what it must not mirror never stops the rest (issue 8)', { timeout: 300_000 }, () => {
  it('a pod too large for the bus is set aside (metric, event); every other pod, a 4.4 MB one included, is mirrored', async () => {
    const t = await setup();
    const pods = new Cache<KubeObject>(t.bus, KIND_TABLE.pods);
    cleanups.push(() => pods.stop());
    const reg = registerKinds(t.bus, 'test-controller', `${t.id}-pods`, [KIND_TABLE.pods]);
    cleanups.push(() => reg.stop());
    const small = (name: string) =>
      t.client.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: t.ns },
        spec: { schedulerName: 'no-such-scheduler', containers: [{ name: 'c', image: 'busybox' }] },
      });
    // before the watcher starts (its list meets them) …
    await Promise.all(['a-0', 'a-1', 'a-2'].map(small));
    await createPodFromYaml(t.client, t.ns, largePodYaml(t.ns, 'big', 740_000));
    await createPodFromProtobuf(t.client, t.ns, largePodProtobuf(t.ns, 'too-big-0', 1_450_000));
    await small('a-3');
    await t.startWatcher('a');
    await pods.start();
    // … and after (its watch meets them)
    await createPodFromProtobuf(t.client, t.ns, largePodProtobuf(t.ns, 'too-big-1', 1_450_000));
    await Promise.all(['b-0', 'b-1'].map(small));

    const names = () => pods.list({ namespace: t.ns }).map((p) => p.metadata!.name!).sort();
    await expect.poll(names, { timeout: 30_000 }).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'b-0', 'b-1', 'big']);
    const env = ((pods.get(t.ns, 'big') as { spec?: unknown } | undefined)?.spec as { containers: { env: { value: string }[] }[] }).containers[0]!
      .env[0]!.value;
    expect(env).toHaveLength(740_000);
    await expect
      .poll(async () => metric(await t.health('a', '/metrics'), 'regatta_mirror_objects_skipped_total', 'kind="pods.v1",reason="too_large"'), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(
        async () => [
          // a re-list after a watch interruption (seen under load) sets the pod aside, and says so, once more
          ...new Set(
            (await t.client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: t.ns })).items
              .filter((e) => e.reason === 'TooLargeForBus')
              .map((e) => e.involvedObject.name)
              .sort(),
          ),
        ],
        { timeout: 10_000 },
      )
      .toEqual(['too-big-0', 'too-big-1']);
    // set aside for good is not "behind": the watcher stays ready
    expect((await t.health('a', '/readyz')).status).toBe(200);
  });

  it('refuses Secrets for a controller not allowed them and malformed registrations, and mirrors the rest', async () => {
    const t = await setup();
    // registrations as a buggy or hostile controller writes them, already there when the watcher starts
    const kv = await t.bus.kvm.create(`${t.bus.prefix}${REGISTRATIONS_BUCKET}`, { history: 1 });
    await kv.put('garbage.x', 'this is not json');
    await kv.put('cloneset.evil', JSON.stringify({ kinds: [{ ...KIND_TABLE.secrets, kind: 'secret' }] }));
    await kv.put('test-controller.spoof', JSON.stringify({ controller: 'resourcedistribution', kinds: [KIND_TABLE.secrets] }));
    await t.client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: t.ns }, stringData: { p: 'hunter2' } });
    await t.create('visible');
    await t.startWatcher('a');
    await t.cache.start();
    await expect.poll(() => t.cache.get(t.ns, 'visible'), { timeout: 30_000 }).toBeDefined();
    const refused = async (reason: string) =>
      metric(await t.health('a', '/metrics'), 'regatta_mirror_registrations_refused_total', `reason="${reason}"`);
    await expect.poll(() => refused('invalid'), { timeout: 10_000 }).toBe(2);
    expect(await refused('not_allowed')).toBe(1);
    // no bucket of Secrets was ever created
    await expect(t.bus.kvm.open(`${t.bus.prefix}mirror_secrets_v1_core`).then((b) => b.status())).rejects.toThrow(
      /not found/i,
    );
  });
});
