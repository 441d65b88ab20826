import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { AlreadyStartedError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { Checker, Runnable } from '../runnable.js';
import { ADDRESS_FILE_ENV, formatAddress, recordAddress } from './address-file.js';
import { sendFailure } from './body.js';
import { serveUntil } from './serve.js';
import { defaultListenHost } from '../process-config.js';

export interface ProbeServerOptions {
  /** Default 8081 (controller-runtime's health probe port); 0 picks a free one. */
  port?: number;
  /** Default `defaultListenHost()`: all interfaces in a pod, loopback elsewhere. */
  host?: string;
  /**
   * Where the bound address is recorded as `health` (docs/adr/0015); default `REGATTA_ADDRESS_FILE`, none when
   * unset.
   */
  addressFile?: string;
  /** Served on `/metrics` when given. */
  registry?: Registry;
  logger?: Logger;
}

interface CheckOutcome {
  name: string;
  error?: string;
}

/**
 * One plain-HTTP server for the kubelet's probes and Prometheus: `/healthz` and `/readyz` run
 * their named checks (all must pass; `?verbose` lists them; `/readyz/<name>` runs one), and
 * `/metrics` serves the registry in Prometheus text format.
 */
export class ProbeServer implements Runnable {
  readonly name = 'probe-server';
  readonly isServer = true;
  readonly #port: number;
  readonly #host: string;
  readonly #registry: Registry | undefined;
  readonly #addressFile: string | undefined;
  readonly #log: Logger;
  readonly #checks = { healthz: new Map<string, Checker>(), readyz: new Map<string, Checker>() };
  #started = false;
  #address: AddressInfo | undefined;
  #listeningResolve!: (a: AddressInfo) => void;
  readonly #listening = new Promise<AddressInfo>((resolve) => (this.#listeningResolve = resolve));

  constructor(options: ProbeServerOptions = {}) {
    this.#port = options.port ?? 8081;
    this.#host = options.host ?? defaultListenHost();
    this.#registry = options.registry;
    this.#addressFile = options.addressFile ?? process.env[ADDRESS_FILE_ENV];
    this.#log = (options.logger ?? silentLogger).child({ component: 'probe-server' });
  }

  addHealthzCheck(name: string, check: Checker): void {
    this.#checks.healthz.set(name, check);
  }

  addReadyzCheck(name: string, check: Checker): void {
    this.#checks.readyz.set(name, check);
  }

  /** Resolves with the bound address once the server listens. */
  listening(): Promise<AddressInfo> {
    return this.#listening;
  }

  get address(): AddressInfo | undefined {
    return this.#address;
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new AlreadyStartedError(this.name);
    this.#started = true;
    const server = createServer((req, res) => {
      this.#handle(req, res).catch((err: unknown) => {
        this.#log.error({ err, path: req.url }, 'probe request failed');
        if (!res.headersSent) sendFailure(res, 500, 'InternalError', 'internal error');
        else res.destroy();
      });
    });
    server.requestTimeout = 10_000;
    server.headersTimeout = 10_000;
    await serveUntil(server, this.#host, this.#port, signal, async (address) => {
      this.#address = address;
      this.#log.info(
        { address: formatAddress(address), paths: ['/healthz', '/readyz', '/metrics'] },
        'listening',
      );
      await recordAddress('health', address, this.#addressFile);
      this.#listeningResolve(address);
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://probe');
    const [, first = '', only, ...rest] = url.pathname.split('/');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendFailure(res, 405, 'MethodNotAllowed', `${req.method ?? ''} is not allowed; use GET`, {
        allow: 'GET, HEAD',
      });
      return;
    }
    if (first === 'metrics' && only === undefined && this.#registry) {
      const text = await this.#registry.metrics();
      res.writeHead(200, { 'content-type': this.#registry.contentType });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    if ((first === 'healthz' || first === 'readyz') && rest.length === 0) {
      await this.#serveChecks(first, only, url.searchParams.has('verbose'), req, res);
      return;
    }
    sendFailure(res, 404, 'NotFound', `no such path: ${url.pathname}`);
  }

  async #serveChecks(
    kind: 'healthz' | 'readyz',
    only: string | undefined,
    verbose: boolean,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const checks = this.#checks[kind];
    let selected = [...checks];
    if (only !== undefined && only !== '') {
      const check = checks.get(only);
      if (!check) {
        sendFailure(res, 404, 'NotFound', `no ${kind} check named '${only}'`);
        return;
      }
      selected = [[only, check]];
    }
    const outcomes = await Promise.all(selected.map(([name, check]) => runCheck(name, check)));
    const failed = outcomes.filter((o) => o.error !== undefined);
    for (const f of failed) this.#log.debug({ check: f.name, reason: f.error }, `${kind} check failed`);
    const lines = outcomes.map((o) =>
      o.error === undefined ? `[+]${o.name} ok` : `[-]${o.name} failed: ${o.error}`,
    );
    let body: string;
    if (failed.length > 0) body = `${lines.join('\n')}\n${kind} check failed\n`;
    else body = verbose ? `${lines.join('\n')}\n${kind} check passed\n` : 'ok';
    res.writeHead(failed.length > 0 ? 500 : 200, {
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}

async function runCheck(name: string, check: Checker): Promise<CheckOutcome> {
  try {
    await check();
    return { name };
  } catch (err) {
    return { name, error: err instanceof Error ? err.message : String(err) };
  }
}
