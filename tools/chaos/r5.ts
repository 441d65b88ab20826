// R5, least privilege and secrets, against the run's nats-server with the bus users the suite configures as the
// sandbox does (libs/local-cluster natsConfig: a watcher user, a reader, one user per controller, one per node agent):
// every credential is tried at what its role must not do; a Secret is created (mirrored for a registration of the
// resourcedistribution user, no ResourceDistribution program running) and every value of every bucket is searched
// for its data; every program's listening sockets are read from /proc and compared with the addresses it was given.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { KINDS } from '@regatta/api';
import {
  bucketName,
  Cache,
  connectBus,
  ObjectWatch,
  objectKey,
  registerKinds,
  REGISTRATIONS_BUCKET,
  type Bus,
} from '@regatta/bus';
import { readPidRecords, type NatsAuth, type NatsUser } from '@regatta/local-cluster';
import type { Violation } from './checker.js';
import { listeningOf, unexpectedListeners } from './listen.js';
import type { CheckResult } from './report.js';
import { secretLeaks } from './secret-scan.js';
import type { World } from './world.js';

const ATTEMPT_MS = 5000;
/** A refusal: nats-server's permissions violation, or no answer (a request the server drops is never answered). */
const REFUSED = /permission|authorization|timeout|TIMEOUT/i;

/** What happened when a credential tried something: `refused`, `ALLOWED`, or another error (inconclusive). */
async function attempt(fn: () => Promise<unknown>): Promise<'refused' | 'ALLOWED' | string> {
  try {
    await Promise.race([
      fn(),
      sleep(ATTEMPT_MS).then(() => {
        throw new Error('timeout');
      }),
    ]);
    return 'ALLOWED';
  } catch (err) {
    const msg =
      err instanceof Error ? `${err.message} ${String((err as { code?: unknown }).code ?? '')}` : String(err);
    return REFUSED.test(msg) ? 'refused' : `error: ${msg.slice(0, 120)}`;
  }
}

export interface R5Options {
  auth: NatsAuth;
  natsUrl: string;
  /** The nodes given agent users (their NodeImages are created here). */
  agentNodes: [string, string];
}

