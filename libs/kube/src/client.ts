/**
 * KubeClient: one generic, typed client for built-in kinds and custom resources alike, addressed by
 * {@link ResourceRef} (apiVersion, kind, namespace, name).
 *
 * Transport choice. `@kubernetes/client-node` 2.0.1 is used for what it does well — loading kubeconfigs (files,
 * in-cluster, exec / OIDC / token-file auth) and applying credentials and TLS to a request
 * (`KubeConfig.applySecurityAuthentication`) — and its fetch-based `IsomorphicFetchHttpLibrary` sends the request.
 * URLs are built here from a small static kind table plus discovery. Its `KubernetesObjectApi` is not used because
 * it (1) round-trips bodies through the typed model serializer, which drops fields the typed models do not know and
 * turns timestamps into `Date`s, while controllers here work on plain JSON; (2) cannot address subresources
 * (`/status`); (3) cannot send JSON Patch (it derives the URL from the body); (4) has no delete preconditions in its
 * signature beyond a body. Bodies stay plain JSON end to end.
 *
 * Connection reuse. client-node 2.0.1 builds a new undici Agent on every `applySecurityAuthentication` call (no
 * keep-alive across requests). This client keeps the first Agent and reuses it for every later request, closing the
 * fresh ones unused; headers (tokens, which rotate) are still applied per request. TLS material is therefore read
 * once per client: create a new client if client certificates rotate. `close()` releases the connections.
 * The Agent speaks HTTP/2 when the server offers it (undici 8 negotiates it by default; kube-apiserver does), so every
 * request of a client, concurrent ones included, shares one keep-alive connection, as client-go's do: measured
 * against a local API server, 1 000 GETs one after another and 1 000 with 32 in flight each used one connection
 * (docs/benchmarks.md, section 2). Applying the credentials per request costs ~20–140 µs of the ~2 ms of client CPU
 * a small request takes, so it is kept for the tokens that rotate.
 *
 * Every failure is thrown as a {@link KubeApiError} subclass (see errors.ts).
 */
import { HttpMethod, IsomorphicFetchHttpLibrary, KubeConfig, RequestContext } from '@kubernetes/client-node';
import { MAX_THROTTLE_RETRIES, TokenBucket, rateLimitFromEnv, throttledRetryDelayMs } from './client-rate-limit.js';
import { GoneError, KubeApiError, NotFoundError, UnknownResourceError, kubeErrorFromResponse, toKubeApiError } from './errors.js';
import type { KubeObject } from './meta.js';
import { PATCH_CONTENT_TYPES } from './patch.js';
import { ProjectedWriteError, isProjected } from './projected.js';
import { type ResourceInfo, apiVersionPath, fieldSelectorToString, knownResource, resourcePath } from './resources.js';
import { sleep } from './retry.js';
import { labelSelectorToString } from './selector.js';
import { splitApiVersion } from './meta.js';
import { goEscapedJson } from './json-body.js';

import type {
  CollectionRef,
  DeleteOptions,
  KubeClientOptions,
  KubeResponse,
  KubeList,
  ListOptions,
  PatchOptions,
  RawRequest,
  ReplaceOptions,
  ResourceRef,
  WriteOptions,
} from './client-options.js';

export class KubeConfigError extends Error {
  readonly code = 'REGATTA_KUBE_CONFIG';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KubeConfigError';
  }
}

/** A call was made with arguments the API cannot accept (missing namespace, apiVersion, resourceVersion, …). */
export class KubeUsageError extends Error {
  readonly code = 'REGATTA_KUBE_USAGE';

  constructor(message: string) {
    super(message);
    this.name = 'KubeUsageError';
  }
}

type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

interface ApiResourceList {
  resources?: { name: string; kind: string; namespaced: boolean }[];
}

const DEFAULT_TIMEOUT_MS = 30_000;

export class KubeClient {
  private readonly http = new IsomorphicFetchHttpLibrary();
  private readonly server: string;
  /** Sent as User-Agent on every request, watches included. */
  readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly fieldManager: string | undefined;
  private readonly onResponse: ((r: KubeResponse) => void) | undefined;
  private readonly resources = new Map<string, ResourceInfo>();
  private readonly discovery = new Map<string, Promise<ApiResourceList>>();
  private dispatcher: Dispatcher | undefined;
  private dispatcherChosen = false;
  private readonly bucket: TokenBucket | undefined;
  private readonly maxThrottleRetries: number;
  private readonly writeGate: (() => void) | undefined;

