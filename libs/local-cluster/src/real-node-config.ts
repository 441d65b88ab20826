// The configuration files and command lines of a real node (docs/real-nodes.md): containerd, its registry hosts, the
// CNI bridge network and the kubelet. Pure functions of paths, ports and names.
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** `regatta.dev/node-kind=real`: the label a real node registers with (the node simulator leaves such nodes alone). */
export const NODE_KIND_LABEL = 'regatta.dev/node-kind';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** The registry names whose images the node pulls from the sandbox's registry instead (containerd `certs.d`). */
export const MIRRORED_REGISTRIES = ['docker.io', 'registry.k8s.io'] as const;
/** The pod sandbox image: resolved to the sandbox registry's pause stand-in (registry.ts). */
export const SANDBOX_IMAGE = 'registry.k8s.io/pause:3.10';

/** A node's bridge network: the Linux bridge, the pods' /24 and the gateway (the bridge's own address, the node IP). */
export interface NodeNetwork {
  bridge: string;
  subnet: string;
  gateway: string;
}

/**
 * A bridge name and a 10.88.X.0/24 subnet for a node, derived from `seed` (the node's folder) so that two sandboxes on
 * one machine differ, skipping the /24s already on the host (`usedCidrs`, e.g. `10.88.7.1/24`). Bridge names fit
 * Linux's 15 characters. Returns undefined when all 256 are taken.
 */
export function chooseNetwork(seed: string, usedCidrs: readonly string[]): NodeNetwork | undefined {
  const h = createHash('sha256').update(seed).digest();
  const used = new Set(
    usedCidrs
      .map((c) => /^10\.88\.(\d+)\./.exec(c)?.[1])
      .filter((x): x is string => x !== undefined)
      .map(Number),
  );
  const start = h[0] ?? 0;
  for (let i = 0; i < 256; i++) {
    const x = (start + i) % 256;
    if (used.has(x)) continue;
    return {
      bridge: `rgt${h.subarray(1, 5).toString('hex')}`,
      subnet: `10.88.${x}.0/24`,
      gateway: `10.88.${x}.1`,
    };
  }
  return undefined;
}

/** Where everything of one node lives, under its folder. */
export interface NodePaths {
  dir: string;
  containerdRoot: string;
  containerdState: string;
  containerdSocket: string;
  containerdConfig: string;
  certsD: string;
  cniConf: string;
  cniIpam: string;
  kubeletRoot: string;
  kubeletConfig: string;
  kubeconfig: string;
  podLogs: string;
  pki: string;
}

export function nodePaths(dir: string): NodePaths {
  return {
    dir,
    containerdRoot: join(dir, 'containerd', 'root'),
    containerdState: join(dir, 'containerd', 'state'),
    containerdSocket: join(dir, 'containerd', 'containerd.sock'),
    containerdConfig: join(dir, 'containerd', 'config.toml'),
    certsD: join(dir, 'containerd', 'certs.d'),
    cniConf: join(dir, 'cni', 'conf'),
    cniIpam: join(dir, 'cni', 'ipam'),
    kubeletRoot: join(dir, 'kubelet'),
    kubeletConfig: join(dir, 'kubelet-config.yaml'),
    kubeconfig: join(dir, 'kubelet.kubeconfig'),
    podLogs: join(dir, 'kubelet', 'pod-logs'),
    pki: join(dir, 'pki'),
  };
}

/**
 * containerd 2.x configuration (version 3; upstream docs/cri/config.md): its own root, state and socket; the CRI's
 * registry hosts from `certs.d`; the pinned sandbox image; `restrict_oom_score_adj` (this VM withholds
 * CAP_SYS_RESOURCE even from root); runc by path with the cgroupfs driver (the kubelet takes its driver from the CRI);
 * the CNI plugins and this node's network config; runc's state, pods' network namespaces mounted under the folder, NRI off
 * and `/opt` under the folder, so nothing is written outside it.
 */
export function containerdConfig(p: NodePaths, o: { runc: string; cniBin: string }): string {
  const q = JSON.stringify;
  return `version = 3
root = ${q(p.containerdRoot)}
state = ${q(p.containerdState)}

[grpc]
  address = ${q(p.containerdSocket)}

[plugins."io.containerd.internal.v1.opt"]
  path = ${q(join(p.dir, 'containerd', 'opt'))}

[plugins."io.containerd.nri.v1.nri"]
  disable = true

[plugins."io.containerd.cri.v1.images".registry]
  config_path = ${q(p.certsD)}

[plugins."io.containerd.cri.v1.images".pinned_images]
  sandbox = ${q(SANDBOX_IMAGE)}

[plugins."io.containerd.cri.v1.runtime"]
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true

[plugins."io.containerd.cri.v1.runtime".cni]
  bin_dirs = [${q(o.cniBin)}]
  conf_dir = ${q(p.cniConf)}

[plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc.options]
  BinaryName = ${q(o.runc)}
  Root = ${q(join(p.dir, 'containerd', 'runc'))}
  SystemdCgroup = false
`;
}

