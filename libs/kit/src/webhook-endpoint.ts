/**
 * Where the API server reaches a program's webhooks, and who owns their configurations, when the program runs in a
 * cluster (docs/operations.md, docs/adr/0039-webhook-service-and-owner.md):
 * - `REGATTA_WEBHOOK_SERVICE=<namespace>/<name>[:<port>]`: the configurations name the Service (`clientConfig.service`)
 *   instead of a URL. kube-apiserver resolves a Service reference itself; it usually cannot resolve `*.svc` host
 *   names, so a URL to the Service would fail on most clusters.
 * - `REGATTA_WEBHOOK_OWNER=<ClusterRole name>`: the configurations get an ownerReference to that cluster-scoped
 *   object, which the chart installs, so uninstalling the chart garbage-collects them and no stale webhook is left
 *   to refuse requests.
 * The builders of the configurations (libs/runtime, the controllers' libraries) keep writing URLs; the transforms
 * here rewrite what they built.
 */
import type { KubeObject, OwnerReference } from '@regatta/kube';
import { KitError } from './errors.js';

export interface WebhookService {
  namespace: string;
  name: string;
  port: number;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Parses `REGATTA_WEBHOOK_SERVICE`; undefined when unset or empty. Port 443 when left out. */
export function parseWebhookService(value: string | undefined): WebhookService | undefined {
  if (!value) return undefined;
  const m = /^([^/:]+)\/([^/:]+)(?::(\d+))?$/.exec(value.trim());
  const port = m?.[3] === undefined ? 443 : Number(m[3]);
  if (!m || !DNS_LABEL.test(m[1]!) || !DNS_LABEL.test(m[2]!) || port < 1 || port > 65_535) {
    throw new KitError(
      'REGATTA_WEBHOOK_SERVICE',
      `REGATTA_WEBHOOK_SERVICE=${JSON.stringify(value)} is not <namespace>/<service>[:<port>] (e.g. regatta-system/regatta-cloneset:443)`,
    );
  }
  return { namespace: m[1]!, name: m[2]!, port };
}

/** The names the serving certificate must hold for the API server to trust it when it dials `service`. */
export function serviceHosts(service: WebhookService): string[] {
  const base = `${service.name}.${service.namespace}.svc`;
  return [base, `${base}.cluster.local`];
}

interface Webhook {
  clientConfig?: { url?: string; caBundle?: string; service?: unknown; [key: string]: unknown };
  [key: string]: unknown;
}

/** The configuration with each of its webhooks mapped by `fn`. */
export function mapWebhooks(obj: KubeObject, fn: (w: Webhook) => Webhook): KubeObject {
  const webhooks = (obj as { webhooks?: Webhook[] }).webhooks;
  return webhooks ? ({ ...obj, webhooks: webhooks.map(fn) } as KubeObject) : obj;
}

/** Each webhook's `clientConfig.url` (`<baseUrl><path>`) becomes a reference to `service` with that path. */
export function pointAtService(obj: KubeObject, baseUrl: string, service: WebhookService): KubeObject {
  const base = baseUrl.replace(/\/$/, '');
  return mapWebhooks(obj, (w) => {
    const { url, ...rest } = w.clientConfig ?? {};
    if (url === undefined) return w;
    const path = url.startsWith(base) ? url.slice(base.length) : new URL(url).pathname;
    return { ...w, clientConfig: { ...rest, service: { ...service, ...(path ? { path } : {}) } } };
  });
}

/** The configuration owned by `owner` (a cluster-scoped object; the reference never blocks its deletion). */
export function ownedBy(obj: KubeObject, owner: OwnerReference): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, ownerReferences: [owner] } };
}
