import type { KubernetesObject } from '@kubernetes/client-node';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { waitFor } from './wait.js';

const FIELD_MANAGER = 'regatta-local-cluster';

/**
 * Server-side applies objects (create or update), in order. They are sent as plain JSON:
 * client-node's model serializer would drop the `x-kubernetes-*` keys of CRD schemas.
 */
export async function applyObjects(kubeconfig: string, objects: KubernetesObject[]): Promise<void> {
  const client = KubeClient.fromKubeconfigFile(kubeconfig);
  try {
    for (const obj of objects) {
      const { resourceVersion: _rv, managedFields: _mf, ...metadata } = obj.metadata ?? {};
      const ref = {
        apiVersion: obj.apiVersion!,
        kind: obj.kind!,
        namespace: metadata.namespace,
        name: metadata.name!,
      };
      await client.patch(ref, { ...obj, metadata } as KubeObject, {
        type: 'apply',
        fieldManager: FIELD_MANAGER,
        force: true,
      });
    }
  } finally {
    await client.close();
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
  const wanted = new Map<string, Set<string>>();
  for (const crd of crds as CrdObject[]) {
    for (const v of crd.spec.versions.filter((x) => x.served)) {
      const gv = `${crd.spec.group}/${v.name}`;
      wanted.set(gv, (wanted.get(gv) ?? new Set()).add(crd.spec.names.plural));
    }
  }
  const client = KubeClient.fromKubeconfigFile(kubeconfig);
  try {
    for (const [gv, plurals] of wanted) {
      await waitFor(
        `discovery of ${[...plurals].join(', ')} in ${gv}`,
        async () => {
          const list = await client.request<{ resources: { name: string }[] }>('GET', `/apis/${gv}`);
          const served = new Set(list.resources.map((r) => r.name));
          return [...plurals].every((p) => served.has(p));
        },
        { timeoutMs },
      );
    }
  } finally {
    await client.close();
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
