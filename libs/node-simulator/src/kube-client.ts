// The simulator addresses the API by path (pods' /status, node leases, any patch type); this is a
// thin path-based view of @regatta/kube's client, which owns connections, auth and typed errors.
import { KubeClient as Client, PATCH_CONTENT_TYPES, withUserAgent, type PatchType } from '@regatta/kube';

export {
  isAlreadyExists,
  isConflict,
  isNamespaceTerminating,
  isNotFound,
  retryOnConflict,
} from '@regatta/kube';

type Query = Record<string, string | number | undefined>;

export class KubeClient {
  private readonly client: Client;

  constructor(kubeconfigPath: string) {
    this.client = Client.fromKubeconfigFile(kubeconfigPath);
  }

  /** The kubeconfig for client-node's Watch, sending this client's user agent as its other requests do. */
  get watchConfig() {
    return withUserAgent(this.client.kubeConfig, this.client.userAgent);
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.client.request<T>('GET', path, query ? { query } : {});
  }
  create<T>(path: string, body: unknown): Promise<T> {
    return this.client.request<T>('POST', path, { body });
  }
  replace<T>(path: string, body: unknown): Promise<T> {
    return this.client.request<T>('PUT', path, { body });
  }
  patch<T>(path: string, body: unknown, patch: Exclude<PatchType, 'apply'> = 'merge'): Promise<T> {
    return this.client.request<T>('PATCH', path, { body, contentType: PATCH_CONTENT_TYPES[patch] });
  }
  delete<T>(path: string, body?: unknown): Promise<T> {
    return this.client.request<T>('DELETE', path, body === undefined ? {} : { body });
  }
  close(): Promise<void> {
    return this.client.close();
  }
}

export const podPath = (ns: string, name: string) =>
  `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(name)}`;
export const nodePath = (name: string) => `/api/v1/nodes/${encodeURIComponent(name)}`;
export const leasePath = (name: string) =>
  `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${encodeURIComponent(name)}`;
