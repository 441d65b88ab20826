import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AlreadyStartedError, InvalidOptionsError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { Checker, Runnable } from '../runnable.js';
import {
  AdmissionDeniedError,
  admissionReview,
  BadAdmissionReviewError,
  Mutation,
  parseAdmissionReview,
  type AdmissionInput,
  type AdmissionResponse,
  type MutatingHandler,
  type ValidatingHandler,
} from './admission.js';
import { ADDRESS_FILE_ENV, formatAddress, recordAddress } from './address-file.js';
import { BodyTooLargeError, readBody, sendFailure, sendJson } from './body.js';
import { createJsonPatch } from '@regatta/kube';
import { serveUntil } from './serve.js';
import { loadKeyPair, type KeyPair, type TlsSource } from './tls.js';
import { instrumentWebhookServer, type EndWebhookRequest, type WebhookAnswer } from './webhook-metrics.js';
import type { Registry } from 'prom-client';
import { defaultListenHost } from '../process-config.js';

/**
 * A mutation that changes a list in more places than this answers with one `replace` of the list: the API server
 * applies a JSON Patch one operation at a time over the whole object, and defaults for each of 1524 containers
 * (4580 operations) took seconds to admit (docs/reliability-findings-1-16.md, finding 3).
 */
export const MAX_PATCH_LIST_OPERATIONS = 16;

export interface WebhookServerOptions {
  tls: TlsSource;
  /** Default 9443 (controller-runtime's webhook port); 0 picks a free one. */
  port?: number;
  /** Default `defaultListenHost()`: all interfaces in a pod, loopback elsewhere. */
  host?: string;
  /**
   * Where the bound address is recorded as `webhook` (docs/adr/0015); default `REGATTA_ADDRESS_FILE`, none when
   * unset.
   */
  addressFile?: string;
  /** Time to receive a request and answer it. Default 10 s (the API server's default webhook timeout). */
  requestTimeoutMs?: number;
  /** Largest accepted body. Default 3 MiB. */
  maxBodyBytes?: number;
  logger?: Logger;
  /** Where the server's connection count and request times go (webhook-metrics.ts); none when unset. */
  registry?: Registry;
}

type Route = { type: 'validate'; handler: ValidatingHandler } | { type: 'mutate'; handler: MutatingHandler };

const MiB = 1024 * 1024;

class HandlerTimeout extends Error {}

/** How long an idle kept-alive connection stays open: longer than the API server's 90 s, so it is the one to close. */
const KEEP_ALIVE_TIMEOUT_MS = 120_000;

/**
 * The admission webhook server: HTTPS, AdmissionReview `admission.k8s.io/v1`, one handler per
 * path. Handlers must be fast and side-effect free.
 *
 * - Validating handlers return allowed or a denial status ({@link invalid} builds 422s with
 *   field causes). Mutating handlers return the object to write; the server answers with the
 *   JSON Patch from the request's object to it.
 * - A handler that throws denies the request with code 500 and the error's message (or with
 *   the status of an {@link AdmissionDeniedError}); one that overruns the request timeout
 *   denies it with 504.
 * - Malformed requests get a 4xx `Status` JSON body: unknown path 404, method other than POST
 *   405, non-JSON content type 415, body over the limit 413, unparseable JSON or not an
 *   AdmissionReview v1 request (apiVersion, kind, request.uid…) 400.
 */
export class WebhookServer implements Runnable {
  readonly name = 'webhook-server';
  readonly isServer = true;
  readonly #options: WebhookServerOptions;
  readonly #routes = new Map<string, Route>();
  readonly #log: Logger;
  readonly #timeoutMs: number;
  readonly #maxBody: number;
  #started = false;
  #ready = false;
  #current: KeyPair | undefined;
  #address: AddressInfo | undefined;
  #listeningResolve!: (a: AddressInfo) => void;
  readonly #listening = new Promise<AddressInfo>((resolve) => (this.#listeningResolve = resolve));

  constructor(options: WebhookServerOptions) {
    this.#options = options;
    this.#log = (options.logger ?? silentLogger).child({ component: 'webhook-server' });
    this.#timeoutMs = options.requestTimeoutMs ?? 10_000;
    this.#maxBody = options.maxBodyBytes ?? 3 * MiB;
  }

