/**
 * `regatta dashboard`'s web server (node:http, docs/adr/0083): one static page (page.ts) and JSON endpoints the page
 * polls. Reads and writes go through the user's own client (cluster.ts); guard.ts decides which requests are answered.
 *
 *   GET  /                      the page (with the run's token)
 *   GET  /app.js, /app.css      its script and style
 *   GET  /api/workloads         every workload of the scope with its rollout phase
 *   GET  /api/workload?kind=&namespace=&name=   summary, pods by revision, trace reference
 *   GET  /api/trace?kind=&namespace=&name=      the latest rollout's waterfall from Jaeger
 *   POST /api/pause, /api/resume  {kind, namespace, name}   the kind's pause switch
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeApiError } from '@regatta/kube';
import { JaegerQueryError, RolloutCliError, WorkloadNotFoundError } from '@regatta/rollout-cli';
import { readDetail, readTrace, readWorkloads, setPaused, type DashboardSource } from './cluster.js';
import { TOKEN_HEADER, checkHost, checkMutation, dashboardUrl, type Refusal } from './guard.js';
import { APP_CSS, APP_JS, pageHtml, type PageConfig } from './page.js';
import { workloadRef } from './view.js';

export interface DashboardOptions {
  source: DashboardSource;
  /** A loopback address (guard.ts `listenAddress`). */
  address: string;
  /** 0: any free port. */
  port: number;
  /** What the page's header says: the kubeconfig context. */
  context: string;
  /** How often the page asks again (ms). Default 2000. */
  refreshMs?: number;
  /** One line per refused or failed request. */
  log?: (line: string) => void;
  /** The run's token; default 16 random bytes. */
  token?: string;
}

export interface Dashboard {
  url: string;
  port: number;
  close: () => Promise<void>;
}

const MAX_BODY = 4096;

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

/** What the page shows for a failed call: the API server's (or Jaeger's) message, with a status it can tell apart. */
export function errorAnswer(e: unknown): { status: number; body: { error: string; code?: string } } {
  const err = e as Error & { code?: unknown };
  const code = typeof err.code === 'string' ? err.code : undefined;
  const body = { error: err.message || String(e), ...(code ? { code } : {}) };
  if (e instanceof KubeApiError) return { status: e.status >= 400 && e.status < 600 ? e.status : 502, body };
  if (e instanceof WorkloadNotFoundError) return { status: 404, body };
  if (e instanceof JaegerQueryError) return { status: 502, body };
  if (e instanceof RolloutCliError) return { status: e.exitCode === 2 ? 400 : 409, body };
  // the client could not reach the API server (network, TLS, credentials file): a bad gateway, not a bug here
  if (code?.startsWith('REGATTA_KUBE')) return { status: 502, body };
  return { status: 500, body };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw Object.assign(new Error('the body must be application/json'), { status: 415 });
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw Object.assign(new Error(`the body is over ${MAX_BODY} bytes`), { status: 413 });
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw Object.assign(new Error('the body is not JSON'), { status: 400 });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw Object.assign(new Error('the body must be a JSON object'), { status: 400 });
  return value as Record<string, unknown>;
}

/** Starts the server; resolves once it listens. */
export async function startDashboard(o: DashboardOptions): Promise<Dashboard> {
  const token = o.token ?? randomBytes(16).toString('hex');
  const log = o.log ?? (() => undefined);
  let port = o.port;
  const config = (): PageConfig => ({
    token,
    context: o.context,
    scope: o.source.allNamespaces ? 'all namespaces' : `namespace ${o.source.ctx.namespace}`,
    jaeger: o.source.jaeger ?? null,
    refreshMs: o.refreshMs ?? 2000,
  });

  const refuse = (req: IncomingMessage, res: ServerResponse, r: NonNullable<Refusal>) => {
    log(`refused ${req.method} ${req.url}: ${r.message}`);
    json(res, r.status, { error: r.message });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
    const hostRefusal = checkHost(req.headers.host, port);
    if (hostRefusal) return refuse(req, res, hostRefusal);
    const query = Object.fromEntries(url.searchParams);
    const ns = o.source.ctx.namespace;

    if (url.pathname === '/api/pause' || url.pathname === '/api/resume') {
      const refusal = checkMutation(
        {
          method: req.method ?? '',
          host: req.headers.host,
          origin: req.headers.origin,
          token: typeof req.headers[TOKEN_HEADER] === 'string' ? req.headers[TOKEN_HEADER] : undefined,
        },
        token,
        port,
      );
      if (refusal) return refuse(req, res, refusal);
      const ref = workloadRef(await readBody(req), ns);
      const message = await setPaused(o.source, ref, url.pathname === '/api/pause');
      log(message);
      return json(res, 200, { message });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(req, res, { status: 405, message: 'use GET' });
    switch (url.pathname) {
      case '/':
        return send(res, 200, 'text/html; charset=utf-8', pageHtml(config()));
      case '/app.js':
        return send(res, 200, 'text/javascript; charset=utf-8', APP_JS);
      case '/app.css':
        return send(res, 200, 'text/css; charset=utf-8', APP_CSS);
      case '/api/workloads':
        return json(res, 200, await readWorkloads(o.source));
      case '/api/workload':
        return json(res, 200, await readDetail(o.source, workloadRef(query, ns)));
      case '/api/trace':
        return json(res, 200, await readTrace(o.source, workloadRef(query, ns)));
      default:
        return json(res, 404, { error: `no such page: ${url.pathname}` });
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const status = (e as { status?: unknown }).status;
      const answer =
        typeof status === 'number' && !(e instanceof KubeApiError)
          ? { status, body: { error: (e as Error).message } }
          : errorAnswer(e);
      if (answer.status >= 500) log(`${req.method} ${req.url}: ${answer.body.error}`);
      if (!res.headersSent) json(res, answer.status, answer.body);
      else res.destroy();
    });
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new RolloutCliError(
          'REGATTA_DASHBOARD_LISTEN',
          `cannot listen on ${dashboardUrl(o.address, o.port)}: ${e.code === 'EADDRINUSE' ? 'the port is in use; pass --port N (0: any free port)' : e.message}`,
          1,
          { cause: e },
        ),
      ),
    );
    server.listen(o.port, o.address, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: dashboardUrl(o.address, port),
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
