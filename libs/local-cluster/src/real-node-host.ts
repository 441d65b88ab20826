// What a real node needs of the host, and what it leaves there that its teardown undoes (docs/real-nodes.md): pure
// parts (the reason a host cannot run one, mounts under a folder, a shim's command line) and the host reads behind them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HostFacts {
  platform: string;
  uid: number;
  /** Entries of /sys/fs/cgroup ([] when absent). */
  cgroupEntries: string[];
  /** /proc/filesystems. */
  filesystems: string;
  /** Whether `ip` (iproute2) is on PATH. */
  hasIp: boolean;
}

/** Why this host cannot run a real node, in one line; undefined when it can. */
export function realNodeUnsupportedReason(f: HostFacts): string | undefined {
  if (f.platform !== 'linux') return `real nodes need Linux (this is ${f.platform})`;
  if (f.uid !== 0)
    return 'real nodes need root (containerd, runc and the kubelet manage mounts, cgroups and networks)';
  const v1 = f.cgroupEntries.includes('memory') && f.cgroupEntries.includes('cpu');
  const v2 = f.cgroupEntries.includes('cgroup.controllers');
  if (!v1 && !v2)
    return 'real nodes need cgroups (no cgroup v1 memory/cpu hierarchy nor cgroup v2 at /sys/fs/cgroup)';
  if (!/\boverlay$/m.test(f.filesystems))
    return "real nodes need the overlay filesystem (containerd's overlayfs snapshotter)";
  if (!f.hasIp) return "real nodes need the ip command (iproute2) to set up and remove the node's bridge";
  return undefined;
}

/** The facts `realNodeUnsupportedReason` judges, read from this host. */
export function hostFacts(): HostFacts {
  const read = (f: string) => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return '';
    }
  };
  const path = (process.env['PATH'] ?? '').split(':').concat(['/usr/sbin', '/sbin']);
  return {
    platform: process.platform,
    uid: process.getuid?.() ?? -1,
    cgroupEntries: existsSync('/sys/fs/cgroup') ? readdirSync('/sys/fs/cgroup') : [],
    filesystems: read('/proc/filesystems'),
    hasIp: path.some((d) => d !== '' && existsSync(join(d, 'ip'))),
  };
}

/** Mount points at or under `dir` from /proc/self/mountinfo's text, deepest first (the order to unmount them). */
export function mountsUnder(mountinfo: string, dir: string): string[] {
  const base = dir.replace(/\/+$/, '');
  const points = mountinfo
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((p): p is string => p !== undefined && p !== '')
    // mountinfo escapes space, tab, newline and backslash as octal
    .map((p) => p.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8))))
    .filter((p) => p === base || p.startsWith(`${base}/`));
  return [...new Set(points)].sort((a, b) => b.length - a.length);
}

/** Whether a process's command line (NUL-separated, as /proc/<pid>/cmdline) is a shim of the containerd at `socket`. */
export function isShimOf(cmdline: string, socket: string): boolean {
  const argv = cmdline.split('\0');
  if (!(argv[0] ?? '').endsWith('containerd-shim-runc-v2')) return false;
  const i = argv.indexOf('-address');
  return i >= 0 && argv[i + 1] === socket;
}

/** A shim's `-namespace` and `-id` from its command line. */
export function shimIdentity(cmdline: string): { namespace: string; id: string } {
  const argv = cmdline.split('\0');
  const arg = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? (argv[i + 1] ?? '') : '';
  };
  return { namespace: arg('-namespace'), id: arg('-id') };
}

/**
 * The socket a shim serves on: containerd puts it in /run/containerd/s whatever its state folder, named by a hash of
 * containerd's address, the namespace and the shim id (upstream pkg/shim/util_unix.go CreateSocketAddress). A killed
 * shim leaves it behind.
 */
export function shimSocketFile(address: string, namespace: string, id: string): string {
  return join(
    '/run/containerd/s',
    createHash('sha256')
      .update(join(address, namespace, id))
      .digest('hex'),
  );
}