/**
 * `certs.d/<name>/hosts.toml` (upstream docs/hosts.md): pulls of `<name>` go to the sandbox registry over plain HTTP.
 * `name` is a registry host (`docker.io`) or the registry's own `127.0.0.1:PORT`.
 */
export function hostsToml(registry: string, name: string): string {
  const upstream = name === 'docker.io' ? 'https://registry-1.docker.io' : `https://${name}`;
  const server = name === registry ? `http://${registry}` : upstream;
  return `server = "${server}"

[host."http://${registry}"]
  capabilities = ["pull", "resolve"]
  skip_verify = true
`;
}

/** The CNI network (conflist): a bridge with the node's gateway, host-local addresses, no masquerade (pods are reached from the host). */
export function cniConflist(net: NodeNetwork, ipamDir: string, name: string): string {
  return (
    JSON.stringify(
      {
        cniVersion: '1.0.0',
        name,
        plugins: [
          {
            type: 'bridge',
            bridge: net.bridge,
            isGateway: true,
            ipMasq: false,
            hairpinMode: true,
            ipam: {
              type: 'host-local',
              dataDir: ipamDir,
              ranges: [[{ subnet: net.subnet, gateway: net.gateway }]],
              routes: [{ dst: '0.0.0.0/0' }],
            },
          },
        ],
      },
      null,
      2,
    ) + '\n'
  );
}

export interface KubeletSettings {
  paths: NodePaths;
  /** The node IP (the bridge's gateway): the kubelet serves there, the API server reaches it there. */
  address: string;
  port: number;
  healthzPort: number;
  caFile: string;
  tlsCertFile: string;
  tlsKeyFile: string;
  taints: { key: string; value?: string; effect: string }[];
  /** The node's own cgroup root (`/<name>`, made by real-node-host.ts createNodeCgroupRoot). */
  cgroupRoot: string;
}

/**
 * The KubeletConfiguration (kubelet.config.k8s.io/v1beta1). What matters on this machine kind: `failCgroupV1: false`
 * (cgroup v1 is deprecated upstream; kubelet ≥ 1.35 refuses it otherwise), cgroupfs, a cgroup root of the node's own
 * (two kubelets sharing `/kubepods` would remove each other's pod cgroups), nothing
 * enforced on node allocatable, eviction and image GC thresholds a shared disk never crosses. Authentication: client
 * certificates of the cluster CA and bearer tokens by webhook; authorization by SubjectAccessReview; no anonymous access.
 */
export function kubeletConfig(s: KubeletSettings): string {
  const q = JSON.stringify;
  const sock = `unix://${s.paths.containerdSocket}`;
  const taints = s.taints.length
    ? `registerWithTaints:\n${s.taints
        .map(
          (t) =>
            `  - key: ${q(t.key)}\n${t.value !== undefined ? `    value: ${q(t.value)}\n` : ''}    effect: ${t.effect}`,
        )
        .join('\n')}\n`
    : '';
  return `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: ${q(s.address)}
port: ${s.port}
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: ${s.healthzPort}
tlsCertFile: ${q(s.tlsCertFile)}
tlsPrivateKeyFile: ${q(s.tlsKeyFile)}
rotateCertificates: false
serverTLSBootstrap: false
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: true
  x509:
    clientCAFile: ${q(s.caFile)}
authorization:
  mode: Webhook
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupsPerQOS: true
cgroupRoot: ${q(s.cgroupRoot)}
enforceNodeAllocatable: []
containerRuntimeEndpoint: ${q(sock)}
imageServiceEndpoint: ${q(sock)}
podLogsDir: ${q(s.paths.podLogs)}
volumePluginDir: ${q(join(s.paths.kubeletRoot, 'volume-plugins'))}
staticPodPath: ""
failSwapOn: false
evictionHard:
  memory.available: "50Mi"
  nodefs.available: "1%"
  nodefs.inodesFree: "1%"
  imagefs.available: "1%"
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
nodeStatusUpdateFrequency: 5s
${taints}`;
}

/** The kubelet's command line: its config, credentials, root folder, name, IP and labels. */
export function kubeletArgs(o: {
  paths: NodePaths;
  name: string;
  nodeIp: string;
  labels: Record<string, string>;
}): string[] {
  const labels = Object.entries(o.labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return [
    `--config=${o.paths.kubeletConfig}`,
    `--kubeconfig=${o.paths.kubeconfig}`,
    `--root-dir=${o.paths.kubeletRoot}`,
    `--hostname-override=${o.name}`,
    `--node-ip=${o.nodeIp}`,
    `--node-labels=${labels}`,
    '--v=1',
  ];
}
