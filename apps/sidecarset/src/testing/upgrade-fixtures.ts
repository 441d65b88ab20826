// Pods as the injection webhook leaves them, for the upgrade scenario files (cold and hot-upgrade sidecars).
import type { Pod } from '@regatta/testing';

const entry = (set: string, hash: string) =>
  JSON.stringify({ [set]: { hash, sidecarSetName: set, sidecarList: ['sidecar'] } });
/**
 * Runs until stopped and exits on SIGTERM. A bare `sleep infinity` as PID 1 ignores SIGTERM, so the node simulator,
 * as a kubelet, would stop it (an in-place sidecar upgrade, a deletion) only at the end of the 30 s grace period.
 */
export const UNTIL_STOPPED = ['sh', '-c', "trap 'exit 0' TERM; sleep infinity & wait"];
const sleeping = (name: string, image: string) => ({ name, image, command: UNTIL_STOPPED });

export interface InjectedPodOptions {
  set: string;
  hash: string;
  withoutImageHash: string;
  labels: Record<string, string>;
}

/** A pod with a hot-upgrade sidecar `sidecar`: `sidecar-1` working at `image`, `sidecar-2` idle on `empty`. */
export function hotUpgradePod(name: string, image: string, empty: string, o: InjectedPodOptions): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      labels: o.labels,
      annotations: {
        'kruise.io/sidecarset-hash': entry(o.set, o.hash),
        'kruise.io/sidecarset-hash-without-image': entry(o.set, o.withoutImageHash),
        'kruise.io/sidecarset-injected-list': o.set,
        'kruise.io/sidecarset-working-hotupgrade-container': JSON.stringify({ sidecar: 'sidecar-1' }),
        'version.sidecarset.kruise.io/sidecar-1': '1',
        'versionalt.sidecarset.kruise.io/sidecar-1': '0',
        'version.sidecarset.kruise.io/sidecar-2': '0',
        'versionalt.sidecarset.kruise.io/sidecar-2': '1',
      },
    },
    spec: {
      containers: [
        sleeping('main', 'nginx:1.27'),
        sleeping('sidecar-1', image),
        sleeping('sidecar-2', empty),
      ],
    },
  } as Pod;
}

/** A pod with a cold sidecar `sidecar` at `image`. */
export function coldPod(name: string, image: string, o: InjectedPodOptions): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      labels: o.labels,
      annotations: {
        'kruise.io/sidecarset-hash': entry(o.set, o.hash),
        'kruise.io/sidecarset-hash-without-image': entry(o.set, o.withoutImageHash),
        'kruise.io/sidecarset-injected-list': o.set,
      },
    },
    spec: { containers: [{ name: 'main', image: 'nginx:1.27' }, sleeping('sidecar', image)] },
  } as Pod;
}

export const containerImage = (p: Pod, name: string): string | undefined =>
  p.spec?.containers?.find((c) => c.name === name)?.image;