  constructor(
    readonly kubeConfig: KubeConfig,
    options: KubeClientOptions = {},
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster?.server) {
      throw new KubeConfigError(
        `the kubeconfig's current context (${JSON.stringify(kubeConfig.getCurrentContext())}) names no cluster server; ` +
          'fix current-context or the cluster entry',
      );
    }
    this.server = cluster.server.replace(/\/+$/, '');
    this.userAgent = options.userAgent ?? 'regatta';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fieldManager = options.fieldManager;
    this.onResponse = options.onResponse;
    this.bucket = options.rateLimit ? new TokenBucket(options.rateLimit) : undefined;
    this.maxThrottleRetries = options.maxThrottleRetries ?? MAX_THROTTLE_RETRIES;
    this.writeGate = options.writeGate;
  }

  /** A client for a kubeconfig file, optionally with another context than its current one. */
  static fromKubeconfigFile(path: string, options: KubeClientOptions & { context?: string } = {}): KubeClient {
    const kc = new KubeConfig();
    try {
      kc.loadFromFile(path);
      if (options.context !== undefined) kc.setCurrentContext(options.context);
    } catch (e) {
      throw new KubeConfigError(
        `cannot load kubeconfig ${path}: ${e instanceof Error ? e.message : String(e)}; check the path and the file's contents`,
        { cause: e },
      );
    }
    return new KubeClient(kc, options);
  }

  /**
   * A client from the environment: the file(s) in `KUBECONFIG` if set, else the in-cluster service account
   * (`KUBERNETES_SERVICE_HOST`). There is deliberately no fallback to `~/.kube/config` or localhost. Unless
   * `options.rateLimit` is given, its requests are limited as `REGATTA_KUBE_QPS` / `REGATTA_KUBE_BURST` say
   * (client-rate-limit.ts; on by default, as for every program).
   */
  static fromDefault(options: KubeClientOptions = {}): KubeClient {
    const kc = new KubeConfig();
    try {
      if (process.env['KUBECONFIG']) kc.loadFromDefault();
      else if (process.env['KUBERNETES_SERVICE_HOST']) kc.loadFromCluster();
      else {
        throw new KubeConfigError(
          'no cluster configuration: set KUBECONFIG to a kubeconfig file, or run in a pod (KUBERNETES_SERVICE_HOST is not set)',
        );
      }
    } catch (e) {
      if (e instanceof KubeConfigError) throw e;
      throw new KubeConfigError(
        `cannot load the cluster configuration: ${e instanceof Error ? e.message : String(e)}; check KUBECONFIG or the service-account mount`,
        { cause: e },
      );
    }
    return new KubeClient(kc, { ...options, rateLimit: options.rateLimit ?? rateLimitFromEnv() });
  }

  /** The API server URL of the current context. */
  get serverUrl(): string {
    return this.server;
  }

  /** Adds or overrides the mapping of a kind (e.g. a CRD that is not in the static table), skipping discovery. */
  registerResource(info: ResourceInfo): void {
    this.resources.set(`${info.group}/${info.kind}`, info);
  }

  /** Plural and scope of a kind: the static table, then resources registered here, then discovery (cached). */
  async resource(apiVersion: string, kind: string): Promise<ResourceInfo> {
    const group = splitApiVersion(apiVersion).group;
    const cached = this.resources.get(`${group}/${kind}`) ?? knownResource(apiVersion, kind);
    if (cached) return cached;
    let pending = this.discovery.get(apiVersion);
    if (!pending) {
      pending = this.send('GET', apiVersionPath(apiVersion), {}) as Promise<ApiResourceList>;
      this.discovery.set(apiVersion, pending);
    }
    let list: ApiResourceList;
    try {
      list = await pending;
    } catch (e) {
      this.discovery.delete(apiVersion);
      if (e instanceof NotFoundError || e instanceof UnknownResourceError) {
        throw new UnknownResourceError({ status: 404, serverMessage: `the API server does not serve ${apiVersion}`, cause: e });
      }
      throw e;
    }
    const found = list.resources?.find((r) => r.kind === kind && !r.name.includes('/'));
    if (!found) {
      // forget the answer so a CRD version installed later is found on the next call
      this.discovery.delete(apiVersion);
      throw new UnknownResourceError({ status: 404, serverMessage: `${apiVersion} has no kind ${kind}` });
    }
    const info: ResourceInfo = { group, kind, plural: found.name, namespaced: found.namespaced };
    this.resources.set(`${group}/${kind}`, info);
    return info;
  }

  async get<T extends KubeObject = KubeObject>(ref: ResourceRef): Promise<T> {
    const path = await this.objectPath(ref);
    return (await this.send('GET', path, {})) as T;
  }

  /** Like {@link get}, but `undefined` when the object does not exist. */
  async getOrUndefined<T extends KubeObject = KubeObject>(ref: ResourceRef): Promise<T | undefined> {
    try {
      return await this.get<T>(ref);
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  }

  /** One page (or, without `limit`, all) of a collection; every item carries apiVersion and kind. */
  async list<T extends KubeObject = KubeObject>(ref: CollectionRef, options: ListOptions = {}): Promise<KubeList<T>> {
    const info = await this.resourceOf(ref);
    const path = resourcePath(info, ref.apiVersion, ref.namespace);
    const query: Record<string, string | number | undefined> = {
      labelSelector:
        options.labelSelector === undefined
          ? undefined
          : typeof options.labelSelector === 'string'
            ? options.labelSelector
            : labelSelectorToString(options.labelSelector),
      fieldSelector:
        options.fieldSelector === undefined
          ? undefined
          : typeof options.fieldSelector === 'string'
            ? options.fieldSelector
            : fieldSelectorToString(options.fieldSelector),
      limit: options.limit,
      continue: options.continue,
      resourceVersion: options.resourceVersion,
      resourceVersionMatch: options.resourceVersionMatch,
    };
    const list = (await this.send('GET', path, { query })) as KubeList<T>;
    list.metadata ??= {};
    // the API server omits apiVersion/kind on the items of built-in lists; fill them so items are whole objects
    list.items = (list.items ?? []).map((it) => (it.apiVersion && it.kind ? it : { ...it, apiVersion: ref.apiVersion, kind: ref.kind }));
    return list;
  }

  /**
   * The whole collection, read in pages of `pageSize` (default 500). If a continue token expires mid-way (410), it
   * falls back to one unpaged list, as client-go's pager does.
   */
  async listAll<T extends KubeObject = KubeObject>(
    ref: CollectionRef,
    options: Omit<ListOptions, 'limit' | 'continue'> & { pageSize?: number } = {},
  ): Promise<KubeList<T>> {
    const { pageSize = 500, ...rest } = options;
    const items: T[] = [];
    let page: KubeList<T> | undefined;
    let token: string | undefined;
    try {
      do {
        page = await this.list<T>(ref, { ...rest, limit: pageSize, continue: token });
        items.push(...page.items);
        token = page.metadata.continue || undefined;
      } while (token);
    } catch (e) {
      if (e instanceof GoneError && token !== undefined) return this.list<T>(ref, rest);
      throw e;
    }
    return { ...page, metadata: { resourceVersion: page.metadata.resourceVersion }, items };
  }

  /** POST; the namespace comes from `metadata.namespace`, the name from `metadata.name` or `generateName`. */
  async create<T extends KubeObject>(obj: T, options: WriteOptions = {}): Promise<T> {
    const { apiVersion, kind } = this.gvkOf(obj, 'create');
    const info = await this.resource(apiVersion, kind);
    const ns = obj.metadata?.namespace;
    if (info.namespaced && !ns) throw new KubeUsageError(`create ${kind}: set metadata.namespace (${kind} is namespaced)`);
    if (!obj.metadata?.name && !obj.metadata?.generateName) {
      throw new KubeUsageError(`create ${kind}: set metadata.name or metadata.generateName`);
    }
    return (await this.send('POST', resourcePath(info, apiVersion, ns), {
      query: this.writeQuery(options),
      body: obj,
    })) as T;
  }

  /**
   * PUT the whole object; optimistic — `metadata.resourceVersion` must be set unless `unconditional`. A projected
   * object (a cache's, marked `PROJECTED`) is refused with {@link ProjectedWriteError}: patch it instead.
   */
  async replace<T extends KubeObject>(obj: T, options: ReplaceOptions = {}): Promise<T> {
    return this.put(obj, undefined, options);
  }

  /** PUT the `status` subresource (only status changes are kept by the server); optimistic like {@link replace}. */
  async updateStatus<T extends KubeObject>(obj: T, options: ReplaceOptions = {}): Promise<T> {
    return this.put(obj, 'status', options);
  }

  /**
   * PATCH with the given type: `merge` (RFC 7396), `json` (RFC 6902 operations array), `strategic` (built-in kinds
   * only), or `apply` (server-side apply: needs a field manager; apiVersion, kind and name are filled in when absent).
   */
  async patch<T extends KubeObject = KubeObject>(ref: ResourceRef, patch: unknown, options: PatchOptions): Promise<T> {
    const path = await this.objectPath(ref, options.subresource);
    let body = patch;
    if (options.type === 'json') {
      if (!Array.isArray(patch)) throw new KubeUsageError('a json patch must be an array of RFC 6902 operations');
    } else if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
      throw new KubeUsageError(`a ${options.type} patch must be a JSON object`);
    }
    const fieldManager = options.fieldManager ?? this.fieldManager;
    if (options.type === 'apply') {
      if (!fieldManager) throw new KubeUsageError('an apply patch needs a fieldManager (set it in the options or on the client)');
      const p = patch as KubeObject;
      body = {
        ...p,
        apiVersion: p.apiVersion ?? ref.apiVersion,
        kind: p.kind ?? ref.kind,
        metadata: { ...p.metadata, name: p.metadata?.name ?? ref.name, namespace: p.metadata?.namespace ?? ref.namespace },
      };
    } else if (options.force !== undefined) {
      throw new KubeUsageError('force is only valid for apply patches');
    }
    return (await this.send('PATCH', path, {
      query: { ...this.writeQuery(options), force: options.force },
      body,
      contentType: PATCH_CONTENT_TYPES[options.type],
    })) as T;
  }

  /** PATCH the `status` subresource. */
  async patchStatus<T extends KubeObject = KubeObject>(
    ref: ResourceRef,
    patch: unknown,
    options: Omit<PatchOptions, 'subresource'>,
  ): Promise<T> {
    return this.patch<T>(ref, patch, { ...options, subresource: 'status' });
  }

  /**
   * DELETE. Returns the object when the server keeps it for now (graceful deletion, finalizers, foreground
   * propagation), `undefined` when it answered with a Status (deleted at once). A failed precondition is a 409
   * {@link ConflictError}; a missing object a {@link NotFoundError}.
   */
  async delete<T extends KubeObject = KubeObject>(ref: ResourceRef, options: DeleteOptions = {}): Promise<T | undefined> {
    const path = await this.objectPath(ref);
    const body: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
    if (options.preconditions) body['preconditions'] = options.preconditions;
    if (options.propagationPolicy) body['propagationPolicy'] = options.propagationPolicy;
    if (options.gracePeriodSeconds !== undefined) body['gracePeriodSeconds'] = options.gracePeriodSeconds;
    if (options.dryRun) body['dryRun'] = ['All'];
    const res = (await this.send('DELETE', path, { body })) as KubeObject | undefined;
    return res === undefined || res.kind === 'Status' ? undefined : (res as T);
  }

  /**
   * Any request to the API server, with this client's credentials, timeout and error conversion: `path` is absolute
   * (`/version`, `/api/v1/namespaces/x/pods/y/eviction`). JSON responses are parsed; other bodies come back as text.
   */
  async request<T = unknown>(method: HttpMethod, path: string, req: RawRequest = {}): Promise<T> {
    return (await this.send(method, path, req)) as T;
  }

  /** Closes the pooled connections. The client must not be used afterwards. */
  async close(): Promise<void> {
    const d = this.dispatcher;
    this.dispatcher = undefined;
    if (d) await d.close();
  }

  private gvkOf(obj: KubeObject, verb: string): { apiVersion: string; kind: string } {
    if (!obj.apiVersion || !obj.kind) {
      throw new KubeUsageError(`${verb}: the object needs apiVersion and kind (list items do not carry them; set them first)`);
    }
    return { apiVersion: obj.apiVersion, kind: obj.kind };
  }

  private async put<T extends KubeObject>(obj: T, subresource: string | undefined, options: ReplaceOptions): Promise<T> {
    const { apiVersion, kind } = this.gvkOf(obj, subresource ? `update ${subresource}` : 'replace');
    const name = obj.metadata?.name;
    if (!name) throw new KubeUsageError(`replace ${kind}: metadata.name is required`);
    if (isProjected(obj)) throw new ProjectedWriteError(`${subresource ? `update ${subresource} of` : 'replace'} ${kind} ${name}`);
    if (!obj.metadata?.resourceVersion && !options.unconditional) {
      throw new KubeUsageError(
        `replace ${kind} ${name}: metadata.resourceVersion is missing; send the object as read (optimistic update), ` +
          'or pass unconditional: true to overwrite whatever is stored',
      );
    }
    const path = await this.objectPath({ apiVersion, kind, name, namespace: obj.metadata?.namespace }, subresource);
    return (await this.send('PUT', path, { query: this.writeQuery(options), body: obj })) as T;
  }

  private async resourceOf(ref: CollectionRef): Promise<ResourceInfo> {
    if (!ref.apiVersion || !ref.kind) throw new KubeUsageError('a resource reference needs apiVersion and kind');
    return this.resource(ref.apiVersion, ref.kind);
  }

  private async objectPath(ref: ResourceRef, subresource?: string): Promise<string> {
    const info = await this.resourceOf(ref);
    if (!ref.name) throw new KubeUsageError(`${ref.kind}: name is required`);
    if (info.namespaced && !ref.namespace) {
      throw new KubeUsageError(`${ref.kind} ${ref.name}: namespace is required (${ref.kind} is namespaced)`);
    }
    return resourcePath(info, ref.apiVersion, ref.namespace, ref.name, subresource);
  }

  private writeQuery(options: WriteOptions): Record<string, string | undefined> {
    return {
      fieldManager: options.fieldManager ?? this.fieldManager,
      dryRun: options.dryRun ? 'All' : undefined,
    };
  }

  /** Keeps the first dispatcher client-node builds and reuses it (see the file comment). */
  private shareDispatcher(ctx: RequestContext): void {
    const fresh = ctx.getDispatcher();
    if (!this.dispatcherChosen) {
      this.dispatcherChosen = true;
      this.dispatcher = fresh;
      return;
    }
    if (fresh !== undefined && fresh !== this.dispatcher) void fresh.close().catch(() => undefined);
    if (this.dispatcher !== undefined) ctx.setDispatcher(this.dispatcher);
  }

  /** Sends a request once its client's rate limit lets it go, and again while the server throttles it. */
  private async send(method: HttpMethod, path: string, req: RawRequest): Promise<unknown> {
    for (let retries = 0; ; retries++) {
      if (this.bucket) await this.bucket.take();
      try {
        return await this.sendOnce(method, path, req);
      } catch (e) {
        const waitMs = throttledRetryDelayMs(e, retries, this.maxThrottleRetries);
        if (waitMs === undefined) throw e;
        await sleep(waitMs);
      }
    }
  }

  private async sendOnce(method: HttpMethod, path: string, req: RawRequest): Promise<unknown> {
    let ctx: RequestContext;
    try {
      ctx = await this.requestContext(method, path, req);
    } catch (e) {
      if (e instanceof KubeApiError || e instanceof KubeUsageError) throw e;
      throw toKubeApiError(e);
    }
    // the write fence right before the request leaves, with no await in between; what it throws goes to the caller
    if (String(method) !== 'GET') this.writeGate?.();
    const started = performance.now();
    let code: number | undefined;
    try {
      const res = await this.http.send(ctx).toPromise();
      code = res.httpStatusCode;
      const text = await res.body.text();
      if (res.httpStatusCode < 200 || res.httpStatusCode > 299) {
        throw kubeErrorFromResponse(res.httpStatusCode, text, res.headers);
      }
      if (text === '') return undefined;
      const type = res.headers['content-type'] ?? '';
      return type.includes('json') ? JSON.parse(text) : text;
    } catch (e) {
      if (e instanceof KubeApiError || e instanceof KubeUsageError) throw e;
      throw toKubeApiError(e);
    } finally {
      this.onResponse?.({ method, code, seconds: (performance.now() - started) / 1000 });
    }
  }

  /** The request with its headers, body, timeout and credentials, on the client's shared connection. */
  private async requestContext(method: HttpMethod, path: string, req: RawRequest): Promise<RequestContext> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    const ctx = new RequestContext(`${this.server}${path}${qs ? `?${qs}` : ''}`, method);
    ctx.setHeaderParam('Accept', 'application/json');
    ctx.setHeaderParam('User-Agent', this.userAgent);
    if (req.body !== undefined) {
      ctx.setHeaderParam('Content-Type', req.contentType ?? 'application/json');
      ctx.setBody(typeof req.body === 'string' ? req.body : goEscapedJson(req.body));
    }
    ctx.setSignal(AbortSignal.timeout(req.timeoutMs ?? this.timeoutMs));
    await this.kubeConfig.applySecurityAuthentication(ctx);
    this.shareDispatcher(ctx);
    return ctx;
  }
}
