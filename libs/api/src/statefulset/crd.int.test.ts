/**
 * The Advanced StatefulSet CRD on the real API server, driven with kubectl as a user would: the seed manifests of S1
 * applied, `kubectl get asts` (and `-o wide`) printing DESIRED CURRENT UPDATED READY AGE from spec and status,
 * `kubectl get sts` still meaning the built-in apps/v1 kind, the scale subresource, both versions serving one object.
 * No Advanced StatefulSet webhook runs here: what is checked is the CRD alone.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import type { KubernetesObject } from '@kubernetes/client-node';
import { installCrds, locateBinaries } from '@regatta/local-cluster';
import { generateCrds } from '../index.js';
import { loadSeedStatefulSet } from './fixtures/seed-statefulsets.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The words of each output line (kubectl's table columns). */
const rows = (out: string): string[][] =>
  out
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s+/));

describe('Advanced StatefulSet CRD through kubectl', () => {
  const { kubeconfig } = inject('cluster');
  const kubectlBin = locateBinaries().kubectl;
  const ns = `asts-crd-${randomBytes(3).toString('hex')}`;

  const kubectl = (args: string[], input?: string): Promise<Run> =>
    new Promise((resolve, reject) => {
      const child = spawn(kubectlBin, ['--kubeconfig', kubeconfig, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(input ?? '');
    });
  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await kubectl(args, input);
    expect(r.code, `kubectl ${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };
  /** The fixture text with only its namespace changed to this test's (the text is the article's otherwise). */
  const inNamespace = (text: string): string => text.replace(/^(\s+)namespace: default$/m, `$1namespace: ${ns}`);

  beforeAll(async () => {
    await installCrds(kubeconfig, generateCrds() as unknown as KubernetesObject[]);
    await ok(['create', 'namespace', ns]);
  });

  afterAll(async () => {
    await kubectl(['delete', 'namespace', ns, '--wait=false']);
  });

  it('applies the S1 §3.1 manifest as written and prints it with kubectl get asts', async () => {
    const demo = loadSeedStatefulSet('s1-3.1-advanced-sts-demo.yaml');
    expect(await ok(['apply', '-f', '-'], inNamespace(demo.text))).toContain('statefulset.apps.kruise.io/web created');
    const stored = parse(await ok(['get', 'asts', 'web', '-n', ns, '-o', 'yaml'])) as { apiVersion: string; spec: unknown };
    expect(stored.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(stored.spec).toEqual(demo.raw.spec);

    // as the controller will: the status through its subresource
    const status = {
      observedGeneration: 1,
      replicas: 5,
      readyReplicas: 5,
      availableReplicas: 5,
      currentReplicas: 5,
      updatedReplicas: 5,
      updatedReadyReplicas: 5,
      updatedAvailableReplicas: 5,
      currentRevision: 'web-84644dfc7d',
      updateRevision: 'web-84644dfc7d',
      labelSelector: 'app=nginx',
      volumeClaims: [],
    };
    await ok(['patch', 'asts', 'web', '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);

    // S1: NAME DESIRED CURRENT UPDATED READY AGE / web 5 5 5 5 38s
    const table = rows(await ok(['get', 'asts', '-n', ns]));
    expect(table[0]).toEqual(['NAME', 'DESIRED', 'CURRENT', 'UPDATED', 'READY', 'AGE']);
    expect(table[1]?.slice(0, 5)).toEqual(['web', '5', '5', '5', '5']);
    expect(table[1]?.[5]).toMatch(/^\d+s$/);

    const wide = rows(await ok(['get', 'asts', 'web', '-n', ns, '-o', 'wide']));
    expect(wide[0]).toEqual(['NAME', 'DESIRED', 'CURRENT', 'UPDATED', 'READY', 'AGE', 'CONTAINERS', 'IMAGES']);
    expect(wide[1]?.slice(6)).toEqual(['nginx', 'nginx']);
    // the long name reaches the same object
    expect(rows(await ok(['get', 'statefulsets.apps.kruise.io', '-n', ns, '-o', 'name']))).toEqual([['statefulset.apps.kruise.io/web']]);
  });

  it('kubectl get sts keeps meaning the built-in apps/v1 StatefulSet; asts is ours', async () => {
    const native = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'native', namespace: ns },
      spec: {
        replicas: 0,
        serviceName: 'native',
        selector: { matchLabels: { app: 'native' } },
        template: { metadata: { labels: { app: 'native' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    await ok(['apply', '-f', '-'], JSON.stringify(native));
    // the short name is shared; kubectl resolves it to the built-in group, which discovery lists first
    const r = await kubectl(['get', 'sts', '-n', ns, '-o', 'name']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('statefulset.apps/native');
    expect((await ok(['get', 'asts', '-n', ns, '-o', 'name'])).trim()).toBe('statefulset.apps.kruise.io/web');
  });

  it('scales through the scale subresource (kubectl scale asts)', async () => {
    await ok(['scale', 'asts', 'web', '-n', ns, '--replicas=2']);
    expect((await ok(['get', 'asts', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}'])).trim()).toBe('2');
    const scale = JSON.parse(await ok(['get', '--raw', `/apis/apps.kruise.io/v1beta1/namespaces/${ns}/statefulsets/web/scale`])) as {
      spec: unknown;
      status: unknown;
    };
    expect(scale.spec).toEqual({ replicas: 2 });
    expect(scale.status).toEqual({ replicas: 5, selector: 'app=nginx' });
  });

  it('serves the same object as v1alpha1, v1beta1-only fields included', async () => {
    const inPlace = loadSeedStatefulSet('s1-3.2-in-place.yaml');
    const text = inNamespace(inPlace.text).replace(/^(\s+)name: web$/m, '$1name: web-in-place');
    await ok(['apply', '-f', '-'], text);
    await ok(['patch', 'asts', 'web-in-place', '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { reserveOrdinals: [1, '3-5'] } })]);
    const alpha = JSON.parse(await ok(['get', '--raw', `/apis/apps.kruise.io/v1alpha1/namespaces/${ns}/statefulsets/web-in-place`])) as {
      apiVersion: string;
      spec: Record<string, unknown>;
    };
    expect(alpha.apiVersion).toBe('apps.kruise.io/v1alpha1');
    expect(alpha.spec).toEqual({ ...inPlace.raw.spec, reserveOrdinals: [1, '3-5'] });
  });

  it('refuses what the schema cannot hold, naming the field', async () => {
    // S1 §1.3.2 as written: no selector, no template (the article elides them) — the API server alone refuses it
    const mysql = loadSeedStatefulSet('s1-1.3.2-mysql-cluster.yaml');
    const r = await kubectl(['apply', '-n', ns, '-f', '-'], mysql.text);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.selector: Required value');
    expect(r.stderr).toContain('spec.template: Required value');

    // S1 §3 lifecycle: `exec` is no field of an OpenKruise lifecycle hook; kubectl's strict field validation says so
    const lifecycle = loadSeedStatefulSet('s1-3.2-lifecycle.yaml').object;
    const obj = { ...lifecycle, metadata: { name: 'lifecycle', namespace: ns } };
    const strict = await kubectl(['apply', '-f', '-'], JSON.stringify(obj));
    expect(strict.code).not.toBe(0);
    expect(strict.stderr).toContain('unknown field "spec.lifecycle.preDelete.exec"');

    const badStatus = await kubectl([
      'patch', 'asts', 'web', '-n', ns, '--subresource=status', '--type=json',
      '-p', JSON.stringify([{ op: 'remove', path: '/status/readyReplicas' }]),
    ]);
    expect(badStatus.code).not.toBe(0);
    expect(badStatus.stderr).toContain('status.readyReplicas');

    const typed = await kubectl(['patch', 'asts', 'web', '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { reserveOrdinals: [true] } })]);
    expect(typed.code).not.toBe(0);
    expect(typed.stderr).toContain('spec.reserveOrdinals[0]');
  });

  it.each(['s1-3.2-paused.yaml', 's1-3.2-reserve-ordinals.yaml', 's1-3.2-scale-max-unavailable.yaml'])(
    'applies the completed snippet %s and keeps every field it sets',
    async (file) => {
      const seed = loadSeedStatefulSet(file);
      const name = seed.name;
      const obj = { ...seed.object, metadata: { name, namespace: ns } };
      await ok(['apply', '-f', '-'], JSON.stringify(obj));
      const got = JSON.parse(await ok(['get', 'asts', name, '-n', ns, '-o', 'json'])) as { spec: unknown };
      expect(got.spec).toEqual(obj.spec);
    },
  );
});