/**
 * The pids of the shims of the containerd at `socket` (with their sockets), and of the processes they started (the
 * containers' inits).
 */
export function shimTree(socket: string): { shims: number[]; children: number[]; sockets: string[] } {
  const pids = readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number);
  const read = (pid: number, f: string) => {
    try {
      return readFileSync(`/proc/${pid}/${f}`, 'utf8');
    } catch {
      return '';
    }
  };
  const shims = pids.filter((pid) => isShimOf(read(pid, 'cmdline'), socket));
  const sockets = shims.map((pid) => {
    const { namespace, id } = shimIdentity(read(pid, 'cmdline'));
    return shimSocketFile(socket, namespace, id);
  });
  const parent = (pid: number) => Number(/^PPid:\s*(\d+)/m.exec(read(pid, 'status'))?.[1] ?? 0);
  const children = pids.filter((pid) => shims.includes(parent(pid)));
  return { shims, children, sockets };
}

/**
 * The cgroup folders named `top` (a node's cgroup root, e.g. `rgt1a2b3c4d`) in every hierarchy (cgroup v1: one per
 * controller; v2: the unified one), each with its sub-folders, deepest first: the order `rmdir` removes them in (a
 * cgroup still holding a process stays).
 */
export function nodeCgroups(top: string, root = '/sys/fs/cgroup'): string[] {
  if (!existsSync(root)) return [];
  const tops = [join(root, top)];
  for (const h of readdirSync(root)) tops.push(join(root, h, top));
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: string[];
    try {
      entries = readdirSync(d, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch {
      return;
    }
    for (const e of entries) walk(join(d, e));
    out.push(d);
  };
  for (const t of tops) if (existsSync(t)) walk(t);
  return out;
}

/**
 * Creates a node's cgroup root `top` in every hierarchy before its kubelet starts (the kubelet refuses a `cgroupRoot`
 * missing in any subsystem: upstream pkg/kubelet/cm/container_manager_linux.go), so that two real nodes on one host
 * never share `/kubepods` (each kubelet removes pod cgroups it does not know). cgroup v1's cpuset gets its parent's
 * CPUs and memory nodes; on a cgroup v2 host the root's controllers are enabled below it.
 */
export function createNodeCgroupRoot(top: string, root = '/sys/fs/cgroup'): void {
  const v2 = existsSync(join(root, 'cgroup.controllers'));
  if (v2) {
    mkdirSync(join(root, top), { recursive: true });
    const controllers = readFileSync(join(root, 'cgroup.subtree_control'), 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    if (controllers.length)
      writeFileSync(join(root, top, 'cgroup.subtree_control'), controllers.map((c) => `+${c}`).join(' '));
    return;
  }
  for (const h of readdirSync(root, { withFileTypes: true })) {
    if (!h.isDirectory() && !h.isSymbolicLink()) continue;
    const dir = join(root, h.name);
    if (!existsSync(join(dir, 'cgroup.procs'))) continue;
    mkdirSync(join(dir, top), { recursive: true });
    if (existsSync(join(dir, 'cpuset.cpus'))) {
      for (const f of ['cpuset.cpus', 'cpuset.mems'])
        writeFileSync(join(dir, top, f), readFileSync(join(dir, f), 'utf8'));
    }
  }
}

/** The links in `/var/log/containers` (the kubelet writes them whatever its root) that point into `podLogs`. */
export function containerLogLinks(podLogs: string, dir = '/var/log/containers'): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => join(dir, f))
    .filter((f) => {
      try {
        return readlinkSync(f).startsWith(`${podLogs}/`);
      } catch {
        return false;
      }
    });
}

/** Pids of running processes whose command name is `comm` (/proc/<pid>/comm), e.g. another sandbox's kubelet. */
export function processesNamed(comm: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm;
      } catch {
        return false;
      }
    })
    .map(Number);
}
