// Benchmark 8a's companion (issue 12): where a selected pod's webhook time goes on Regatta's side, without an API
// server. `node --conditions=@regatta/source --import tsx tools/bench/sidecarset-handler.ts [N]`
//   1. in process, per request: JSON.parse of the AdmissionReview body, the pod handler (libs/sidecarset podDefaulter,
//      with the structured clone the server makes), the JSON Patch (createJsonPatch, MAX_PATCH_LIST_OPERATIONS) and
//      the response's JSON.stringify + base64, on a pod as the API server sends it (defaults and admission plugins
//      applied) and the SidecarSet of benchmark 8a;
//   2. over HTTPS on loopback against the program's own WebhookServer (libs/runtime), one request in flight:
//      the pod route, a route whose handler answers nothing (the server's own cost), each with one kept-alive
//      connection and with a new TLS connection per request (what a client that does not reuse connections pays);
//   3. inside that server, one kept-alive connection: from the request's headers to the response handed to the
//      socket, split at the body's end, the handler's start and end and the response's `end` (the server's
//      `createServer` is wrapped to see its requests; its code runs unchanged), with the handler's sources as the
//      program builds them (apps/sidecarset main.ts: the cached SidecarSets and ControllerRevisions listed per
//      request), once with benchmark 8a's one SidecarSet and once with 20 SidecarSets and 2000 ControllerRevisions.
// The figures are the program's side only; the API server's (its client, the patch it applies, the larger pod it
// stores) is benchmark 8a's "webhook call" against the pod's added latency. Nothing is a timed assertion.
import { execFileSync } from 'node:child_process';
import https, { Agent, request } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { Pod } from '@regatta/api';
import { createJsonPatch } from '@regatta/kube';
import {
  type AdmissionInput,
  type MutatingHandler,
  Mutation,
  WebhookServer,
  createCertificateAuthority,
} from '@regatta/runtime';
import {
  MUTATE_POD_PATH,
  type AnySidecarSet,
  type SidecarSetRevision,
  podDefaulter,
  sidecarSetDefaulter,
} from '@regatta/sidecarset';

const N = Number(process.argv[2] ?? 2000);
const HTTPS_N = Math.max(100, Math.floor(N / 4));
const NOOP_PATH = '/noop';
watchServerRequests();

/** The pod of benchmark 8a as a 1.36 API server sends it to a mutating webhook on CREATE. */
const pod = (i: number): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `bench-${i}`,
      namespace: 'bench-scs-latency',
      labels: { app: 'bench-scs-latency', 'bench-sidecar': 'yes' },
    },
    spec: {
      containers: [
        {
          name: 'main',
          image: 'nginx:1.27.3',
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          volumeMounts: [
            {
              name: 'kube-api-access-x7k2p',
              readOnly: true,
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
            },
          ],
        },
      ],
      volumes: [
        {
          name: 'kube-api-access-x7k2p',
          projected: {
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              {
                downwardAPI: {
                  items: [
                    { path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
                  ],
                },
              },
            ],
            defaultMode: 420,
          },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
    },
    status: {},
  });

const review = (i: number, path: string) =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      name: `bench-${i}`,
      namespace: 'bench-scs-latency',
      operation: 'CREATE',
      userInfo: { username: 'regatta-bench', groups: ['system:masters', 'system:authenticated'] },
      object: pod(i),
      oldObject: null,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
      path,
    },
  });

/** The SidecarSet of benchmark 8a, as its mutating webhook leaves it (hashes, defaults); others select other pods. */
async function sidecarSet(
  name = 'bench-latency',
  selects: Record<string, string> = { 'bench-sidecar': 'yes' },
): Promise<AnySidecarSet> {
  const raw = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name, uid: `u-${name}`, generation: 1 },
    spec: {
      selector: { matchLabels: selects },
      containers: [{ name: 'sidecar', image: 'busybox:1.36', command: ['sleep', '999d'] }],
    },
  };
  const out = await sidecarSetDefaulter()({
    operation: 'CREATE',
    object: raw,
    oldObject: null,
    kind: { group: 'apps.kruise.io', version: 'v1beta1', kind: 'SidecarSet' },
    uid: 'x',
    name,
    namespace: '',
    userInfo: {},
    dryRun: false,
  });
  const set = out instanceof Mutation ? out.object : out;
  if (!set) throw new Error('the SidecarSet defaulter left no object');
  return set;
}

interface Stats {
  p50: number;
  p90: number;
  p99: number;
  mean: number;
}
function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), mean: xs.reduce((a, b) => a + b, 0) / xs.length };
}
const ms = (x: number) => (x < 1 ? x.toFixed(3) : x.toFixed(2));
const row = (name: string, s: Stats) =>
  `${name.padEnd(58)} ${ms(s.p50).padStart(7)} ${ms(s.p90).padStart(7)} ${ms(s.p99).padStart(7)} ${ms(s.mean).padStart(7)}`;

