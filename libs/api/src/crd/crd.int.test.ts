/**
 * Every kind of CRD_DEFINITIONS on the run's real API server, as discovery (what kubectl reads) shows it: each
 * served version lists the kind's plural with its short names and scope, the status subresource where the
 * definition has one, and the scale subresource exactly where it has one. What is a kind's own (its seeds applied,
 * its printer columns, its schema's refusals) is in that kind's `crd.int.test.ts`.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { KubeClient } from '@regatta/kube';
import { installCrds } from '@regatta/local-cluster';
import { buildCrd } from './build.js';
import { CRD_DEFINITIONS } from './registry.js';

interface ApiResourceList {
  resources: { name: string; kind: string; shortNames?: string[]; namespaced: boolean }[];
}

const served = CRD_DEFINITIONS.flatMap((def) =>
  def.versions.filter((v) => v.served).map((version) => [def.kind, version.name, def, version] as const),
);

describe('CRDs on a real API server', () => {
  const { kubeconfig } = inject('cluster');
  const client = KubeClient.fromKubeconfigFile(kubeconfig);

  beforeAll(async () => {
    await installCrds(kubeconfig, CRD_DEFINITIONS.map((d) => buildCrd(d) as unknown as KubernetesObject));
  });

  it.each(served)('%s %s: served with its names, scope and subresources', async (_kind, version, def, v) => {
    // the API server publishes a CRD's discovery shortly after it is established
    let byName = new Map<string, ApiResourceList['resources'][number]>();
    await expect
      .poll(
        async () => {
          const list = await client.request<ApiResourceList>('GET', `/apis/${def.group}/${version}`);
          byName = new Map(list.resources.map((r) => [r.name, r]));
          return byName.has(def.plural);
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    expect(byName.get(def.plural)).toMatchObject({
      kind: def.kind,
      namespaced: def.scope === 'Namespaced',
      ...(def.shortNames ? { shortNames: [...def.shortNames] } : {}),
    });
    expect(byName.has(`${def.plural}/status`)).toBe(v.subresources.status === true);
    expect(byName.has(`${def.plural}/scale`)).toBe(v.subresources.scale !== undefined);
  });
});