  /** Serves a mutating webhook on `path` (e.g. `/mutate-apps-kruise-io-v1alpha1-cloneset`). */
  mutate<T = unknown>(path: string, handler: MutatingHandler<T>): void {
    // the server decodes the object as unknown JSON; the handler's type says what its route admits
    this.#register(path, { type: 'mutate', handler: (input) => handler(input as AdmissionInput<T>) });
  }

  /** Serves a validating webhook on `path` (e.g. `/validate-apps-kruise-io-v1alpha1-cloneset`). */
  validate<T = unknown>(path: string, handler: ValidatingHandler<T>): void {
    this.#register(path, { type: 'validate', handler: (input) => handler(input as AdmissionInput<T>) });
  }

  /** Resolves with the bound address once the server listens. */
  listening(): Promise<AddressInfo> {
    return this.#listening;
  }

  get address(): AddressInfo | undefined {
    return this.#address;
  }

  /** Readiness: passes once certificates are loaded and the server listens. */
  startedCheck(): Checker {
    return () => {
      if (!this.#ready) throw new Error('webhook server is not serving yet');
    };
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new AlreadyStartedError(this.name);
    this.#started = true;
    this.#current = await loadKeyPair(this.#options.tls);
    let timed: ((path: string) => EndWebhookRequest) | undefined;
    const server = createServer({ ...this.#current, minVersion: 'TLSv1.2' }, (req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      // no label per arbitrary URL; observed once, when the answer is ready (else when the request ends)
      const end = timed?.(this.#routes.has(path) ? path : 'unknown');
      let ended = false;
      const done = (answer?: WebhookAnswer) => {
        if (!ended) end?.(answer ? 200 : res.statusCode, answer);
        ended = true;
      };
      this.#handle(req, res, done)
        .catch((err: unknown) => {
          this.#log.error({ err, path: req.url }, 'webhook request failed');
          if (!res.headersSent) sendFailure(res, 500, 'InternalError', 'internal error');
          else res.destroy();
        })
        .finally(() => done());
    });
    if (this.#options.registry) timed = instrumentWebhookServer(server, this.#options.registry);
    server.requestTimeout = this.#timeoutMs;
    server.headersTimeout = this.#timeoutMs;
    // the API server keeps its webhook connections for up to 90 s idle (Go's transport default): a server closing
    // them sooner (Node's default is 5 s) races the API server's next request on that connection, which then fails
    // with "use of closed network connection" as a 500 to the user (an admission POST is not retried). The client
    // closes first when the server waits longer.
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    const stopReload = this.#watchCertificates(server);
    try {
      await serveUntil(
        server,
        this.#options.host ?? defaultListenHost(),
        this.#options.port ?? 9443,
        signal,
        async (address) => {
          this.#address = address;
          this.#log.info({ address: formatAddress(address), paths: [...this.#routes.keys()] }, 'listening');
          await recordAddress('webhook', address, this.#options.addressFile ?? process.env[ADDRESS_FILE_ENV]);
          this.#ready = true;
          this.#listeningResolve(address);
        },
      );
    } finally {
      this.#ready = false;
      stopReload();
    }
  }

  #register(path: string, route: Route): void {
    if (this.#started)
      throw new InvalidOptionsError('webhook route', `cannot add ${path} after the server started`);
    if (!path.startsWith('/'))
      throw new InvalidOptionsError('webhook route', `path '${path}' must start with '/'`);
    if (this.#routes.has(path))
      throw new InvalidOptionsError('webhook route', `path '${path}' is already registered`);
    this.#routes.set(path, route);
  }

  /** Re-reads certificate files periodically; a changed, usable pair replaces the served one. */
  #watchCertificates(server: Server): () => void {
    const tls = this.#options.tls;
    if ('certPem' in tls) return () => undefined;
    const timer = setInterval(() => {
      loadKeyPair(tls).then(
        (pair) => {
          if (pair.cert === this.#current?.cert && pair.key === this.#current.key) return;
          server.setSecureContext({ ...pair, minVersion: 'TLSv1.2' });
          this.#current = pair;
          this.#log.info({ certFile: tls.certFile }, 'serving certificate reloaded');
        },
        (err: unknown) =>
          this.#log.error({ err }, 'reloading the serving certificate failed; keeping the current one'),
      );
    }, tls.reloadIntervalMs ?? 10_000);
    return () => clearInterval(timer);
  }

  /** `answered` is called when the answer is ready, before it is written (the request's time, webhook-metrics.ts). */
  async #handle(
    req: IncomingMessage,
    res: ServerResponse,
    answered: (answer: WebhookAnswer) => void,
  ): Promise<void> {
    const path = new URL(req.url ?? '/', 'https://webhook').pathname;
    const route = this.#routes.get(path);
    if (!route) {
      sendFailure(res, 404, 'NotFound', `no webhook is served on ${path}`);
      return;
    }
    if (req.method !== 'POST') {
      sendFailure(res, 405, 'MethodNotAllowed', `${req.method ?? ''} is not allowed; use POST`, {
        allow: 'POST',
      });
      return;
    }
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (contentType !== 'application/json') {
      sendFailure(
        res,
        415,
        'UnsupportedMediaType',
        `content type ${JSON.stringify(contentType)}; expected application/json`,
      );
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(req, this.#maxBody);
    } catch (err) {
      if (!(err instanceof BodyTooLargeError)) throw err;
      sendFailure(res, 413, 'RequestEntityTooLarge', err.message, { connection: 'close' });
      return;
    }
    let input: AdmissionInput;
    try {
      input = parseAdmissionReview(JSON.parse(body.toString('utf8')) as unknown);
    } catch (err) {
      if (err instanceof SyntaxError) {
        sendFailure(res, 400, 'BadRequest', `body is not valid JSON: ${err.message}`);
        return;
      }
      if (err instanceof BadAdmissionReviewError) {
        sendFailure(res, 400, 'BadRequest', err.message);
        return;
      }
      throw err;
    }
    const response = await this.#review(route, input, path);
    const answer = admissionReview(response);
    answered({
      kind: input.kind.kind,
      operation: input.operation,
      code: response.allowed ? 200 : (response.status?.code ?? 403),
    });
    sendJson(res, 200, answer);
  }

  async #review(route: Route, input: AdmissionInput, path: string): Promise<AdmissionResponse> {
    const log = this.#log.child({
      path,
      uid: input.uid,
      operation: input.operation,
      kind: input.kind.kind,
      ...(input.namespace && { namespace: input.namespace }),
      ...(input.name && { name: input.name }),
    });
    try {
      if (route.type === 'validate') {
        const result = await this.#withTimeout(() => route.handler(input));
        log.debug({ allowed: result.allowed }, 'validated');
        return {
          uid: input.uid,
          allowed: result.allowed,
          ...(!result.allowed && { status: result.status }),
          ...(result.warnings?.length && { warnings: result.warnings }),
        };
      }
      const original = input.object;
      // the handler gets its own copy, so mutating it in place is fine
      const answer = await this.#withTimeout(() =>
        route.handler({ ...input, object: structuredClone(original) }),
      );
      const mutated = answer instanceof Mutation ? answer.object : answer;
      const warnings =
        answer instanceof Mutation && answer.warnings.length ? { warnings: [...answer.warnings] } : {};
      const patch =
        mutated === undefined
          ? []
          : createJsonPatch(original, mutated, {
              maxListOperations: MAX_PATCH_LIST_OPERATIONS,
            });
      log.debug({ operations: patch.length }, 'mutated');
      if (patch.length === 0) return { uid: input.uid, allowed: true, ...warnings };
      return {
        uid: input.uid,
        allowed: true,
        patchType: 'JSONPatch',
        patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
        ...warnings,
      };
    } catch (err) {
      if (err instanceof AdmissionDeniedError) {
        log.debug({ status: err.status }, 'denied by handler');
        return { uid: input.uid, allowed: false, status: err.status };
      }
      if (err instanceof HandlerTimeout) {
        log.error({ timeoutMs: this.#timeoutMs }, 'admission handler timed out');
        return {
          uid: input.uid,
          allowed: false,
          status: { code: 504, reason: 'Timeout', message: err.message },
        };
      }
      log.error({ err }, 'admission handler failed');
      const message = err instanceof Error ? err.message : String(err);
      return { uid: input.uid, allowed: false, status: { code: 500, reason: 'InternalError', message } };
    }
  }

  async #withTimeout<T>(fn: () => T | Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new HandlerTimeout(`admission handler did not answer within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
    });
    try {
      return await Promise.race([Promise.resolve().then(fn), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
