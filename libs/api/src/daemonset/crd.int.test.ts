/**
 * The DaemonSet CRD on the run's real API server: both versions served (v1beta1 stored, no conversion webhook —
 * docs/adr/0019-daemonset-versions-and-admission.md), short names, printer columns, and the seed articles'
 * DaemonSets applied through v1alpha1 and read back through v1beta1 unchanged.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import type { KubernetesObject } from '@kubernetes/client-node';
import { applyObjects, installCrds } from '@regatta/local-cluster';
import { buildCrd } from '../crd/build.js';
import { DAEMONSET_CRD } from './crd.js';
import { loadSeedDaemonSets } from './fixtures/seed-daemonsets.js';

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
            ...(payload ? { 'Content-Type': o.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          let data = '';
          res.on('data', (c: Buffer) => (data += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data ? (JSON.parse(data) as Json) : {} }));
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
}

describe('DaemonSet CRD on a real API server', () => {
  const { kubeconfig } = inject('cluster');
  const api = apiFor(kubeconfig);
  const ns = `ads-crd-${randomBytes(3).toString('hex')}`;
  const alpha = `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/daemonsets`;
  const beta = `/apis/apps.kruise.io/v1beta1/namespaces/${ns}/daemonsets`;

  beforeAll(async () => {
    await installCrds(kubeconfig, [buildCrd(DAEMONSET_CRD) as unknown as KubernetesObject]);
    await applyObjects(kubeconfig, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }]);
  });
  afterAll(async () => {
    await api('DELETE', `/api/v1/namespaces/${ns}`);
  });

  const seeds = loadSeedDaemonSets();
  it.each(seeds.map((s, i) => [s.file, s, i] as const))('applies %s through v1alpha1; v1beta1 reads the same spec', async (_file, seed, i) => {
    const name = `seed-${i}`;
    const obj = { ...seed.object, metadata: { ...seed.object.metadata, name, namespace: ns } };
    const created = await api('POST', alpha, { body: obj });
    expect(created.status).toBe(201);
    expect(created.body['spec']).toEqual(obj.spec);
    const got = await api('GET', `${beta}/${name}`);
    expect(got.body['apiVersion']).toBe('apps.kruise.io/v1beta1');
    expect(got.body['spec']).toEqual(obj.spec);
  });

  it('prints DESIRED CURRENT READY UP-TO-DATE AVAILABLE AGE (+ CONTAINERS IMAGES wide) from the status', async () => {
    const name = 'seed-2';
    const status = {
      desiredNumberScheduled: 5,
      currentNumberScheduled: 5,
      numberReady: 4,
      updatedNumberScheduled: 3,
      numberAvailable: 4,
      numberMisscheduled: 0,
      updateRevision: 'abc',
      daemonSetHash: 'abc',
    };
    const cur = await api('GET', `${beta}/${name}`);
    const put = await api('PUT', `${beta}/${name}/status`, { body: { ...cur.body, status } });
    expect(put.status).toBe(200);
    for (const path of [`${alpha}/${name}`, `${beta}/${name}`]) {
      const table = await api('GET', path, { accept: TABLE });
      const cols = (table.body['columnDefinitions'] as { name: string; priority: number }[]).map((c) => `${c.name}${c.priority ? '*' : ''}`);
      expect(cols).toEqual(['Name', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS*', 'IMAGES*']);
      const cells = (table.body['rows'] as { cells: unknown[] }[])[0]?.cells;
      expect(cells?.slice(0, 6)).toEqual([name, 5, 5, 4, 3, 4]);
      expect(cells?.slice(7)).toEqual(['nginx', 'harbor.test.com/cicd/nginx:1.28.0']);
    }
    // no conversion webhook: v1alpha1 readers do not see the v1beta1-only updateRevision (ADR 0019), but the
    // hash under its v1alpha1 name, which the controller stores too (ADR 0023)
    const viaAlpha = await api('GET', `${alpha}/${name}`);
    expect((viaAlpha.body['status'] as Json)['updateRevision']).toBeUndefined();
    expect((viaAlpha.body['status'] as Json)['daemonSetHash']).toBe('abc');
    expect((await api('GET', `${beta}/${name}`)).body['status']).toMatchObject({ updateRevision: 'abc' });
  });

  it('refuses a spec without selector and template (required by the schema)', async () => {
    const res = await api('POST', beta, { body: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name: 'bad' }, spec: {} } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('spec.selector');
  });
});