async function inProcess(set: AnySidecarSet): Promise<string[]> {
  const handler = podDefaulter({
    sidecarSets: () => [set],
    namespaceLabels: () => ({}),
    revisions: () => [],
  });
  const parse: number[] = [];
  const handle: number[] = [];
  const patch: number[] = [];
  const whole: number[] = [];
  let operations = 0;
  for (let i = 0; i < N + 200; i++) {
    const body = Buffer.from(review(i, MUTATE_POD_PATH));
    const t0 = performance.now();
    const parsed = JSON.parse(body.toString('utf8')) as { request: { uid: string; object: Pod } };
    const input = {
      operation: 'CREATE',
      object: parsed.request.object,
      oldObject: null,
      namespace: 'bench-scs-latency',
      uid: parsed.request.uid,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      userInfo: {},
      dryRun: false,
    } satisfies AdmissionInput<Pod>;
    const t1 = performance.now();
    const out = await handler({ ...input, object: structuredClone(input.object) });
    const t2 = performance.now();
    const mutated = out instanceof Mutation ? out.object : out;
    if (!mutated || (mutated.spec?.containers?.length ?? 0) < 2) throw new Error('the pod was not injected');
    const ops = createJsonPatch(input.object, mutated, { maxListOperations: 16 });
    const response = JSON.stringify({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: input.uid,
        allowed: true,
        patchType: 'JSONPatch',
        patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
      },
    });
    const t3 = performance.now();
    if (response.length === 0) throw new Error('empty response');
    operations = ops.length;
    if (i < 200) continue;
    parse.push(t1 - t0);
    handle.push(t2 - t1);
    patch.push(t3 - t2);
    whole.push(t3 - t0);
  }
  return [
    `in process, ${N} requests (${review(0, MUTATE_POD_PATH).length} B request body, ${operations} patch operations)`,
    row('JSON.parse of the AdmissionReview', stats(parse)),
    row('pod handler (structuredClone, injection, launch priority)', stats(handle)),
    row('createJsonPatch + response JSON.stringify + base64', stats(patch)),
    row('all three', stats(whole)),
  ];
}

function post(agent: Agent, port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        rejectUnauthorized: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200 || !text.includes('"allowed":true'))
            reject(new Error(`unexpected answer ${res.statusCode}: ${text.slice(0, 200)}`));
          else resolve(performance.now() - t0);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function overHttps(set: AnySidecarSet): Promise<string[]> {
  const ca = await createCertificateAuthority('bench-ca');
  const serving = await ca.issueServing(['127.0.0.1', 'localhost']);
  const server = new WebhookServer({ tls: serving, host: '127.0.0.1', port: 0 });
  server.mutate(
    MUTATE_POD_PATH,
    podDefaulter({ sidecarSets: () => [set], namespaceLabels: () => ({}), revisions: () => [] }),
  );
  server.mutate(NOOP_PATH, () => undefined);
  const stop = new AbortController();
  const running = server.start(stop.signal);
  const { port } = await server.listening();
  const out = [`over HTTPS on loopback, ${HTTPS_N} requests each, one in flight`];
  try {
    for (const [name, path] of [
      ['pod route', MUTATE_POD_PATH],
      ['route answering nothing', NOOP_PATH],
    ] as const) {
      const kept = new Agent({ keepAlive: true, maxSockets: 1 });
      const fresh = new Agent({ keepAlive: false, maxCachedSessions: 0 });
      for (const [how, agent] of [
        ['one kept-alive connection', kept],
        ['a new TLS connection per request', fresh],
      ] as const) {
        const xs: number[] = [];
        for (let i = 0; i < HTTPS_N + 20; i++) {
          const t = await post(agent, port, path, review(i, path));
          if (i >= 20) xs.push(t);
        }
        out.push(row(`${name}, ${how}`, stats(xs)));
      }
      kept.destroy();
      fresh.destroy();
    }
  } finally {
    stop.abort();
    await running;
  }
  return out;
}

/** Times of one request inside the server (performance.now()). */
interface Marks {
  start: number;
  bodyEnd?: number;
  handlerStart?: number;
  handlerEnd?: number;
  endCalled?: number;
  finish?: number;
}
let inFlight: Marks | undefined; // one request in flight at a time
const served: Marks[] = [];

