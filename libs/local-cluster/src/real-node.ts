// A real node beside the simulated ones (docs/real-nodes.md, docs/adr/0069): its own containerd (root, state and
// socket under the node's folder), runc, a CNI bridge of its own, and a kubelet with its own credentials, joined to a
// local cluster; a registry with stand-in images when none is given.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { isConflict, isNotFound, KubeClient, type KubeObject } from '@regatta/kube';
import { LocalClusterError } from './errors.js';
import { missingNodeComponents, nodeBinaries, type NodeBinaries } from './node-binaries.js';
import { freePorts } from './ports.js';
import { ManagedProcess } from './process.js';
import {
  chooseNetwork,
  cniConflist,
  containerdConfig,
  hostsToml,
  kubeletArgs,
  kubeletConfig,
  MIRRORED_REGISTRIES,
  NODE_KIND_LABEL,
  nodePaths,
  ZONE_LABEL,
  type NodeNetwork,
} from './real-node-config.js';
import { writeNodeCredentials } from './real-node-certs.js';
import { acquireHostShare } from './real-node-host-share.js';
import { createNodeCgroupRoot, hostFacts, realNodeUnsupportedReason } from './real-node-host.js';
import {
  cleanupRealNodeHost,
  killContainers,
  realNodeLeftovers,
  writeRealNodeState,
  type RealNodeState,
} from './real-node-teardown.js';
import { pushStandIns, startRegistry, type Registry } from './registry.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';

interface NodeObject extends KubeObject {
  spec?: { taints?: { key: string; value?: string; effect: string }[] };
  status?: { conditions?: { type: string; status: string }[] };
}

export interface RealNodeOptions {
  /** The cluster's folder: its `pki/` signs the node's certificates; the node lives in `<dir>/nodes/<name>`. */
  clusterDir: string;
  /** The cluster's admin kubeconfig (waits for the Node, removes the not-ready taint, deletes the Node on stop). */
  kubeconfig: string;
  /** The API server URL the kubelet talks to. */
  apiserver: string;
  name: string;
  zone?: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  /** A running registry (`127.0.0.1:PORT`) with the stand-ins; none: the node starts one and pushes them. */
  registry?: string;
  keepAfterExit?: boolean;
  log?: (line: string) => void;
  binaries?: NodeBinaries;
  /** The host lease folder (default /run/regatta/real-nodes; real-node-host-share.ts). */
  hostShareRoot?: string;
}

/** The host cannot run a real node; `reason` is one line saying why. */
export class RealNodeUnsupportedError extends LocalClusterError {
  constructor(readonly reason: string) {
    super('REGATTA_REAL_NODE_UNSUPPORTED', reason);
  }
}

/**
 * Why this machine cannot run a real node (not root, no cgroups or overlayfs, binaries not built and no Go to build
 * them), in one line; undefined when it can.
 */
export function realNodeUnavailable(cache?: string): string | undefined {
  const host = realNodeUnsupportedReason(hostFacts());
  if (host) return host;
  const missing = missingNodeComponents(cache);
  if (missing.length === 0) return undefined;
  const go = (process.env['PATH'] ?? '')
    .split(':')
    .concat('/usr/local/go/bin')
    .some((d) => d && existsSync(join(d, 'go')));
  return go
    ? undefined
    : `real nodes need ${missing.join(', ')} built from Go modules, and Go is not installed (tools/controlplane/build.sh node)`;
}

export class RealNode {
  /** Milliseconds from the kubelet's start to the Node's Ready condition. */
  readyMs = 0;
  private stopped = false;

  private constructor(
    readonly name: string,
    readonly dir: string,
    readonly network: NodeNetwork,
    private registryAddress: string,
    readonly processes: ManagedProcess[],
    private readonly state: RealNodeState,
    private readonly kubeconfig: string,
  ) {}

  /** The registry (`127.0.0.1:PORT`) the node pulls its images from. */
  get registry(): string {
    return this.registryAddress;
  }

  /** The CRI socket of the node's containerd (the image pull agent's `CRI_SOCKET`). */
  get criSocket(): string {
    return this.state.containerdSocket;
  }

  /** The node's IP (its bridge's address): the kubelet serves there; pods get addresses in `network.subnet`. */
  get nodeIp(): string {
    return this.network.gateway;
  }