export async function checkLeastPrivilege(w: World, o: R5Options): Promise<CheckResult> {
  const figures: [string, string][] = [];
  const violations: Violation[] = [];
  const notes: string[] = [];
  const buses: Bus[] = [];
  const connect = async (name: string, u: NatsUser & { inboxPrefix?: string }) => {
    const b = await connectBus({
      servers: o.natsUrl,
      name: `chaos-r5-${name}`,
      user: u.user,
      pass: u.password,
      prefix: '',
      ...(u.inboxPrefix ? { inboxPrefix: u.inboxPrefix } : {}),
    });
    buses.push(b);
    return b;
  };
  const expectRefused = async (what: string, fn: () => Promise<unknown>) => {
    const r = await attempt(fn);
    figures.push([what, r]);
    if (r !== 'refused')
      violations.push({ kind: 'privilege', at: w.now(), count: 1, detail: `${what}: ${r}` });
  };
  const expectAllowed = async (what: string, fn: () => Promise<unknown>) => {
    const r = await attempt(fn);
    figures.push([what, r === 'ALLOWED' ? 'allowed' : r]);
    if (r !== 'ALLOWED')
      violations.push({
        kind: 'privilege',
        at: w.now(),
        count: 1,
        detail: `${what} (its role needs it): ${r}`,
      });
  };
  const cleanups: (() => Promise<unknown>)[] = [];
  const programs = [w.watcher, ...w.controllers.values()];
  const crashesBefore = programs.reduce((n, p) => n + p.crashes.length, 0);
  try {
    const watcher = await connect('watcher', o.auth.watcher);
    const podsBucket = bucketName(KINDS.pods);
    // a key the watcher wrote: any pod of the run (R5 makes one if there is none)
    await w.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'chaos-r5' } });
    cleanups.push(() => w.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: 'chaos-r5' }));
    await w.client.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'probe', namespace: 'chaos-r5' },
      spec: { containers: [{ name: 'main', image: 'nginx:1.27.3' }] },
    });
    const podKey = objectKey('chaos-r5', 'probe');
    const wkv = await watcher.kvm.open(podsBucket);
    await until(
      'the watcher to mirror pod chaos-r5/probe',
      async () => !!(await wkv.get(podKey))?.value.length,
    );

    // 1. controllers: reads only; no put, delete, purge, bucket create or stream delete
    const controllerUsers: [string, NatsUser][] = [
      ['cloneset', o.auth.controllers?.['cloneset'] ?? o.auth.controller],
      ['reader', o.auth.controller],
    ];
    for (const [name, u] of controllerUsers) {
      const c = await connect(name, u);
      const kv = await c.kvm.open(podsBucket);
      await expectAllowed(`${name} user: get a mirror key`, async () => {
        if (!(await kv.get(podKey))?.value.length) throw new Error('no value');
      });
      await expectRefused(`${name} user: put a mirror key`, () => kv.put('chaos-r5.forged', '{}'));
      await expectRefused(`${name} user: delete a mirror key`, () => kv.delete(podKey));
      await expectRefused(`${name} user: purge a mirror key`, () => kv.purge(podKey));
      await expectRefused(`${name} user: create a bucket`, () => c.kvm.create('chaos_r5_forged', {}));
      await expectRefused(`${name} user: delete a mirror stream`, async () =>
        (await jetstreamManager(c.nc)).streams.delete(`KV_${podsBucket}`),
      );
      const regs = await c.kvm.open(REGISTRATIONS_BUCKET);
      await expectRefused(`${name} user: put another's registration`, () =>
        regs.put('resourcedistribution.chaos-r5', '{}'),
      );
    }
    const after = await wkv.get(podKey);
    const forged = await wkv.get('chaos-r5.forged');
    if (!after?.value.length || after.operation !== 'PUT' || forged?.value.length)
      violations.push({
        kind: 'privilege',
        at: w.now(),
        count: 1,
        detail: 'the mirror changed under the controller users (key deleted or forged key present)',
      });

    // 2. node agents: each reads its own node's NodeImage key only
    const imagepull = await connect('imagepull', o.auth.controllers?.['imagepull'] ?? o.auth.controller);
    const reg = registerKinds(imagepull, 'imagepull', 'chaos-r5', [KINDS.nodeimages]);
    cleanups.push(() => reg.stop());
    for (const node of o.agentNodes) {
      await w.client.create({
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'NodeImage',
        metadata: { name: node },
        spec: {},
      });
      cleanups.push(() =>
        w.client.delete({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', name: node }),
      );
    }
    const niBucket = bucketName(KINDS.nodeimages);
    await until('the watcher to mirror the NodeImages', async () => {
      const kv = await watcher.kvm.open(niBucket).catch(() => undefined);
      if (!kv) return false;
      for (const n of o.agentNodes)
        if (!(await kv.get(objectKey(undefined, n)).catch(() => null))?.value.length) return false;
      return true;
    });
    const [own, other] = o.agentNodes;
    const agentUser = o.auth.nodeAgents?.[own];
    if (!agentUser) throw new Error(`R5: no bus user for the node agent of ${own}`);
    const agent = await connect(`agent-${own}`, agentUser);
    await expectAllowed(`agent of ${own}: watch its own NodeImage`, async () => {
      const ow = new ObjectWatch(agent, KINDS.nodeimages, undefined, own, () => undefined, {});
      await ow.start();
      const ok = ow.object?.metadata?.name === own;
      await ow.stop();
      if (!ok) throw new Error('its NodeImage was not delivered');
    });
    const akv = await agent.kvm.open(niBucket, { allow_direct: true });
    await expectRefused(`agent of ${own}: get ${other}'s key`, async () => {
      const e = await akv.get(objectKey(undefined, other));
      if (!e?.value.length) throw new Error('timeout (nothing delivered)');
    });
    await expectRefused(`agent of ${own}: watch ${other}'s NodeImage`, async () => {
      const errors: unknown[] = [];
      const ow = new ObjectWatch(agent, KINDS.nodeimages, undefined, other, () => undefined, {
        onError: (e) => errors.push(e),
        rewatchDelayMs: 500,
      });
      void ow.start().catch((e: unknown) => errors.push(e));
      await until('', async () => errors.length > 0 || !!ow.object, 4000).catch(() => undefined);
      const got = ow.object;
      await ow.stop();
      if (got) return;
      throw new Error(`permission: ${String(errors[0] ?? 'timeout')}`);
    });
    for (const [what, kind] of [
      ['the whole NodeImage bucket', KINDS.nodeimages],
      ['the pod mirror', KINDS.pods],
    ] as const)
      await expectRefused(`agent of ${own}: list ${what}`, async () => {
        const cache = new Cache(agent, kind, { rewatchDelayMs: 500, onError: () => undefined });
        void cache.start().catch(() => undefined);
        await sleep(2000);
        const n = cache.size;
        await cache.stop();
        if (n > 0) return;
        throw new Error('timeout (nothing delivered)');
      });
    await expectRefused(`agent of ${own}: put a NodeImage key`, async () => {
      await akv.put(objectKey(undefined, own), '{}');
    });
    await expectRefused(`agent of ${own}: subscribe to other programs' inboxes`, async () => {
      // allowed, the subscription receives a message published to another program's inbox (then: ALLOWED); refused,
      // the server closes it or delivers nothing (a timeout counts as refused)
      const sub = agent.nc.subscribe('_INBOX.>');
      const delivered = (async () => {
        for await (const _ of sub) return true;
        return false;
      })();
      delivered.catch(() => undefined); // awaited below; a refusal may end it before then
      try {
        await agent.nc.flush();
        watcher.nc.publish(`_INBOX.chaos-r5-${randomBytes(6).toString('hex')}`, 'r5');
        if (!(await delivered)) throw new Error('permission (subscription closed)');
      } finally {
        sub.unsubscribe();
      }
    });

    // 3. Secrets: mirrored for a registration (the watcher has its hash key), searched for in every value
    const rd = await connect(
      'resourcedistribution',
      o.auth.controllers?.['resourcedistribution'] ?? o.auth.controller,
    );
    const rdReg = registerKinds(rd, 'resourcedistribution', 'chaos-r5', [KINDS.secrets]);
    cleanups.push(() => rdReg.stop());
    const plain = `chaos-r5-data-${randomBytes(12).toString('hex')}`;
    const str = `chaos-r5-string-${randomBytes(12).toString('hex')}`;
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'r5',
        namespace: 'chaos-r5',
        annotations: {
          // kubectl apply's copy: the data again, in clear
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ stringData: { s: str } }),
          'chaos.regatta.dev/note': 'r5',
        },
      },
      data: { d: Buffer.from(plain).toString('base64') },
      stringData: { s: str },
    };
    await w.client.create(secret as never);
    const secretsBucket = bucketName(KINDS.secrets);
    await until('the watcher to mirror Secret chaos-r5/r5', async () => {
      const kv = await watcher.kvm.open(secretsBucket).catch(() => undefined);
      return !!(await kv?.get(objectKey('chaos-r5', 'r5')).catch(() => null))?.value.length;
    });
    const needles = [plain, Buffer.from(plain).toString('base64'), str, Buffer.from(str).toString('base64')];
    // the scan's own check: a planted value (a Secret with its data, in a bucket of its own) must be found
    const canaryBucket = 'chaos_r5_canary';
    const canary = await watcher.kvm.create(canaryBucket, {});
    cleanups.push(() => canary.destroy());
    await canary.put(
      'planted',
      JSON.stringify({ kind: 'Secret', data: { d: Buffer.from(plain).toString('base64') } }),
    );
    const jsm = await jetstreamManager(watcher.nc);
    let buckets = 0;
    let values = 0;
    const leaks: string[] = [];
    for await (const s of jsm.streams.list()) {
      const name = s.config.name;
      if (!name.startsWith('KV_')) continue;
      buckets++;
      const kv = await watcher.kvm.open(name.slice(3));
      for await (const key of await kv.keys()) {
        const e = await kv.get(key);
        if (!e?.value.length) continue;
        values++;
        for (const where of secretLeaks(new TextDecoder().decode(e.value), needles))
          leaks.push(`${name.slice(3)} ${key}: ${where}`);
      }
    }
    const planted = leaks.filter((l) => l.startsWith(`${canaryBucket} `));
    const found = leaks.filter((l) => !l.startsWith(`${canaryBucket} `));
    leaks.length = 0;
    leaks.push(...found);
    figures.push(["buckets / values scanned for the Secret's data", `${buckets - 1} / ${values - 1}`]);
    figures.push(["a planted leak (the scan's self-test)", planted.length > 0 ? 'found' : 'MISSED']);
    if (planted.length === 0)
      violations.push({
        kind: 'secret',
        at: w.now(),
        count: 1,
        detail: 'the scan missed the planted Secret value',
      });
    figures.push(['Secret data found in bucket values', leaks.length === 0 ? 'none' : leaks.join('; ')]);
    for (const l of leaks) violations.push({ kind: 'secret', at: w.now(), count: 1, detail: l });

    // 4. every program listens only where it was told
    const logs = join(w.cluster.dir, 'logs');
    for (const p of programs) {
      const configured = await readFile(join(logs, `${p.name}.addresses.json`), 'utf8')
        .then((t) => Object.values(JSON.parse(t) as Record<string, string>))
        .catch(() => [] as string[]);
      const listening = await listeningOf(p.pid);
      const extra = unexpectedListeners(listening, configured);
      figures.push([
        `${p.name} listens on`,
        `${listening.map((s) => `${s.address}:${s.port}`).join(', ') || 'nothing'} (configured ${configured.join(', ')})`,
      ]);
      for (const x of extra)
        violations.push({
          kind: 'listen',
          at: w.now(),
          count: 1,
          detail: `${p.name} listens on ${x}, not configured`,
        });
    }
    const natsRec = (await readPidRecords(w.cluster.dir)).find((r) => r.name === 'nats-server');
    const natsConfigured = [o.natsUrl, w.cluster.endpoints.natsMonitor ?? ''].map((u) =>
      u.replace(/^\w+:\/\//, ''),
    );
    if (natsRec) {
      const listening = await listeningOf(natsRec.pid);
      figures.push([
        'nats-server listens on',
        `${listening.map((s) => `${s.address}:${s.port}`).join(', ')} (configured ${natsConfigured.join(', ')})`,
      ]);
      for (const x of unexpectedListeners(listening, natsConfigured))
        violations.push({
          kind: 'listen',
          at: w.now(),
          count: 1,
          detail: `nats-server listens on ${x}, not configured`,
        });
    } else notes.push('nats-server has no pid record; its sockets were not read');
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    for (const b of buses) await b.close().catch(() => undefined);
  }
  return {
    id: 'R5',
    title: 'least privilege and secrets',
    figures,
    violations,
    crashes: programs.reduce((n, p) => n + p.crashes.length, 0) - crashesBefore,
    notes,
  };
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`R5: timed out waiting for ${what}`);
    await sleep(250);
  }
}
