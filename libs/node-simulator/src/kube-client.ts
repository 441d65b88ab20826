// A small JSON client over the kubeconfig's connection settings (client-node's HTTP layer, one reused
// connection pool) so that the simulator reads and writes plain API JSON, status subresources and any
// patch type, with the HTTP status at hand for 404/409 handling.
import { HttpMethod, IsomorphicFetchHttpLibrary, KubeConfig, RequestContext } from '@kubernetes/client-node';

export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path}: ${status} ${reason}: ${message}`);
    this.name = 'KubeApiError';
  }
}

export const isStatus = (err: unknown, status: number): boolean =>
  err instanceof KubeApiError && err.status === status;
export const isNotFound = (err: unknown) => isStatus(err, 404);
export const isConflict = (err: unknown) => isStatus(err, 409);

export type PatchType = 'merge' | 'strategic' | 'json';
const PATCH_CONTENT_TYPE: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
};

interface Auth {
  headers: Record<string, string>;
  dispatcher: ReturnType<RequestContext['getDispatcher']>;
  at: number;
}

const AUTH_REFRESH_MS = 5 * 60_000;

export class KubeClient {
  readonly kubeConfig: KubeConfig;
  private readonly http = new IsomorphicFetchHttpLibrary();
  private readonly server: string;
  private auth: Promise<Auth> | undefined;

  constructor(kubeconfigPath: string) {
    this.kubeConfig = new KubeConfig();
    this.kubeConfig.loadFromFile(kubeconfigPath);
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error(`kubeconfig ${kubeconfigPath} has no current cluster`);
    this.server = cluster.server.replace(/\/$/, '');
  }

  private getAuth(): Promise<Auth> {
    const current = this.auth;
    if (current) {
      return current.then((a) => (Date.now() - a.at < AUTH_REFRESH_MS ? a : this.refreshAuth()));
    }
    return this.refreshAuth();
  }

  private refreshAuth(): Promise<Auth> {
    const ctx = new RequestContext(this.server, HttpMethod.GET);
    this.auth = this.kubeConfig.applySecurityAuthentication(ctx).then(() => ({
      headers: { ...ctx.getHeaders() },
      dispatcher: ctx.getDispatcher(),
      at: Date.now(),
    }));
    this.auth.catch(() => (this.auth = undefined));
    return this.auth;
  }

  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    opts: { query?: Record<string, string | number | undefined>; body?: unknown; patch?: PatchType } = {},
  ): Promise<T> {
    const url = new URL(this.server + path);
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const auth = await this.getAuth();
    const ctx = new RequestContext(url.toString(), HttpMethod[method]);
    for (const [k, v] of Object.entries(auth.headers)) ctx.setHeaderParam(k, v);
    if (auth.dispatcher) ctx.setDispatcher(auth.dispatcher);
    ctx.setHeaderParam('Accept', 'application/json');
    if (opts.body !== undefined) {
      ctx.setHeaderParam('Content-Type', opts.patch ? PATCH_CONTENT_TYPE[opts.patch] : 'application/json');
      ctx.setBody(JSON.stringify(opts.body));
    }
    const resp = await this.http.send(ctx).toPromise();
    const text = await resp.body.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (resp.httpStatusCode < 200 || resp.httpStatusCode >= 300) {
      const st = (json ?? {}) as { reason?: string; message?: string };
      throw new KubeApiError(
        resp.httpStatusCode,
        st.reason ?? 'Unknown',
        st.message ?? text.slice(0, 300),
        method,
        path,
      );
    }
    return json as T;
  }

  get<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T> {
    return this.request<T>('GET', path, { query });
  }
  create<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, { body });
  }
  replace<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PUT', path, { body });
  }
  patch<T>(path: string, body: unknown, patch: PatchType = 'merge'): Promise<T> {
    return this.request<T>('PATCH', path, { body, patch });
  }
  delete<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('DELETE', path, { body });
  }
}

/** Retries `fn` on 409 Conflict (fn re-reads what it needs), up to `attempts` times. */
export async function retryOnConflict<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConflict(err) || i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 20 * i));
    }
  }
}

export const podPath = (ns: string, name: string) =>
  `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(name)}`;
export const nodePath = (name: string) => `/api/v1/nodes/${encodeURIComponent(name)}`;
export const leasePath = (name: string) =>
  `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${encodeURIComponent(name)}`;
