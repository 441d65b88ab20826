// The binaries of a real node (tools/controlplane/build.sh node), in the cache beside the control plane's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, kubernetesVersion } from './binaries.js';
import { CNI_PLUGINS_VERSION, CONTAINERD_VERSION, CRANE_VERSION, RUNC_VERSION } from './versions.js';

export interface NodeBinaries {
  kubelet: string;
  containerd: string;
  ctr: string;
  /** The folder of containerd, ctr and containerd-shim-runc-v2 (containerd finds the shim on PATH). */
  containerdBin: string;
  runc: string;
  /** The folder of the CNI plugins bridge, host-local and loopback. */
  cniBin: string;
  crane: string;
}

/** The node components build.sh knows, each with its cache folder's name. */
export function nodeComponentFolders(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    kubelet: `kubelet-${kubernetesVersion(env)}`,
    containerd: `containerd-${CONTAINERD_VERSION}`,
    runc: `runc-${RUNC_VERSION}`,
    cni: `cni-${CNI_PLUGINS_VERSION}`,
    crane: `crane-${CRANE_VERSION}`,
  };
}

/** Where the node's binaries are in `dir` (the cache), whether built or not. */
export function nodeBinaries(dir = cacheDir(), env: NodeJS.ProcessEnv = process.env): NodeBinaries {
  const f = nodeComponentFolders(env);
  const bin = (component: string) => join(dir, f[component] ?? component, 'bin');
  return {
    kubelet: join(bin('kubelet'), 'kubelet'),
    containerd: join(bin('containerd'), 'containerd'),
    ctr: join(bin('containerd'), 'ctr'),
    containerdBin: bin('containerd'),
    runc: join(bin('runc'), 'runc'),
    cniBin: bin('cni'),
    crane: join(bin('crane'), 'crane'),
  };
}

/** The node components whose cache folder is not complete (build.sh writes `.complete` last). */
export function missingNodeComponents(dir = cacheDir(), env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(nodeComponentFolders(env))
    .filter(([, folder]) => !existsSync(join(dir, folder, '.complete')))
    .map(([component]) => component);
}
