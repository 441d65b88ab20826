/**
 * Installs every generated CRD into the shared real cluster, applies the seed articles' CloneSets, and reads them
 * back the way kubectl does (Table printer columns, scale subresource, discovery short names).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import type { KubernetesObject } from '@kubernetes/client-node';
import { applyObjects, installCrds } from '@regatta/local-cluster';
import { CLONESET_CRD, generateCrds, type CustomResourceDefinition } from './index.js';
import { loadSeedCloneSets } from './fixtures/seed-clonesets.js';

type Objects = Parameters<typeof applyObjects>[1];
type Json = Record<string, unknown>;

interface Api {
  (method: string, path: string, opts?: { body?: unknown; contentType?: string; accept?: string }): Promise<{ status: number; body: Json }>;
}

/** A tiny HTTPS client for the kubeconfig the cluster writes (inline certificates). */
function apiFor(kubeconfigPath: string): Api {
  const kc = parse(readFileSync(kubeconfigPath, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
  };
  const cluster = kc.clusters[0]?.cluster;
  const user = kc.users[0]?.user;
  if (!cluster || !user) throw new Error('kubeconfig without cluster/user');
  const b64 = (s: string) => Buffer.from(s, 'base64').toString();
  const tls = { ca: b64(cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) };
  return (method, path, opts = {}) =>
    new Promise((resolve, reject) => {
      const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const req = request(
        `${cluster.server}${path}`,
        {
          method,
          ...tls,
          headers: {
            Accept: opts.accept ?? 'application/json',
            ...(payload ? { 'Content-Type': opts.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
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

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** Every leaf of `sub` is present, equal, at the same place in `sup` (nothing was pruned or changed). */
function leavesIn(sub: unknown, sup: unknown, at = ''): string[] {
  if (Array.isArray(sub)) {
    if (!Array.isArray(sup) || sup.length !== sub.length) return [`${at}: expected a list of ${sub.length}`];
    return sub.flatMap((x, i) => leavesIn(x, sup[i], `${at}[${i}]`));
  }
  if (typeof sub === 'object' && sub !== null) {
    if (typeof sup !== 'object' || sup === null) return [`${at}: missing`];
    return Object.entries(sub).flatMap(([k, v]) => leavesIn(v, (sup as Json)[k], `${at}.${k}`));
  }
  return sub === sup ? [] : [`${at}: ${JSON.stringify(sub)} became ${JSON.stringify(sup)}`];
}

describe('generated CRDs on a real API server', () => {
  const { kubeconfig } = inject('cluster');
  const api = apiFor(kubeconfig);
  const ns = `crds-${randomBytes(3).toString('hex')}`;
  const crds = generateCrds();
  const base = `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/clonesets`;

  beforeAll(async () => {
    await installCrds(kubeconfig, crds as unknown as KubernetesObject[]);
    await applyObjects(kubeconfig, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }]);
  });

  afterAll(async () => {
    await api('DELETE', `/api/v1/namespaces/${ns}`);
  });

  it('accepts every CRD as structural and establishes it', async () => {
    for (const crd of crds) {
      const res = await api('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
      expect(res.status).toBe(200);
      const conditions = (res.body['status'] as { conditions: { type: string; status: string; message?: string }[] }).conditions;
      expect(conditions.find((c) => c.type === 'Established')?.status, crd.metadata.name).toBe('True');
      expect(conditions.find((c) => c.type === 'NonStructuralSchema'), crd.metadata.name).toBeUndefined();
    }
  });

  it('serves the short names in discovery (kubectl get clone / asts / ud …)', async () => {
    const res = await api('GET', '/apis/apps.kruise.io/v1alpha1');
    const resources = res.body['resources'] as { name: string; shortNames?: string[]; namespaced: boolean }[];
    const byName = new Map(resources.map((r) => [r.name, r]));
    expect(byName.get('clonesets')?.shortNames).toEqual(['clone']);
    expect(byName.get('clonesets')?.namespaced).toBe(true);
    expect(byName.get('clonesets/scale')).toBeDefined();
    expect(byName.get('uniteddeployments')?.shortNames).toEqual(['ud']);
    expect(byName.get('sidecarsets')?.namespaced).toBe(false);
    const beta = await api('GET', '/apis/apps.kruise.io/v1beta1');
    const betaNames = (beta.body['resources'] as { name: string; shortNames?: string[] }[]).map((r) => r.name);
    expect(betaNames).toEqual(expect.arrayContaining(['statefulsets', 'daemonsets', 'sidecarsets', 'imagepulljobs', 'nodeimages']));
  });

  const fixtures = loadSeedCloneSets();
  it.each(fixtures.map((f) => [f.file, f] as const))('applies %s and keeps every field it sets', async (_file, fixture) => {
    for (const [i, source] of fixture.objects.entries()) {
      const name = i === 0 ? fixture.name : `${fixture.name}-alt${i}`;
      const obj = { ...source, metadata: { ...source.metadata, name, namespace: ns } };
      delete (obj.metadata as Json)['generation'];
      delete (obj as Json)['status'];
      await applyObjects(kubeconfig, [obj as unknown as Objects[number]]);
      const got = await api('GET', `${base}/${name}`);
      expect(got.status).toBe(200);
      expect(leavesIn(obj.spec, got.body['spec'], 'spec')).toEqual([]);
      expect(leavesIn(obj.metadata.labels ?? {}, (got.body['metadata'] as Json)['labels'] ?? {}, 'metadata.labels')).toEqual([]);
      expect(leavesIn(obj.metadata.annotations ?? {}, (got.body['metadata'] as Json)['annotations'] ?? {}, 'metadata.annotations')).toEqual([]);
    }
  });

  it('prints the CloneSet columns of kubectl get (and -o wide) from spec and status', async () => {
    const table = async () => {
      const res = await api('GET', `${base}/cs-demo`, { accept: TABLE });
      expect(res.status).toBe(200);
      return res.body as { kind: string; columnDefinitions: { name: string; type: string; priority: number }[]; rows: { cells: unknown[] }[] };
    };
    const before = await table();
    expect(before.kind).toBe('Table');
    const wanted = CLONESET_CRD.versions[0]?.printerColumns ?? [];
    expect(before.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ...wanted.map((c) => [c.name, c.type, c.priority ?? 0]),
    ]);
    const cellsBefore = before.rows[0]?.cells ?? [];
    expect(cellsBefore[0]).toBe('cs-demo');
    expect(cellsBefore[1]).toBe(3); // DESIRED = spec.replicas; no controller has written a status yet

    // write a status as the controller would, through the status subresource
    const current = await api('GET', `${base}/cs-demo`);
    const status = {
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 2,
      updatedReadyReplicas: 1,
      updatedAvailableReplicas: 1,
      expectedUpdatedReplicas: 3,
      updateRevision: 'cs-demo-abc',
      currentRevision: 'cs-demo-xyz',
      labelSelector: 'app=cs',
    };
    const put = await api('PUT', `${base}/cs-demo/status`, { body: { ...current.body, status } });
    expect(put.status).toBe(200);

    const after = await table();
    const cells = after.rows[0]?.cells ?? [];
    // Name DESIRED UPDATED UPDATED_READY UPDATED_AVAILABLE READY TOTAL AGE CONTAINERS IMAGES SELECTOR
    expect([...cells.slice(0, 7), ...cells.slice(8)]).toEqual(['cs-demo', 3, 2, 1, 1, 3, 3, 'nginx', 'nginx:alpine', 'app=cs']);
    expect(typeof cells[7]).toBe('string'); // AGE, e.g. "2s"

    const scale = await api('GET', `${base}/cs-demo/scale`);
    expect(scale.body['spec']).toEqual({ replicas: 3 });
    expect(scale.body['status']).toEqual({ replicas: 3, selector: 'app=cs' });
  });

  it('rejects a status without the fields OpenKruise requires', async () => {
    const current = await api('GET', `${base}/busybox`);
    const put = await api('PUT', `${base}/busybox/status`, { body: { ...current.body, status: { replicas: 1 } } });
    expect(put.status).toBe(422);
    expect(JSON.stringify(put.body)).toContain('status.readyReplicas');
  });

  it('types spec fields: int-or-string accepts both forms, a wrong type is rejected', async () => {
    const mk = (name: string, updateStrategy: unknown) => ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name, namespace: ns },
      spec: {
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        updateStrategy,
      },
    });
    const ok = await api('POST', base, { body: mk('ios', { partition: '50%', maxUnavailable: 2, maxSurge: '10%' }) });
    expect(ok.status).toBe(201);
    const bad = await api('POST', base, { body: mk('bad', { partition: true }) });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('spec.updateStrategy.partition');
  });

  it('installs again without changes (server-side apply is idempotent)', async () => {
    await installCrds(kubeconfig, crds as unknown as KubernetesObject[]);
    const res = await api('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${(crds[0] as CustomResourceDefinition).metadata.name}`);
    expect(res.status).toBe(200);
  });
});
