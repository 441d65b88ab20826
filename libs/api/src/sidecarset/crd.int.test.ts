/**
 * The SidecarSet CRD on the real API server, driven with kubectl as a user would: the seed manifests of S1/S2
 * applied as written (names suffixed: SidecarSets are cluster-scoped and the cluster is shared by the test run),
 * `kubectl get sidecarset` printing NAME MATCHED UPDATED READY AGE from the status, cluster scope, both versions
 * serving one object, and `spec.volumeTemplates` surviving pruning so that the webhook can read it.
 * No SidecarSet webhook runs here: what is checked is the CRD alone.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import type { KubernetesObject } from '@kubernetes/client-node';
import { installCrds, locateBinaries } from '@regatta/local-cluster';
import { generateCrds } from '../index.js';
import { loadSeedSidecarSets } from './fixtures/seed-sidecarsets.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const rows = (out: string): string[][] =>
  out
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s+/));

describe('SidecarSet CRD through kubectl', () => {
  const { kubeconfig } = inject('cluster');
  const kubectlBin = locateBinaries().kubectl;
  const suffix = randomBytes(3).toString('hex');
  const created: string[] = [];

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
  /** The fixture text with only its name suffixed; returns the text and the new name. */
  const seed = (file: string): { text: string; name: string } => {
    const s = loadSeedSidecarSets().find((x) => x.file === file);
    if (!s) throw new Error(file);
    const name = `${s.object.metadata?.name ?? 'x'}-${suffix}`;
    created.push(name);
    return { text: s.text.replace(/^(\s+)name: (\S+)$/m, `$1name: ${name}`), name };
  };

  beforeAll(async () => {
    await installCrds(kubeconfig, generateCrds() as unknown as KubernetesObject[]);
  });

  afterAll(async () => {
    for (const name of created) await kubectl(['delete', 'sidecarset', name, '--wait=false']);
  });

  it('applies S1 §5.1 as written, cluster-scoped, stored as v1beta1, printed as NAME MATCHED UPDATED READY AGE', async () => {
    const { text, name } = seed('s1-5.1-scs-demo.yaml');
    expect(await ok(['apply', '-f', '-'], text)).toContain(`sidecarset.apps.kruise.io/${name} created`);
    const stored = parse(await ok(['get', 'sidecarset', name, '-o', 'yaml'])) as { apiVersion: string; metadata: { namespace?: string }; spec: Record<string, unknown> };
    expect(stored.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(stored.metadata.namespace).toBeUndefined();
    expect(stored.spec['containers']).toEqual([
      { name: 'sidecar1', image: 'busybox', command: ['sleep', '999d'], volumeMounts: [{ name: 'log-volume', mountPath: '/var/log' }] },
    ]);

    // S1: NAME MATCHED UPDATED READY AGE / scs-demo 0 0 0 51s
    const status = { observedGeneration: 1, matchedPods: 0, updatedPods: 0, readyPods: 0 };
    await ok(['patch', 'sidecarset', name, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
    const table = rows(await ok(['get', 'sidecarset', name]));
    expect(table[0]).toEqual(['NAME', 'MATCHED', 'UPDATED', 'READY', 'AGE']);
    expect(table[1]?.slice(0, 4)).toEqual([name, '0', '0', '0']);

    // both versions serve the one object
    const alpha = parse(await ok(['get', `sidecarsets.v1alpha1.apps.kruise.io`, name, '-o', 'yaml'])) as { apiVersion: string };
    expect(alpha.apiVersion).toBe('apps.kruise.io/v1alpha1');
  });

  it('keeps S1 §1.3.3 spec.volumeTemplates (declared, so the webhook can turn it into volumes)', async () => {
    const { text, name } = seed('s1-1.3.3-log-collector.yaml');
    await ok(['apply', '-f', '-'], text);
    const stored = parse(await ok(['get', 'sidecarset', name, '-o', 'yaml'])) as { spec: Record<string, unknown> };
    expect(stored.spec['volumeTemplates']).toEqual([{ name: 'logs', emptyDir: {} }]);
    expect(stored.spec).toMatchObject({ revisionHistoryLimit: 5, updateStrategy: { type: 'RollingUpdate', maxUnavailable: '20%' } });
  });

  it('applies S2 hot upgrade as written, keeping the sidecar fields and the container fields', async () => {
    const { text, name } = seed('s2-hotupgrade-sidecarset.yaml');
    await ok(['apply', '-f', '-'], text);
    const stored = parse(await ok(['get', 'sidecarset', name, '-o', 'yaml'])) as { spec: { containers: Record<string, unknown>[] } };
    expect(stored.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'Always',
      lifecycle: { postStart: { exec: { command: ['/bin/sh', '/migrate.sh'] } } },
      upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'openkruise/hotupgrade-sample:empty' },
    });
  });
});