  static async start(o: RealNodeOptions): Promise<RealNode> {
    const log = o.log ?? (() => undefined);
    const unsupported = realNodeUnsupportedReason(hostFacts());
    if (unsupported) throw new RealNodeUnsupportedError(unsupported);
    const missing = missingNodeComponents();
    if (!o.binaries && missing.length > 0) {
      throw new LocalClusterError(
        'REGATTA_NODE_BINARIES_MISSING',
        `the real node's ${missing.join(', ')} are not built: run 'bash tools/controlplane/build.sh node' once`,
      );
    }
    const bin = o.binaries ?? nodeBinaries();
    const dir = join(o.clusterDir, 'nodes', o.name);
    const paths = nodePaths(dir);
    for (const d of [
      paths.containerdRoot,
      paths.containerdState,
      paths.certsD,
      paths.cniConf,
      paths.cniIpam,
      paths.kubeletRoot,
      paths.podLogs,
      paths.pki,
    ]) {
      await mkdir(d, { recursive: true, mode: 0o700 });
    }
    const logs = join(o.clusterDir, 'logs');
    await mkdir(logs, { recursive: true });
    const used = (await run('ip', ['-4', '-o', 'addr', 'show'])).stdout
      .split('\n')
      .map((l) => l.split(/\s+/)[3] ?? '');
    const network = chooseNetwork(dir, used);
    if (!network)
      throw new LocalClusterError(
        'REGATTA_REAL_NODE_NETWORK',
        'no free 10.88.X.0/24 for a node bridge on this host',
      );

    // the host as the first real node on it (of any sandbox) found it: the last one to stop puts it back
    const host = await acquireHostShare(dir, o.hostShareRoot ? { root: o.hostShareRoot } : {});
    const state: RealNodeState = {
      name: o.name,
      startedAt: Date.now(),
      dir,
      bridge: network.bridge,
      containerdSocket: paths.containerdSocket,
      podLogs: paths.podLogs,
      ipForwardBefore: host.ipForwardBefore,
      varLibKubeletExisted: host.varLibKubeletExisted,
      cniNetwork: `regatta-${o.name}`,
      cgroupRoot: network.bridge,
      varLibCniExisted: host.varLibCniExisted,
      varLogContainersExisted: host.varLogContainersExisted,
      ...(o.hostShareRoot ? { hostShareRoot: o.hostShareRoot } : {}),
    };
    await writeRealNodeState(state);
    const processes: ManagedProcess[] = [];
    const node = new RealNode(o.name, dir, network, o.registry ?? '', processes, state, o.kubeconfig);
    const start = (name: string, command: string, args: string[], env?: NodeJS.ProcessEnv) => {
      const p = ManagedProcess.start(
        { name, command, args, logFile: join(logs, `${name}.log`), ...(env ? { env } : {}) },
        { keepAfterExit: o.keepAfterExit ?? false },
      );
      processes.push(p);
      return p;
    };
    try {
      // the bridge with the gateway address first: the kubelet serves on it before any pod exists (the bridge plugin
      // finds it there and keeps it: plugins/main/bridge ensureAddr upstream)
      await run('ip', ['link', 'add', 'name', network.bridge, 'type', 'bridge']);
      await run('ip', ['addr', 'add', `${network.gateway}/24`, 'dev', network.bridge]);
      await run('ip', ['link', 'set', network.bridge, 'up']);

      let registry = o.registry;
      if (!registry) {
        const t = Date.now();
        const r: Registry = await startRegistry({
          crane: bin.crane,
          logFile: join(logs, `registry-${o.name}.log`),
          keepAfterExit: o.keepAfterExit ?? false,
        });
        processes.push(r.process);
        const images = await pushStandIns({
          crane: bin.crane,
          registry: r.address,
          workDir: join(dir, 'images'),
        });
        registry = r.address;
        log(`registry on ${registry}: ${images.length} stand-in images in ${Date.now() - t} ms`);
      }
      node.registryAddress = registry;
      for (const name of [...MIRRORED_REGISTRIES, registry]) {
        await mkdir(join(paths.certsD, name), { recursive: true });
        await writeFile(join(paths.certsD, name, 'hosts.toml'), hostsToml(registry, name));
      }
      await writeFile(
        paths.containerdConfig,
        containerdConfig(paths, { runc: bin.runc, cniBin: bin.cniBin }),
      );
      await writeFile(
        join(paths.cniConf, '10-regatta.conflist'),
        cniConflist(network, paths.cniIpam, state.cniNetwork),
      );

      const t0 = Date.now();
      const env = {
        ...process.env,
        PATH: `${bin.containerdBin}:${dirname(bin.runc)}:${process.env['PATH'] ?? ''}`,
      };
      const containerd = start(
        `containerd-${o.name}`,
        bin.containerd,
        ['--config', paths.containerdConfig],
        env,
      );
      await waitFor(
        `containerd of ${o.name}`,
        async () => {
          containerd.assertRunning();
          await run(bin.ctr, ['--address', paths.containerdSocket, 'version']);
          return true;
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
      log(`containerd of ${o.name} ready in ${Date.now() - t0} ms`);

      const creds = await writeNodeCredentials({
        clusterPki: join(o.clusterDir, 'pki'),
        pkiDir: paths.pki,
        kubeconfig: paths.kubeconfig,
        name: o.name,
        nodeIp: network.gateway,
        server: o.apiserver,
      });
      const [port, healthzPort] = (await freePorts(2)) as [number, number];
      await writeFile(
        paths.kubeletConfig,
        kubeletConfig({
          paths,
          address: network.gateway,
          port,
          healthzPort,
          caFile: creds.caFile,
          tlsCertFile: creds.servingCert,
          tlsKeyFile: creds.servingKey,
          taints: o.taints ?? [],
          cgroupRoot: `/${state.cgroupRoot}`,
        }),
      );
      const labels = { [NODE_KIND_LABEL]: 'real', [ZONE_LABEL]: o.zone ?? 'zone-a', ...o.labels };
      createNodeCgroupRoot(state.cgroupRoot);
      const t1 = Date.now();
      const kubelet = start(
        `kubelet-${o.name}`,
        bin.kubelet,
        kubeletArgs({ paths, name: o.name, nodeIp: network.gateway, labels }),
        env,
      );
      await node.waitReady(kubelet);
      node.readyMs = Date.now() - t1;
      log(
        `real node ${o.name} Ready in ${node.readyMs} ms (IP ${network.gateway}, pods ${network.subnet}, registry ${registry})`,
      );
      return node;
    } catch (err) {
      await node.stop().catch(() => undefined);
      throw err;
    }
  }

  /** Waits for the Node's Ready condition, then removes the not-ready taint the kubelet registered it with. */
  private async waitReady(kubelet: ManagedProcess): Promise<void> {
    const client = KubeClient.fromKubeconfigFile(this.kubeconfig);
    const ref = { apiVersion: 'v1', kind: 'Node', name: this.name };
    try {
      await waitFor(
        `real node ${this.name} to be Ready (kubelet log: ${kubelet.spec.logFile})`,
        async () => {
          kubelet.assertRunning();
          const n = await client.get<NodeObject>(ref);
          return n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );
      // no node-lifecycle controller runs here (docs/architecture.md): nothing else would remove it
      await waitFor(
        `the ${NOT_READY_TAINT} taint of ${this.name} to be removed`,
        async () => {
          const n = await client.get<NodeObject>(ref);
          const taints = n.spec?.taints ?? [];
          if (!taints.some((t) => t.key === NOT_READY_TAINT)) return true;
          await client
            .patch(
              ref,
              {
                metadata: { resourceVersion: n.metadata?.resourceVersion },
                spec: { taints: taints.filter((t) => t.key !== NOT_READY_TAINT) },
              },
              { type: 'merge' },
            )
            .catch((err: unknown) => {
              if (!isConflict(err)) throw err;
            });
          return false;
        },
        { timeoutMs: 15_000, intervalMs: 100 },
      );
    } finally {
      await client.close();
    }
  }

  /** What of this node is still on the host (processes, mounts, its bridge, cgroups); [] once stopped cleanly. */
  leftovers(): Promise<string[]> {
    return realNodeLeftovers(this.state);
  }

  /**
   * Stops the kubelet, the containers, containerd and the registry it started, undoes the host's side effects and,
   * with `deleteNode`, deletes the Node. Returns what could not be undone ([] when all was).
   */
  async stop({ deleteNode = false } = {}): Promise<string[]> {
    if (this.stopped) return [];
    this.stopped = true;
    const [kubelet, ...rest] = [...this.processes].reverse();
    await kubelet?.stop();
    await killContainers(this.state.containerdSocket);
    for (const p of rest) await p.stop();
    const left = await cleanupRealNodeHost(this.state);
    if (deleteNode) {
      const client = KubeClient.fromKubeconfigFile(this.kubeconfig);
      await client
        .delete({ apiVersion: 'v1', kind: 'Node', name: this.name })
        .catch((err: unknown) => {
          if (!isNotFound(err)) left.push(`Node ${this.name}: ${String(err)}`);
        })
        .finally(() => client.close());
    }
    return left;
  }
}
