// Undoing what a real node did to the host (docs/real-nodes.md "Teardown"), from its state file alone, so that the
// process that started it and `regatta sandbox down` (another process, later) clean up the same way. Run after the
// kubelet stopped; it kills the containers and their shims, stops nothing else by name.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { alive } from './process.js';
import { containerLogLinks, nodeCgroups, mountsUnder, shimTree } from './real-node-host.js';
import { releaseHostShare, type HostSnapshot } from './real-node-host-share.js';

const run = promisify(execFile);

/** `<node folder>/real-node.json`: what the node changed on the host, written before it changes anything. */
export const REAL_NODE_STATE = 'real-node.json';

export interface RealNodeState {
  name: string;
  /** When the node started (ms): nodes are undone newest first, so the first one restores what it found. */
  startedAt?: number;
  dir: string;
  bridge: string;
  containerdSocket: string;
  podLogs: string;
  /** The node's cgroup root (one folder in each hierarchy) that its kubelet's `kubepods` lives under. */
  cgroupRoot: string;
  /** `/proc/sys/net/ipv4/ip_forward` before the first real node on the host started ('0' or '1'; host lease). */
  ipForwardBefore: string;
  /** Whether /var/lib/kubelet existed before the first real node on the host (the kubelet writes device-plugins there whatever its root). */
  varLibKubeletExisted: boolean;
  /** The CNI network's name: libcni caches each attachment in /var/lib/cni/results/<network>-<container>-<if>. */
  cniNetwork: string;
  /** Whether /var/lib/cni existed before. */
  varLibCniExisted: boolean;
  /** Whether /var/log/containers existed before (the kubelet creates it whatever its root). */
  varLogContainersExisted?: boolean;
  /** The host lease folder when not /run/regatta/real-nodes (tests). */
  hostShareRoot?: string;
}

export async function writeRealNodeState(s: RealNodeState): Promise<void> {
  await writeFile(join(s.dir, REAL_NODE_STATE), JSON.stringify(s, null, 2) + '\n');
}

/** Kills every container of the node's containerd and their shims (SIGKILL; the kubelet is gone, nobody restarts them). */
export async function killContainers(socket: string): Promise<number> {
  const { shims, children, sockets } = shimTree(socket);
  for (const pid of [...children, ...shims]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  const deadline = Date.now() + 5_000;
  while ([...children, ...shims].some(alive) && Date.now() < deadline) await sleep(50);
  for (const f of sockets) await rm(f, { force: true }).catch(() => undefined);
  return children.length;
}

/**
 * Undoes the node's host side effects after its processes stopped: containers and shims killed, mounts under its folder
 * unmounted, its cgroups removed, its bridge deleted, its links in /var/log/containers removed; and, when it is the
 * last real node on the host (of any sandbox), `ip_forward`, /var/lib/kubelet, /var/lib/cni and /var/log/containers
 * as the first one found them. Each step goes on when another fails; returns what could not be undone.
 */
export async function cleanupRealNodeHost(s: RealNodeState): Promise<string[]> {
  const left: string[] = [];
  await killContainers(s.containerdSocket);
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  for (const m of mountsUnder(mountinfo, s.dir)) {
    await run('umount', [m]).catch(() => run('umount', ['-l', m]).catch(() => left.push(`mount ${m}`)));
  }
  for (const cg of nodeCgroups(s.cgroupRoot)) await rmdir(cg).catch(() => left.push(`cgroup ${cg}`));
  if (existsSync(`/sys/class/net/${s.bridge}`)) {
    await run('ip', ['link', 'delete', s.bridge]).catch(() => left.push(`bridge ${s.bridge}`));
  }
  for (const link of containerLogLinks(s.podLogs)) await unlink(link).catch(() => undefined);
  const results = '/var/lib/cni/results';
  if (existsSync(results)) {
    for (const f of readdirSync(results).filter((f) => f.startsWith(`${s.cniNetwork}-`))) {
      await rm(join(results, f), { force: true }).catch(() => undefined);
    }
  }
  // what real nodes share on a host (ip_forward, /var/lib/kubelet, …) is put back by the last one of any sandbox,
  // as the first one found it (real-node-host-share.ts)
  await releaseHostShare(s.dir, async (host) => restoreSharedHost(host, left), {
    ...(s.hostShareRoot ? { root: s.hostShareRoot } : {}),
    fallback: {
      ipForwardBefore: s.ipForwardBefore,
      varLibKubeletExisted: s.varLibKubeletExisted,
      varLibCniExisted: s.varLibCniExisted,
      varLogContainersExisted: s.varLogContainersExisted ?? true,
    },
  }).catch((err: unknown) => left.push(`host share: ${String(err)}`));
  return left;
}

/** Puts back what real nodes share on the host, as the first of them found it (the last one's teardown). */
async function restoreSharedHost(host: HostSnapshot, left: string[]): Promise<void> {
  if (host.ipForwardBefore === '0') {
    await writeFile('/proc/sys/net/ipv4/ip_forward', '0').catch(() => left.push('net.ipv4.ip_forward'));
  }
  if (!host.varLibCniExisted)
    await rm('/var/lib/cni', { recursive: true, force: true }).catch(() => undefined);
  if (!host.varLibKubeletExisted)
    await rm('/var/lib/kubelet', { recursive: true, force: true }).catch(() => undefined);
  // folders made only for the shims' sockets and the kubelet's log links: removed when empty (rmdir refuses otherwise)
  const emptied = ['/run/containerd/s', '/run/containerd'];
  if (!host.varLogContainersExisted) emptied.push('/var/log/containers');
  for (const d of emptied) await rmdir(d).catch(() => undefined);
}

/** The states of the real nodes under a sandbox folder (`<dir>/nodes/<name>/real-node.json`). */
export async function realNodeStatesIn(dir: string): Promise<RealNodeState[]> {
  const nodes = join(dir, 'nodes');
  if (!existsSync(nodes)) return [];
  const out: RealNodeState[] = [];
  for (const n of readdirSync(nodes)) {
    const f = join(nodes, n, REAL_NODE_STATE);
    if (existsSync(f)) out.push(JSON.parse(await readFile(f, 'utf8')) as RealNodeState);
  }
  return out;
}

/** `sandbox down`: after the sandbox's processes stopped, undo every real node's host side effects. */
export async function cleanupRealNodesInDir(dir: string): Promise<string[]> {
  const left: string[] = [];
  const states = (await realNodeStatesIn(dir)).sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0));
  for (const s of states) left.push(...(await cleanupRealNodeHost(s)));
  return left;
}

/**
 * What of the node is still on the host: processes (containerd's shims and containers), mounts under its folder, its
 * bridge and its cgroups. [] after a clean teardown.
 */
export async function realNodeLeftovers(s: RealNodeState): Promise<string[]> {
  const out: string[] = [];
  const { shims, children } = shimTree(s.containerdSocket);
  out.push(...[...shims, ...children].map((pid) => `process ${pid}`));
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  out.push(...mountsUnder(mountinfo, s.dir).map((m) => `mount ${m}`));
  if (existsSync(`/sys/class/net/${s.bridge}`)) out.push(`bridge ${s.bridge}`);
  out.push(...nodeCgroups(s.cgroupRoot).map((c) => `cgroup ${c}`));
  return out;
}
