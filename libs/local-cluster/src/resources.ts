import {
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { httpGet } from './http.js';
import { waitFor } from './wait.js';

const FIELD_MANAGER = 'regatta-local-cluster';

/** Server-side applies objects (create or update), in order. */
export async function applyObjects(kubeconfig: string, objects: KubernetesObject[]): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const api = KubernetesObjectApi.makeApiClient(kc);
  for (const obj of objects) {
    const clean = {
      ...obj,
      metadata: { ...obj.metadata, resourceVersion: undefined, managedFields: undefined },
    };
    await api.patch(clean, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
  }
}

interface CrdObject extends KubernetesObject {
  spec: { group: string; names: { plural: string }; versions: { name: string; served: boolean }[] };
}

/**
 * Installs CustomResourceDefinitions and waits until discovery serves every plural of every served
 * version (what clients rely on), as envtest does.
 */
export async function installCrds(
  kubeconfig: string,
  crds: KubernetesObject[],
  timeoutMs = 60_000,
): Promise<void> {
  await applyObjects(kubeconfig, crds);
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (!cluster || !user) throw new Error(`kubeconfig ${kubeconfig} has no current cluster/user`);
  const tls = {
    ca: cluster.caData ? Buffer.from(cluster.caData, 'base64').toString() : undefined,
    cert: user.certData ? Buffer.from(user.certData, 'base64').toString() : undefined,
    key: user.keyData ? Buffer.from(user.keyData, 'base64').toString() : undefined,
  };
  const wanted = new Map<string, Set<string>>();
  for (const crd of crds as CrdObject[]) {
    for (const v of crd.spec.versions.filter((x) => x.served)) {
      const gv = `${crd.spec.group}/${v.name}`;
      wanted.set(gv, (wanted.get(gv) ?? new Set()).add(crd.spec.names.plural));
    }
  }
  for (const [gv, plurals] of wanted) {
    await waitFor(
      `discovery of ${[...plurals].join(', ')} in ${gv}`,
      async () => {
        const res = await httpGet(`${cluster.server}/apis/${gv}`, tls);
        if (res.status !== 200) return false;
        const served = new Set(
          (JSON.parse(res.body) as { resources: { name: string }[] }).resources.map((r) => r.name),
        );
        return [...plurals].every((p) => served.has(p));
      },
      { timeoutMs },
    );
  }
}

interface WebhookConfiguration extends KubernetesObject {
  webhooks?: {
    clientConfig: { url?: string; caBundle?: string; service?: { path?: string } };
  }[];
}

/**
 * Registers Mutating/ValidatingWebhookConfigurations so the API server calls a webhook server on this
 * machine: each `clientConfig.service` becomes `url: <baseUrl><service.path>` with the CA bundle set.
 */
export async function registerWebhooks(
  kubeconfig: string,
  configs: KubernetesObject[],
  server: { baseUrl: string; caPem: string },
): Promise<void> {
  const caBundle = Buffer.from(server.caPem).toString('base64');
  const rewritten = (configs as WebhookConfiguration[]).map((c) => ({
    ...c,
    webhooks: (c.webhooks ?? []).map((w) => {
      const path = w.clientConfig.service?.path ?? new URL(w.clientConfig.url ?? server.baseUrl).pathname;
      return { ...w, clientConfig: { url: `${server.baseUrl.replace(/\/$/, '')}${path}`, caBundle } };
    }),
  }));
  await applyObjects(kubeconfig, rewritten);
}
