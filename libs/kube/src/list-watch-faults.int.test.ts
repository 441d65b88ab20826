// ListWatcher behind a small HTTP proxy that forwards every request to the real API server and breaks some watches as
// the test plans them: cut mid-stream (half an event's line sent), answered 429 with Retry-After, reset before any
// answer, or answered 410 Expired (as a status, and as an ERROR event in a 200 stream, the API server's two ways to
// say a resourceVersion is too old). The proxy counts the lists it forwards: a broken or refused watch must not cost
// one (docs/reliability-findings-1-16.md, finding 10).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { KubeClient } from './client.js';
import { ListWatcher } from './list-watch.js';
import type { KubeObject } from './meta.js';

// PodTemplates: a kind no other test of the shared cluster writes, so the watch cache's window is this test's alone
// (with ConfigMaps, the rest of the suite's churn could age a resumed version out: a real 410, and a second list)
const TEMPLATE = {
  apiVersion: 'v1',
  kind: 'PodTemplate',
  template: { spec: { containers: [{ name: 'c', image: 'nginx:1.27.3' }] } },
} as const;
const COLLECTION = '/api/v1/podtemplates';

/** What the proxy does to the next watch requests, one step each; an empty plan forwards. */
type Step = 'cut' | '429' | 'reset' | 'gone-status' | 'gone-event';
/** The API server's Status for a resourceVersion it no longer holds. */
const EXPIRED = {
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  reason: 'Expired',
  code: 410,
  message: 'too old resource version: 1 (238)',
};

interface FaultProxy {
  url: string;
  plan: Step[];
  lists: number;
  /** Each watch request: when it came, the resourceVersion asked, and what the proxy did. */
  watches: { at: number; rv: string; step: Step | 'forward' }[];
  /** Closes the connections of the watches being forwarded. */
  dropWatches(): void;
  close(): Promise<void>;
}

async function startProxy(admin: KubeConfig): Promise<FaultProxy> {
  const upstream = new URL(admin.getCurrentCluster()!.server);
  const tls: RequestOptions = {};
  await admin.applyToHTTPSOptions(tls);
  const open = new Set<ServerResponse>();
  const watching = new Set<ServerResponse>();
  const p: FaultProxy = {
    url: '',
    plan: [],
    lists: 0,
    watches: [],
    dropWatches: () => {
      for (const res of watching) res.socket?.destroy();
    },
    close: async () => undefined,
  };

  const forward = (req: IncomingMessage, res: ServerResponse, path: string, onBody?: (chunk: Buffer) => boolean) => {
    const up = httpsRequest(
      {
        ...tls,
        host: upstream.hostname,
        port: upstream.port,
        path,
        method: req.method,
        headers: { ...req.headers, ...(tls.headers ?? {}), host: upstream.host },
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.on('data', (chunk: Buffer) => {
          if (!onBody || onBody(chunk)) res.write(chunk);
        });
        upRes.on('end', () => res.end());
      },
    );
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(err));
    });
    res.on('close', () => up.destroy());
    req.pipe(up);
  };

  const server: Server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const url = new URL(req.url ?? '/', 'http://proxy');
    const watch = url.searchParams.get('watch') === 'true';
    if (req.method === 'GET' && url.pathname === COLLECTION && !watch) p.lists++;
    if (!(req.method === 'GET' && url.pathname === COLLECTION && watch)) return forward(req, res, req.url ?? '/');
    const step = p.plan.shift();
    p.watches.push({ at: Date.now(), rv: url.searchParams.get('resourceVersion') ?? '', step: step ?? 'forward' });
    watching.add(res);
    res.on('close', () => watching.delete(res));
    switch (step) {
      case undefined:
        return forward(req, res, req.url ?? '/');
      case '429':
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
        return void res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'TooManyRequests', code: 429 }));
      case 'reset':
        return void req.socket.destroy();
      case 'gone-event':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(`${JSON.stringify({ type: 'ERROR', object: EXPIRED })}\n`);
      case 'gone-status':
        res.writeHead(410, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(EXPIRED));
      case 'cut': {
        // one whole event passes, then half of the next line, and the connection is closed once that half is out
        let passed = Buffer.alloc(0);
        let cut = false;
        return forward(req, res, req.url ?? '/', (chunk) => {
          if (cut) return false;
          passed = Buffer.concat([passed, chunk]);
          const nl = passed.indexOf(0x0a);
          if (nl < 0 || nl === passed.length - 1) return true;
          const rest = passed.length - nl - 1;
          cut = true;
          res.write(chunk.subarray(0, chunk.length - rest + Math.floor(rest / 2)), () => res.socket?.destroy());
          return false;
        });
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  p.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p.close = async () => {
    for (const res of open) res.socket?.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return p;
}

/** A kubeconfig that reaches the API server through the proxy (which adds the admin credentials). */
function throughProxy(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    // client-node refuses a plain-HTTP server unless TLS verification is off (there is no TLS on this hop)
    clusters: [{ name: 'proxy', server: url, skipTLSVerify: true }],
    users: [{ name: 'proxied' }],
    contexts: [{ name: 'proxy', cluster: 'proxy', user: 'proxied' }],
    currentContext: 'proxy',
  });
  return kc;
}

