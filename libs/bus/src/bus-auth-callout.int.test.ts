// Node agents authenticated by the auth callout (docs/adr/0059), against real parts: a nats-server with an
// `auth_callout` block, the callout answering it, and the run's API server reviewing the tokens. An agent presenting
// the bound ServiceAccount token of a pod on node A reads node A's NodeImage key and nothing else; a token for
// another audience, an unbound one, one whose pod is gone, another ServiceAccount's and none at all are refused.
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nkeys } from '@nats-io/transport-node';
import { KIND_TABLE, KubeClient, isNotFound, type KubeObject } from '@regatta/kube';
import { controllerPublishAllow, freePorts, ManagedProcess, startNatsServer, waitFor } from '@regatta/local-cluster';
import { nodeAgentInboxPrefix } from '@regatta/runtime';
import { bucketName, BusRefusedError, connectBus, MirrorWriter, NODE_NAME_EXTRA, ObjectWatch, readRegistrations, registerKinds, registrationKey, readAuthCalloutSettings, runAuthCallout, tokenReviewer, type Bus } from './index.js';

const AUDIENCE = 'regatta-bus';
const id = randomBytes(3).toString('hex');
const ns = `bus-callout-${id}`;
const nodeA = `callout-a-${id}.example`;
const nodeB = `callout-b-${id}`;
const BUCKET = bucketName(KIND_TABLE.nodeimages);
const pw = { watcher: randomBytes(12).toString('hex'), callout: randomBytes(12).toString('hex') };

let client: KubeClient;
let server: ManagedProcess;
let url: string;
let dir: string;
let callout: { stop(): Promise<void> } | undefined;
const buses: Bus[] = [];
const refusals: string[] = [];
const pods: Record<string, string> = {}; // name → uid
let goneToken: string;

beforeAll(async () => {
  client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  for (const node of [nodeA, nodeB]) await client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: node } });
  for (const sa of ['imagepull-agent', 'other']) {
    await client.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: ns, name: sa } });
  }
  for (const [name, sa, node] of [
    ['agent-a', 'imagepull-agent', nodeA],
    ['other-a', 'other', nodeA],
    ['gone-a', 'imagepull-agent', nodeA],
  ] as const) {
    const pod = await client.create<KubeObject & { spec: object }>({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: ns, name },
      spec: {
        serviceAccountName: sa,
        automountServiceAccountToken: false,
        nodeName: node,
        containers: [{ name: 'agent', image: 'registry.example/agent:1' }],
      },
    });
    pods[name] = pod.metadata!.uid!;
  }

  dir = await mkdtemp(join(tmpdir(), 'regatta-nats-callout-'));
  const issuer = nkeys.createAccount();
  const [port, monitor] = (await freePorts(2)) as [number, number];
  const config = [
    `listen: "127.0.0.1:${port}"`,
    `http: "127.0.0.1:${monitor}"`,
    'authorization {',
    '  users: [',
    `    { user: "watcher", password: "${pw.watcher}" }`,
    // the imagepull program's user as docs/operations.md configures it: a controller's, plus the callout requests
    `    { user: "callout", password: "${pw.callout}", permissions: {`,
    `        publish: { allow: ${JSON.stringify(controllerPublishAllow('', 'imagepull'))} }`,
    '        subscribe: { allow: ["_INBOX.>", "$SYS.REQ.USER.AUTH"] }, allow_responses: true } }',
    '  ]',
    '  auth_callout {',
    `    issuer: "${issuer.getPublicKey()}"`,
    '    auth_users: [ "watcher", "callout" ]',
    '  }',
    '}',
    `jetstream { store_dir: "${join(dir, 'js')}" }`,
    '',
  ].join('\n');
  server = await startNatsServer({ dir, config, monitorPort: monitor });
  url = `nats://127.0.0.1:${port}`;

  // the callout as apps/imagepull starts it: settings from its environment, the issuer seed from a file, its bus
  // connection with the program's own credentials (NATS_URL, NATS_USER, NATS_PASSWORD)
  await writeFile(join(dir, 'issuer.nk'), `${new TextDecoder().decode(issuer.getSeed())}\n`);
  Object.assign(process.env, { NATS_URL: url, NATS_USER: 'callout', NATS_PASSWORD: pw.callout, REGATTA_BUS_PREFIX: '' });
  const settings = readAuthCalloutSettings({
    REGATTA_AUTH_CALLOUT_ISSUER_SEED_FILE: join(dir, 'issuer.nk'),
    REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT: `${ns}/imagepull-agent`,
  })!;
  expect(settings.audience).toBe(AUDIENCE);
  callout = await runAuthCallout({
    settings,
    name: 'callout',
    client,
    bucket: BUCKET,
    registration: (node) => registrationKey('imagepull', `agent-${node}`),
    log: { info: () => undefined, warn: (o) => refusals.push(String((o as { reason?: unknown }).reason)) },
  });

  const watcher = await connectBus({ servers: url, name: 'watcher', user: 'watcher', pass: pw.watcher });
  buses.push(watcher);
  const nodeImages = await MirrorWriter.open(watcher, KIND_TABLE.nodeimages);
  for (const name of [nodeA, nodeB]) await nodeImages.put({ metadata: { name, resourceVersion: '1' } });
  await readRegistrations(watcher); // creates the registrations bucket
  // the pod of `gone-a` is deleted after its token was issued: the token no longer reviews (as an expired one)
  goneToken = await token('imagepull-agent', 'gone-a');
  await client.delete({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'gone-a' }, { gracePeriodSeconds: 0 });
  await waitFor('pod gone-a deleted', async () =>
    client.getOrUndefined({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'gone-a' }).then((p) => !p),
  );
});

