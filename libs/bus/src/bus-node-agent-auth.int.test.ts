// A node agent's bus user (docs/adr/0032): it reads its own node's NodeImage key and nothing else of the bus —
// not another node's key, not the whole bucket, not another mirror, not other programs' inbox deliveries.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager, AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import {
  freePorts,
  startNatsServer,
  ManagedProcess,
  natsConfig,
  newNatsAuth,
  type NatsAuth,
} from '@regatta/local-cluster';
import { KIND_TABLE } from '@regatta/kube';
import { bucketName, Cache, connectBus, MirrorWriter, ObjectWatch, readRegistrations, registerKinds, REGISTRATIONS_BUCKET, type Bus, type KubeObject } from './index.js';

let server: ManagedProcess;
let url: string;
let auth: NatsAuth;
const buses: Bus[] = [];
const BUCKET = bucketName(KIND_TABLE.nodeimages);

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'regatta-nats-agent-auth-'));
  const [port, monitor] = (await freePorts(2)) as [number, number];
  auth = newNatsAuth('', { nodes: ['n1', 'n2.example', 'n3'], bucket: BUCKET, registration: (n) => `imagepull.agent-${n.replaceAll('.', '-')}` });
  const config = natsConfig({ port, monitorPort: monitor, storeDir: join(dir, 'js'), auth });
  server = await startNatsServer({ dir, config, monitorPort: monitor });
  url = `nats://127.0.0.1:${port}`;
  const watcher = await as('watcher');
  const nodeImages = await MirrorWriter.open(watcher, KIND_TABLE.nodeimages);
  for (const name of ['n1', 'n2.example']) await nodeImages.put({ metadata: { name, resourceVersion: '1' } });
  const configMaps = await MirrorWriter.open(watcher, KIND_TABLE.configmaps);
  await configMaps.put({ metadata: { namespace: 'ns', name: 'a', resourceVersion: '1' } });
  await readRegistrations(watcher); // creates the registrations bucket
});

afterAll(async () => {
  for (const b of buses) await b.close();
  await server.stop();
});

async function as(role: 'watcher' | 'cloneset'): Promise<Bus> {
  const u = role === 'watcher' ? auth.watcher : auth.controllers![role]!;
  const b = await connectBus({ servers: url, name: role, user: u.user, pass: u.password });
  buses.push(b);
  return b;
}

async function agent(node: string): Promise<Bus> {
  const a = auth.nodeAgents![node]!;
  const b = await connectBus({ servers: url, name: `agent-${node}`, user: a.user, pass: a.password, inboxPrefix: a.inboxPrefix });
  buses.push(b);
  return b;
}

function watchOne(bus: Bus, name: string): { w: ObjectWatch; seen: (KubeObject | undefined)[]; errors: unknown[] } {
  const seen: (KubeObject | undefined)[] = [];
  const errors: unknown[] = [];
  const w = new ObjectWatch(bus, KIND_TABLE.nodeimages, undefined, name, (o) => seen.push(o), {
    onError: (e) => errors.push(e),
    rewatchDelayMs: 200,
  });
  return { w, seen, errors };
}

describe('node agent bus credentials', () => {
  it('watches its own NodeImage key: the current value, then changes', async () => {
    const bus = await agent('n1');
    const { w, seen } = watchOne(bus, 'n1');
    await w.start();
    expect(w.object?.metadata?.name).toBe('n1');
    const writer = await MirrorWriter.open(await as('watcher'), KIND_TABLE.nodeimages);
    await writer.put({ metadata: { name: 'n1', resourceVersion: '2' } });
    await expect.poll(() => w.object?.metadata?.resourceVersion, { timeout: 10_000 }).toBe('2');
    expect(seen.map((o) => o?.metadata?.resourceVersion)).toEqual(['1', '2']);
    await w.stop();
  });

  it('its NodeImage not there yet: synced as absent, then it arrives', async () => {
    const bus = await agent('n3');
    const { w } = watchOne(bus, 'n3');
    await w.start();
    expect(w.hasSynced).toBe(true);
    expect(w.object).toBeUndefined();
    const writer = await MirrorWriter.open(await as('watcher'), KIND_TABLE.nodeimages);
    await writer.put({ metadata: { name: 'n3', resourceVersion: '7' } });
    await expect.poll(() => w.object?.metadata?.resourceVersion, { timeout: 10_000 }).toBe('7');
    await w.stop();
  });

  it('cannot read another node key, the whole bucket, nor another mirror', async () => {
    const bus = await agent('n1');
    const kv = await bus.kvm.open(BUCKET, { allow_direct: true });
    await expect(kv.get('_.n2.example')).rejects.toThrow(/[Pp]ermission|timeout/i);
    const other = watchOne(bus, 'n2.example');
    void other.w.start();
    await expect.poll(() => other.errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(other.w.object).toBeUndefined();
    await other.w.stop();

    const cache = new Cache(bus, KIND_TABLE.configmaps, { rewatchDelayMs: 200 });
    const errors: unknown[] = [];
    const c2 = new Cache(bus, KIND_TABLE.nodeimages, { rewatchDelayMs: 200, onError: (e) => errors.push(e) });
    void c2.start();
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(c2.size).toBe(0);
    await c2.stop();
    void cache.start();
    await new Promise((r) => setTimeout(r, 1000));
    expect(cache.size).toBe(0);
    await cache.stop();
  });

  it('a consumer on its key subject with a wider filter in the body is refused; subscribing to other inboxes is not allowed', async () => {
    const bus = await agent('n1');
    const a = auth.nodeAgents!['n1']!;
    const jsm = await jetstreamManager(bus.nc, { watcherPrefix: a.inboxPrefix });
    const own = `$KV.${BUCKET}._.n1`;
    // the API subject names the key; the body asks for every key
    const res = await bus.nc.request(
      `$JS.API.CONSUMER.CREATE.KV_${BUCKET}.forged.${own}`,
      JSON.stringify({
        stream_name: `KV_${BUCKET}`,
        config: {
          name: 'forged',
          filter_subject: `$KV.${BUCKET}.>`,
          ack_policy: AckPolicy.None,
          deliver_policy: DeliverPolicy.All,
          deliver_subject: `${a.inboxPrefix}.forged`,
        },
      }),
      { timeout: 5000 },
    );
    expect(JSON.parse(new TextDecoder().decode(res.data))).toMatchObject({ error: expect.anything() });
    await expect(jsm.consumers.info(`KV_${BUCKET}`, 'forged')).rejects.toThrow();
    // the default inbox, where other programs' KV watches deliver, is not subscribable
    const sub = bus.nc.subscribe('_INBOX.>');
    const closed = await sub.closed.then(
      () => 'closed',
      (e: unknown) => String(e),
    );
    expect(closed).toMatch(/[Pp]ermission|closed/);
  });

  it('writes only its own registration key', async () => {
    const bus = await agent('n2.example');
    const reg = registerKinds(bus, 'imagepull', 'agent-n2.example', [KIND_TABLE.nodeimages]);
    const watcher = await as('watcher');
    await expect
      .poll(async () => (await readRegistrations(watcher)).map((r) => `${r.controller}.${r.instance}`), { timeout: 10_000 })
      .toContain('imagepull.agent-n2-example');
    await reg.stop();
    const kv = await bus.kvm.open(REGISTRATIONS_BUCKET);
    await expect(kv.put('imagepull.agent-n1', '{}')).rejects.toThrow(/[Pp]ermission/);
    await expect(kv.put('cloneset.x', '{}')).rejects.toThrow(/[Pp]ermission/);
  });
});
