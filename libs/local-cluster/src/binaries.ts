import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BinariesMissingError, LocalClusterError } from './errors.js';
import { ETCD_VERSION, HELM_VERSION, JAEGER_VERSION, KUBERNETES_VERSION, NATS_VERSION } from './versions.js';

export interface Binaries {
  etcd: string;
  kubeApiserver: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kubectl: string;
  natsServer: string;
  jaeger: string;
}

/**
 * The Kubernetes version of the control plane: `REGATTA_KUBERNETES_VERSION` (e.g. `1.34.4`, to run against
 * another minor; build it first with the same variable set: `tools/controlplane/build.sh kubernetes`) or the pinned
 * KUBERNETES_VERSION. Throws LocalClusterError REGATTA_KUBERNETES_VERSION_INVALID when the value is not `X.Y.Z`.
 */
export function kubernetesVersion(env: NodeJS.ProcessEnv = process.env): string {
  const v = env['REGATTA_KUBERNETES_VERSION'];
  if (!v) return KUBERNETES_VERSION;
  if (!/^\d+\.\d+\.\d+$/.test(v)) {
    throw new LocalClusterError(
      'REGATTA_KUBERNETES_VERSION_INVALID',
      `REGATTA_KUBERNETES_VERSION must be a release like ${KUBERNETES_VERSION} (no leading v), not '${v}'`,
    );
  }
  return v;
}

/** The cache folder of built binaries: `REGATTA_CACHE` or `~/.cache/regatta`. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env['REGATTA_CACHE'] || join(homedir(), '.cache', 'regatta');
}

/**
 * Paths of the pinned binaries in the cache (Kubernetes: `kubernetesVersion(env)`); throws BinariesMissingError
 * naming what is not built. With `{ jaeger: false }` (a cluster started without Jaeger) a missing Jaeger is not an error.
 */
export function locateBinaries(
  dir = cacheDir(),
  need: { jaeger?: boolean } = {},
  env: NodeJS.ProcessEnv = process.env,
): Binaries {
  const bin = (component: string, version: string, file: string) =>
    join(dir, `${component}-${version}`, 'bin', file);
  const k8s = kubernetesVersion(env);
  const found: Binaries = {
    etcd: bin('etcd', ETCD_VERSION, 'etcd'),
    kubeApiserver: bin('kubernetes', k8s, 'kube-apiserver'),
    kubeControllerManager: bin('kubernetes', k8s, 'kube-controller-manager'),
    kubeScheduler: bin('kubernetes', k8s, 'kube-scheduler'),
    kubectl: bin('kubernetes', k8s, 'kubectl'),
    natsServer: bin('nats', NATS_VERSION, 'nats-server'),
    jaeger: bin('jaeger', JAEGER_VERSION, 'jaeger'),
  };
  const missing = Object.entries(found)
    .filter(([name, p]) => !(name === 'jaeger' && need.jaeger === false) && !existsSync(p))
    .map(([, p]) => p);
  if (missing.length > 0) throw new BinariesMissingError(missing, dir);
  return found;
}

/**
 * The pinned helm in the cache (`tools/controlplane/build.sh helm`, `npm run helm:build`); throws BinariesMissingError
 * (LocalClusterError REGATTA_HELM_MISSING) when it is not built. Not part of the control plane: only the chart's tests (deploy/helm) need it.
 */
export function locateHelm(dir = cacheDir()): string {
  const helm = join(dir, `helm-${HELM_VERSION}`, 'bin', 'helm');
  if (!existsSync(helm)) {
    throw new LocalClusterError(
      'REGATTA_HELM_MISSING',
      `helm ${HELM_VERSION} is not built yet (${helm}): run 'npm run helm:build' once (needs Go; about 7 minutes on 2 cores)`,
    );
  }
  return helm;
}
