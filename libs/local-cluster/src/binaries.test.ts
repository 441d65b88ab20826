import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubernetesVersion, locateBinaries } from './binaries.js';
import { BinariesMissingError, LocalClusterError } from './errors.js';
import { ETCD_VERSION, JAEGER_VERSION, KUBERNETES_VERSION, NATS_VERSION } from './versions.js';

/** A cache folder holding the pinned control plane, with Kubernetes at `k8s`. */
function fakeCache(k8s: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'binaries-'));
  const files: [string, string][] = [
    [`etcd-${ETCD_VERSION}`, 'etcd'],
    [`nats-${NATS_VERSION}`, 'nats-server'],
    [`jaeger-${JAEGER_VERSION}`, 'jaeger'],
    ...['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'].map(
      (f): [string, string] => [`kubernetes-${k8s}`, f],
    ),
  ];
  for (const [folder, file] of files) {
    mkdirSync(join(dir, folder, 'bin'), { recursive: true });
    writeFileSync(join(dir, folder, 'bin', file), '');
  }
  return dir;
}

describe('kubernetesVersion', () => {
  it('is the pinned version unless REGATTA_KUBERNETES_VERSION names another', () => {
    expect(kubernetesVersion({})).toBe(KUBERNETES_VERSION);
    expect(kubernetesVersion({ REGATTA_KUBERNETES_VERSION: '' })).toBe(KUBERNETES_VERSION);
    expect(kubernetesVersion({ REGATTA_KUBERNETES_VERSION: '1.34.4' })).toBe('1.34.4');
  });

  it.each(['v1.34.4', '1.34', 'latest', '1.34.4 '])('rejects %j', (v) => {
    expect(() => kubernetesVersion({ REGATTA_KUBERNETES_VERSION: v })).toThrow(LocalClusterError);
    expect(() => kubernetesVersion({ REGATTA_KUBERNETES_VERSION: v })).toThrow(/REGATTA_KUBERNETES_VERSION/);
  });
});

describe('locateBinaries', () => {
  it('finds the Kubernetes binaries of the requested version', () => {
    const dir = fakeCache('1.34.4');
    const b = locateBinaries(dir, {}, { REGATTA_KUBERNETES_VERSION: '1.34.4' });
    expect(b.kubeApiserver).toBe(join(dir, 'kubernetes-1.34.4', 'bin', 'kube-apiserver'));
    expect(b.kubectl).toBe(join(dir, 'kubernetes-1.34.4', 'bin', 'kubectl'));
    expect(b.etcd).toBe(join(dir, `etcd-${ETCD_VERSION}`, 'bin', 'etcd'));
  });

  it('names the missing Kubernetes binaries when the requested version is not built', () => {
    const dir = fakeCache(KUBERNETES_VERSION);
    expect(locateBinaries(dir, {}, {}).kubeApiserver).toBe(
      join(dir, `kubernetes-${KUBERNETES_VERSION}`, 'bin', 'kube-apiserver'),
    );
    let err: unknown;
    try {
      locateBinaries(dir, {}, { REGATTA_KUBERNETES_VERSION: '1.34.4' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BinariesMissingError);
    expect((err as BinariesMissingError).missing).toEqual(
      ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'].map((f) =>
        join(dir, 'kubernetes-1.34.4', 'bin', f),
      ),
    );
  });
});