/** Wraps node:https `createServer` (the WebhookServer's) to time each request from its headers to its last byte. */
function watchServerRequests(): void {
  const original = https.createServer;
  const wrapped = (
    options: https.ServerOptions,
    listener: (req: IncomingMessage, res: ServerResponse) => void,
  ) =>
    original(options, (req, res) => {
      const m: Marks = { start: performance.now() };
      inFlight = m;
      req.once('end', () => (m.bodyEnd = performance.now()));
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        m.endCalled = performance.now();
        return end(...args);
      }) as typeof res.end;
      res.once('finish', () => {
        m.finish = performance.now();
        served.push(m);
      });
      listener(req, res);
    });
  https.createServer = wrapped as typeof https.createServer;
  syncBuiltinESMExports();
}

function timedHandler(handler: MutatingHandler<Pod>): MutatingHandler<Pod> {
  return async (input) => {
    const m = inFlight;
    if (m) m.handlerStart = performance.now();
    const out = await handler(input);
    if (m) m.handlerEnd = performance.now();
    return out;
  };
}

/** The program's sources (apps/sidecarset main.ts): its caches listed per request, a merge with no admitted set. */
function programSources(sets: readonly AnySidecarSet[], revisions: readonly SidecarSetRevision[]) {
  const setCache = new Map(sets.map((x) => [x.metadata?.name ?? '', x]));
  const revisionCache = new Map(revisions.map((r) => [`${r.metadata?.namespace}/${r.metadata?.name}`, r]));
  return {
    sidecarSets: async () => [...[...setCache.values()]],
    namespaceLabels: (ns: string) => ({ 'kubernetes.io/metadata.name': ns }),
    revisions: () => [...revisionCache.values()],
  };
}

const revisionsOfOthers = (n: number): SidecarSetRevision[] =>
  Array.from({ length: n }, (_, i): SidecarSetRevision => ({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name: `app-${i}-5d8b7c9f4`, namespace: `team-${i % 50}`, labels: { app: `app-${i}` } },
    revision: 1,
    data: { spec: { template: { metadata: { labels: { app: `app-${i}` } } } } },
  }));

async function insideServer(set: AnySidecarSet): Promise<string[]> {
  const ca = await createCertificateAuthority('bench-ca');
  const serving = await ca.issueServing(['127.0.0.1', 'localhost']);
  const others = await Promise.all(
    Array.from({ length: 19 }, (_, i) => sidecarSet(`other-${i}`, { 'other-sidecar': String(i) })),
  );
  const out = [`inside the server, ${N} requests each, one kept-alive connection, one request in flight`];
  for (const [name, sets, revisions] of [
    ['1 SidecarSet, 0 revisions', [set], []],
    ['20 SidecarSets, 2000 ControllerRevisions', [...others, set], revisionsOfOthers(2000)],
  ] as const) {
    const server = new WebhookServer({ tls: serving, host: '127.0.0.1', port: 0 });
    server.mutate(MUTATE_POD_PATH, timedHandler(podDefaulter(programSources(sets, revisions))));
    const stop = new AbortController();
    const running = server.start(stop.signal);
    const { port } = await server.listening();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const client: number[] = [];
    served.length = 0;
    try {
      for (let i = 0; i < N + 200; i++) {
        const t = await post(agent, port, MUTATE_POD_PATH, review(i, MUTATE_POD_PATH));
        if (i >= 200) client.push(t);
      }
    } finally {
      agent.destroy();
      stop.abort();
      await running;
    }
    const marks = served.splice(0).slice(200);
    const span = (from: keyof Marks, to: keyof Marks) =>
      stats(marks.map((m) => (m[to] ?? NaN) - (m[from] ?? NaN)));
    out.push(
      `  ${name}`,
      row('    body read (headers → body end)', span('start', 'bodyEnd')),
      row('    JSON.parse, review checks, structuredClone', span('bodyEnd', 'handlerStart')),
      row('    pod handler (list, injection, launch priority)', span('handlerStart', 'handlerEnd')),
      row('    JSON patch, base64, response JSON.stringify', span('handlerEnd', 'endCalled')),
      row('    response handed to the socket', span('endCalled', 'finish')),
      row('    in the server (headers → response written)', span('start', 'finish')),
      row('    client round trip', stats(client)),
    );
  }
  return out;
}

async function main(): Promise<void> {
  const uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
  const set = await sidecarSet();
  console.log(`SidecarSet pod webhook, the program's side (ms); ${uptime}`);
  console.log(
    `${''.padEnd(58)} ${'p50'.padStart(7)} ${'p90'.padStart(7)} ${'p99'.padStart(7)} ${'mean'.padStart(7)}`,
  );
  for (const line of await inProcess(set)) console.log(line);
  for (const line of await overHttps(set)) console.log(line);
  for (const line of await insideServer(set)) console.log(line);
  console.log(`after: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
}

await main();
