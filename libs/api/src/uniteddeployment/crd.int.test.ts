/**
 * The UnitedDeployment CRD on the run's real API server: both versions served (v1beta1 stored, no conversion
 * webhook — docs/adr/0028-uniteddeployment-api.md), the short name, the scale subresource HPA uses (with
 * `status.labelSelector`), printer columns, and the seed article's UnitedDeployment kept whole (its `nodeSelector`
 * shorthand is not pruned; the admission webhook converts it).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import type { KubernetesObject } from '@kubernetes/client-node';
import { applyObjects, installCrds } from '@regatta/local-cluster';
import { buildCrd } from '../crd/build.js';
import { UNITED_DEPLOYMENT_CRD } from './crd.js';
import { loadSeedUnitedDeployment } from './fixtures/seed-uniteddeployments.js';

type Json = Record<string, unknown>;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

function apiFor(kubeconfigPath: string) {
  const kc = parse(readFileSync(kubeconfigPath, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
  };
  const b64 = (s = '') => Buffer.from(s, 'base64').toString();
  const server = kc.clusters[0]?.cluster.server ?? '';
  const tls = {
    ca: b64(kc.clusters[0]?.cluster['certificate-authority-data']),
    cert: b64(kc.users[0]?.user['client-certificate-data']),
    key: b64(kc.users[0]?.user['client-key-data']),
  };
  return (method: string, path: string, o: { body?: unknown; accept?: string; contentType?: string } = {}) =>
    new Promise<{ status: number; body: Json }>((resolve, reject) => {
      const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
      const req = request(
        `${server}${path}`,
        {
          method,
          ...tls,
          headers: {
            Accept: o.accept ?? 'application/json',
            ...(payload
              ? {
                  'Content-Type': o.contentType ?? 'application/json',
                  'Content-Length': Buffer.byteLength(payload),
                }
              : {}),
          },
        },
        (res) => {
          let data = '';
          res.on('data', (c: Buffer) => (data += c.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: data ? (JSON.parse(data) as Json) : {} }),
          );
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
}

describe('UnitedDeployment CRD on a real API server', () => {
  const { kubeconfig } = inject('cluster');
  const api = apiFor(kubeconfig);
  const ns = `ud-crd-${randomBytes(3).toString('hex')}`;
  const alpha = `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/uniteddeployments`;
  const beta = `/apis/apps.kruise.io/v1beta1/namespaces/${ns}/uniteddeployments`;
  const seed = loadSeedUnitedDeployment();

  beforeAll(async () => {
    await installCrds(kubeconfig, [buildCrd(UNITED_DEPLOYMENT_CRD) as unknown as KubernetesObject]);
    await applyObjects(kubeconfig, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }]);
  });
  afterAll(async () => {
    await api('DELETE', `/api/v1/namespaces/${ns}`);
  });

  it('keeps the seed article object whole through v1alpha1 (nodeSelector included) and reads it through v1beta1', async () => {
    // without the admission webhook the missing selector is refused by the schema
    const bare = await api('POST', alpha, {
      body: { ...seed.object, metadata: { name: 'no-selector', namespace: ns } },
    });
    expect(bare.status).toBe(422);
    expect(JSON.stringify(bare.body)).toContain('spec.selector');

    const obj = { ...seed.object, metadata: { name: 'global-service', namespace: ns } };
    obj.spec = { ...obj.spec, selector: seed.openKruiseForm.spec.selector };
    const created = await api('POST', alpha, { body: obj });
    expect(created.status).toBe(201);
    expect(created.body['spec']).toEqual(obj.spec);
    const got = await api('GET', `${beta}/global-service`);
    expect(got.body['apiVersion']).toBe('apps.kruise.io/v1beta1');
    expect(got.body['spec']).toEqual(obj.spec);

    const openKruise = { ...seed.openKruiseForm, metadata: { name: 'global-service-ok', namespace: ns } };
    const ok = await api('POST', beta, { body: { ...openKruise, apiVersion: 'apps.kruise.io/v1beta1' } });
    expect(ok.status).toBe(201);
    expect(ok.body['spec']).toEqual(openKruise.spec);
  });

  it('has the scale subresource HPA reads (replicas and status.labelSelector) and prints DESIRED CURRENT UPDATED READY AGE', async () => {
    const name = 'global-service-ok';
    const cur = await api('GET', `${beta}/${name}`);
    const status = {
      replicas: 11,
      readyReplicas: 9,
      updatedReplicas: 10,
      currentRevision: `${name}-abc`,
      updatedRevision: `${name}-abc`,
      labelSelector: 'app=global-service',
      subsetStatuses: [{ name: 'az-east', replicas: 4, readyReplicas: 3, partition: 0 }],
      subsetReplicas: { 'az-east': 4 },
      updateStatus: { updatedRevision: `${name}-abc`, currentPartitions: { 'az-east': 0 } },
    };
    const put = await api('PUT', `${beta}/${name}/status`, { body: { ...cur.body, status } });
    expect(put.status).toBe(200);

    // no conversion webhook: both versions' status fields are kept, so each reader sees its own (ADR 0028)
    const viaAlpha = (await api('GET', `${alpha}/${name}`)).body['status'] as Json;
    expect(viaAlpha).toMatchObject({
      subsetReplicas: { 'az-east': 4 },
      updateStatus: { updatedRevision: `${name}-abc` },
    });
    expect((await api('GET', `${beta}/${name}`)).body['status']).toMatchObject({
      updatedRevision: `${name}-abc`,
    });

    const scale = await api('GET', `${beta}/${name}/scale`);
    expect(scale.body['spec']).toEqual({ replicas: 12 });
    expect(scale.body['status']).toEqual({ replicas: 11, selector: 'app=global-service' });
    const scaled = await api('PATCH', `${alpha}/${name}/scale`, {
      body: { spec: { replicas: 6 } },
      contentType: 'application/merge-patch+json',
    });
    expect(scaled.status).toBe(200);
    expect(((await api('GET', `${beta}/${name}`)).body['spec'] as Json)['replicas']).toBe(6);

    for (const path of [`${alpha}/${name}`, `${beta}/${name}`]) {
      const table = await api('GET', path, { accept: TABLE });
      const cols = (table.body['columnDefinitions'] as { name: string }[]).map((c) => c.name);
      expect(cols).toEqual(['Name', 'DESIRED', 'CURRENT', 'UPDATED', 'READY', 'AGE']);
      expect((table.body['rows'] as { cells: unknown[] }[])[0]?.cells.slice(0, 5)).toEqual([
        name,
        6,
        11,
        10,
        9,
      ]);
    }
  });

  it('refuses a status without the fields OpenKruise requires', async () => {
    const name = 'global-service-ok';
    const cur = await api('GET', `${beta}/${name}`);
    const put = await api('PUT', `${beta}/${name}/status`, {
      body: { ...cur.body, status: { readyReplicas: 1 } },
    });
    expect(put.status).toBe(422);
    expect(JSON.stringify(put.body)).toContain('status.currentRevision');
  });

  it('refuses a schedule strategy or update strategy type outside the enum', async () => {
    const body = {
      ...seed.openKruiseForm,
      metadata: { name: 'bad-enum', namespace: ns },
      spec: {
        ...seed.openKruiseForm.spec,
        updateStrategy: { type: 'Auto' },
        topology: { ...seed.openKruiseForm.spec.topology, scheduleStrategy: { type: 'Soon' } },
      },
    };
    const res = await api('POST', alpha, { body });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('spec.updateStrategy.type');
    expect(JSON.stringify(res.body)).toContain('spec.topology.scheduleStrategy.type');
  });
});
