// The fault-injecting API proxies R1 puts between the programs and the API server: one in front of the controller
// programs (`controller` mode, faults decided by api-faults.ts), one in front of the watcher (`watcher` mode,
// api-proxy-watcher.ts: dropped and ended watches, 410 Gone on a resumed watch, 429, 500, delays); the suite's checker
// talks to the API server directly. HTTPS with a serving certificate of the cluster's CA, so a program's kubeconfig
// differs from the admin one (or a program's own, `proxied`) by its server URL only; a request with a bearer token (a
// program on its chart ServiceAccount) is forwarded with that token, any other with a client certificate of the
// proxy's own; or broken.
import { request as httpsRequest, createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { LocalCluster } from '@regatta/local-cluster';
import { writePrivateFile } from '@regatta/local-cluster';
import { decideApiFault, statusBody, type ApiFaultKind } from './api-faults.js';
import { watcherHandler, type Forward } from './api-proxy-watcher.js';
import { seededRandom } from './schedule.js';

/** How long a `timeout` fault holds the request before closing the connection (the client's own timeout is 30 s). */
const HANG_MS = 10_000;

export interface ApiProxy {
  /** A kubeconfig like the admin one, pointing at the proxy. */
  kubeconfig: string;
  /** A copy of `kubeconfig` (a program's token kubeconfig) pointing at the proxy, written to `file`. */
  proxied(kubeconfig: string, file: string): Promise<string>;
  /** Faults injected so far, by kind (`500 after`: the request was served, its answer lost). */
  injected: string[];
  /** The watcher's proxy: the lists (pages included) and watches it was asked for. */
  requests: { lists: number; watches: number };
  /** The probability of a fault per request (0 switches the proxy to plain forwarding). */
  rate: number;
  close(): Promise<void>;
}

export async function startApiProxy(
  cluster: LocalCluster,
  o: { rate: number; seed: number; kubeconfig: string; mode?: 'controller' | 'watcher' },
): Promise<ApiProxy> {
  const upstream = new URL(cluster.endpoints.apiserver);
  const serving = await cluster.ca.issueServing(['127.0.0.1', 'localhost'], 'regatta-chaos-proxy');
  const client = await cluster.ca.issueClient('regatta-chaos-proxy', ['system:masters']);
  const rand = seededRandom(o.seed ^ 0xa91);
  const open = new Set<ServerResponse>();
  const proxy: ApiProxy = {
    kubeconfig: o.kubeconfig,
    injected: [],
    requests: { lists: 0, watches: 0 },
    rate: o.rate,
    proxied: async () => {
      throw new Error('the API proxy is not listening yet');
    },
    close: async () => undefined,
  };

  const forward: Forward = (req, body, onResponse, onError) => {
    const headers = { ...req.headers, host: upstream.host };
    // a program on its own identity keeps it: the API server would take the proxy's certificate before a token
    const bearer = /^Bearer /i.test(req.headers.authorization ?? '');
    const up = httpsRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers,
        ca: cluster.ca.certPem,
        ...(bearer ? {} : { cert: client.certPem, key: client.keyPem }),
      },
      onResponse,
    );
    up.on('error', onError);
    up.end(body);
    return up;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const fault = decideApiFault(rand, { method: req.method ?? 'GET', path: req.url ?? '/' }, proxy.rate);
    if (fault)
      proxy.injected.push(
        `${fault.kind}${fault.kind === '500' || fault.kind === 'timeout' ? ` ${fault.when}` : ''}`,
      );
    const fail = (kind: ApiFaultKind) => {
      if (kind === 'timeout') return void setTimeout(() => res.destroy(), HANG_MS);
      const s = statusBody(kind as '409' | '429' | '500');
      res.writeHead(s.code, {
        'content-type': 'application/json',
        ...(kind === '429' ? { 'retry-after': '1' } : {}),
      });
      res.end(s.body);
    };
    if (fault && fault.when === 'before') return fail(fault.kind);
    const up = forward(
      req,
      body,
      (upRes) => {
        if (fault?.kind === '500' || fault?.kind === 'timeout') {
          upRes.resume(); // served; the answer is lost
          return fail(fault.kind);
        }
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
        if (fault?.kind === 'drop-watch') setTimeout(() => res.destroy(), 1000 + rand() * 10_000);
      },
      (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`chaos proxy: ${err.message}`);
      },
    );
    res.on('close', () => up.destroy());
  };

  const handler =
    o.mode === 'watcher'
      ? watcherHandler({
          rand,
          rate: () => proxy.rate,
          injected: proxy.injected,
          requests: proxy.requests,
          forward,
        })
      : handle;
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      open.add(res);
      res.on('close', () => open.delete(res));
      handler(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  proxy.proxied = async (kubeconfig, file) => {
    const text = await readFile(kubeconfig, 'utf8');
    await writePrivateFile(file, text.replace(/server: https:\/\/[^\s]+/, `server: https://127.0.0.1:${port}`));
    return file;
  };
  await proxy.proxied(cluster.endpoints.kubeconfig, o.kubeconfig);
  proxy.close = async () => {
    for (const r of open) r.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return proxy;
}