afterAll(async () => {
  await callout?.stop();
  for (const b of buses) await b.close();
  await server?.stop();
  await client?.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns }).catch(() => undefined);
  for (const node of [nodeA, nodeB]) {
    await client?.delete({ apiVersion: 'v1', kind: 'Node', name: node }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
});

/** A TokenRequest token of `sa`, bound to `pod` unless it is undefined. */
async function token(sa: string, pod: string | undefined, audience = AUDIENCE): Promise<string> {
  const res = await client.request<{ status: { token: string } }>(
    'POST',
    `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`,
    {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: {
          audiences: [audience],
          expirationSeconds: 600,
          ...(pod ? { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod, uid: pods[pod] } } : {}),
        },
      },
    },
  );
  return res.status.token;
}

/** Connects as a node agent does in the chart: its token in a file (NATS_TOKEN_FILE), its node's inbox prefix. */
async function agent(tok: string, node = nodeA): Promise<Bus> {
  const file = join(dir, `token-${randomBytes(4).toString('hex')}`);
  await writeFile(file, tok);
  const b = await connectBus({
    servers: url,
    name: `agent-${node}`,
    auth: { tokenFile: file },
    inboxPrefix: nodeAgentInboxPrefix(node),
    connectTimeoutMs: 5_000,
  });
  buses.push(b);
  return b;
}

function watchOne(bus: Bus, name: string): { w: ObjectWatch; errors: unknown[] } {
  const errors: unknown[] = [];
  const w = new ObjectWatch(bus, KIND_TABLE.nodeimages, undefined, name, () => undefined, {
    onError: (e) => errors.push(e),
    rewatchDelayMs: 200,
  });
  return { w, errors };
}

describe('node agents authenticated by the auth callout', () => {
  it('the review of a bound pod token names its node (Kubernetes 1.32+)', async () => {
    const review = await tokenReviewer(client)(await token('imagepull-agent', 'agent-a'), AUDIENCE);
    expect(review.authenticated).toBe(true);
    expect(review.user?.extra?.[NODE_NAME_EXTRA]).toEqual([nodeA]);
  });

  it("an agent with a bound token of a pod on node A reads node A's NodeImage, then its changes", async () => {
    const bus = await agent(await token('imagepull-agent', 'agent-a'));
    const { w } = watchOne(bus, nodeA);
    await w.start();
    expect(w.object?.metadata?.name).toBe(nodeA);
    const writer = await MirrorWriter.open(buses[0]!, KIND_TABLE.nodeimages);
    await writer.put({ metadata: { name: nodeA, resourceVersion: '2' } });
    await expect.poll(() => w.object?.metadata?.resourceVersion, { timeout: 10_000 }).toBe('2');
    await w.stop();
  });

  it("the same agent is refused node B's NodeImage, direct or watched", async () => {
    const bus = await agent(await token('imagepull-agent', 'agent-a'));
    const kv = await bus.kvm.open(BUCKET, { allow_direct: true });
    await expect(kv.get(`_.${nodeB}`)).rejects.toThrow(/[Pp]ermission|timeout/i);
    const other = watchOne(bus, nodeB);
    void other.w.start();
    await expect.poll(() => other.errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(other.w.object).toBeUndefined();
    await other.w.stop();
  });

  it("an agent claiming node B's inbox with node A's token receives nothing", async () => {
    const bus = await agent(await token('imagepull-agent', 'agent-a'), nodeB);
    const { w, errors } = watchOne(bus, nodeA);
    void w.start();
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(w.object).toBeUndefined();
    await w.stop();
  });

  it('it writes its own registration (as the agent announces its kind), not the name of another node', async () => {
    const bus = await agent(await token('imagepull-agent', 'agent-a'));
    const own = registerKinds(bus, 'imagepull', `agent-${nodeA}`, [KIND_TABLE.nodeimages]);
    const errors: unknown[] = [];
    const forged = registerKinds(bus, 'imagepull', `agent-${nodeB}`, [KIND_TABLE.nodeimages], { onError: (e) => errors.push(e) });
    await expect
      .poll(async () => (await readRegistrations(buses[0]!)).map((r) => r.instance), { timeout: 10_000 })
      .toContain(`agent-${nodeA.replaceAll('.', '-')}`);
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect((await readRegistrations(buses[0]!)).map((r) => r.instance)).not.toContain(`agent-${nodeB}`);
    await forged.stop().catch(() => undefined);
    await own.stop();
  });

  it.each([
    ['another audience', () => token('imagepull-agent', 'agent-a', 'not-the-bus'), /not authenticated|audience/],
    ['an unbound token', () => token('imagepull-agent', undefined), /not bound to a pod/],
    ['the token of a deleted pod', async () => goneToken, /not authenticated/],
    ["another ServiceAccount's token", () => token('other', 'other-a'), /belongs to system:serviceaccount:.*:other/],
    ['a forged token', async () => 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', /not authenticated/],
  ])('%s is refused, and the reason logged', async (_name, make, reason) => {
    const before = refusals.length;
    await expect(agent(await make())).rejects.toBeInstanceOf(BusRefusedError);
    await expect.poll(() => refusals.slice(before).join('\n'), { timeout: 5_000 }).toMatch(reason);
  });
});