let lw: ListWatcher | undefined;
let proxy: FaultProxy | undefined;
afterAll(async () => {
  await lw?.stop();
  await proxy?.close();
});

describe('ListWatcher through a faulty link', () => {
  it(
    'resumes after dropped and refused watches without a list, honours Retry-After, and lists again on 410 only',
    { timeout: 120_000 },
    async () => {
      const kubeconfig = inject('cluster').kubeconfig;
      const direct = KubeClient.fromKubeconfigFile(kubeconfig);
      const admin = new KubeConfig();
      admin.loadFromFile(kubeconfig);
      proxy = await startProxy(admin);
      const p = proxy;
      const ns = `lwf-${randomBytes(3).toString('hex')}`;
      await direct.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      const mine = (o: KubeObject) => o.metadata?.namespace === ns;
      const seen = new Set<string>();
      let lists = 0;
      const errors: string[] = [];
      lw = new ListWatcher(
        new KubeClient(throughProxy(p.url)),
        { group: '', version: 'v1', kind: 'PodTemplate', plural: 'podtemplates' },
        {
          onList: async (items) => {
            lists++;
            for (const o of items) if (mine(o)) seen.add(o.metadata!.name!);
          },
          onUpsert: async (o) => {
            if (mine(o)) seen.add(o.metadata!.name!);
          },
          onDelete: async () => undefined,
          onError: (err) => errors.push(String(err)),
        },
      );
      // drops and refusals while objects are created: every one arrives, and nothing is listed again
      p.plan.push('cut', 'cut', '429', 'reset', 'cut', 'cut');
      lw.start();
      await expect.poll(() => [lists, errors.slice(0, 1)], { timeout: 30_000 }).toEqual([1, []]);
      const names = Array.from({ length: 24 }, (_, i) => `cm-${i}`);
      for (const name of names) {
        await direct.create({ ...TEMPLATE, metadata: { name, namespace: ns } });
        await new Promise((r) => setTimeout(r, 50));
      }
      await expect.poll(() => names.filter((n) => !seen.has(n)), { timeout: 60_000 }).toEqual([]);
      expect(p.plan).toEqual([]);
      expect(p.lists).toBe(1);
      expect(lists).toBe(1);
      // the watch after the 429 waited for its Retry-After (2 s), not the first back-off (0.25 s)
      const i429 = p.watches.findIndex((w) => w.step === '429');
      expect(p.watches[i429 + 1]!.at - p.watches[i429]!.at).toBeGreaterThanOrEqual(1900);
      // every watch resumed from a version, none from scratch, and the version moved on with the events
      expect(p.watches.every((w) => w.rv !== '')).toBe(true);
      expect(new Set(p.watches.map((w) => w.rv)).size).toBeGreaterThan(2);

      // 410 Expired, as an HTTP status and as an ERROR event (what the API server sends for a version it no longer
      // holds; a fresh cluster's etcd is not compacted yet, so an old version is still served and the proxy says it)
      for (const [i, gone] of (['gone-status', 'gone-event'] as const).entries()) {
        p.plan.push(gone);
        p.dropWatches();
        await expect.poll(() => p.lists, { timeout: 30_000 }).toBe(2 + i);
        await direct.create({ ...TEMPLATE, metadata: { name: `after-${i}`, namespace: ns } });
        await expect.poll(() => seen.has(`after-${i}`), { timeout: 30_000 }).toBe(true);
        expect(p.lists).toBe(2 + i);
      }
      expect(lists).toBe(3);
      await direct.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns });
    },
  );
});
