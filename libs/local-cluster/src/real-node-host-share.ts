// What every real node on a host shares (docs/real-nodes.md "Several sandboxes on one host"): `net.ipv4.ip_forward`,
// which the CNI bridge plugin turns on, and the folders a kubelet writes whatever its root (/var/lib/kubelet with its
// device-plugins socket, /var/log/containers, /var/lib/cni). Real nodes of any sandbox on the host take a lease under
// /run/regatta/real-nodes; the first one records how the host was, the last one to go puts it back, both under a
// host-wide lock, so one sandbox's teardown never undoes what another sandbox's running node needs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocalClusterError } from './errors.js';
import { alive } from './process.js';

/** Where the leases live: tmpfs, so a reboot (which undoes the host state too) forgets them. */
export const HOST_SHARE_ROOT = '/run/regatta/real-nodes';

/** How the host was before the first real node on it started; the last one to stop restores it. */
export interface HostSnapshot {
  /** `/proc/sys/net/ipv4/ip_forward` ('0' or '1'). */
  ipForwardBefore: string;
  varLibKubeletExisted: boolean;
  varLibCniExisted: boolean;
  varLogContainersExisted: boolean;
}

/** One real node's lease: its folder (whose `real-node.json` says it is still set up) and when it was taken. */
export interface HostLease {
  dir: string;
  takenAt: number;
}

export interface HostShareOptions {
  /** The leases' folder (tests use a temporary one). */
  root?: string;
  /** How the host is now (read when the first lease is taken). */
  snapshot?: () => HostSnapshot;
  /** Whether the node in `lease.dir` still holds the host (default: its state file is there and one of its processes runs, or it is still starting). */
  live?: (lease: HostLease) => boolean;
}

/** How long a lease counts without a process of its node: a node takes it before it starts containerd. */
const STARTING_MS = 180_000;
const LOCK_TIMEOUT_MS = 30_000;

/** The host as it is now. */
export function readHostSnapshot(): HostSnapshot {
  let ipForward = '1';
  try {
    ipForward = readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8').trim();
  } catch {
    // no procfs entry: nothing to restore
  }
  return {
    ipForwardBefore: ipForward,
    varLibKubeletExisted: existsSync('/var/lib/kubelet'),
    varLibCniExisted: existsSync('/var/lib/cni'),
    varLogContainersExisted: existsSync('/var/log/containers'),
  };
}

/** Whether any running process names `dir` on its command line (the node's containerd config, its kubelet's). */
function processUnder(dir: string): boolean {
  const needle = `${dir.replace(/\/+$/, '')}/`;
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(needle)) return true;
    } catch {
      // gone
    }
  }
  return false;
}

/** The default liveness of a lease: its node's state file is there, and it is starting or one of its processes runs. */
export function leaseLive(lease: HostLease, now = Date.now()): boolean {
  if (!existsSync(join(lease.dir, 'real-node.json'))) return false;
  return now - lease.takenAt < STARTING_MS || processUnder(lease.dir);
}

const leaseFile = (root: string, dir: string) =>
  join(root, 'leases', createHash('sha256').update(dir).digest('hex').slice(0, 16) + '.json');

/**
 * Runs `fn` holding the host-wide lock (`<root>/lock`, holding the owner's pid). The lock is created with its content
 * in one step (a hard link of a written file), so nobody reads it half written; a lock whose owner died is broken
 * under a second lock (`lock.break`), so two waiters that both saw the dead owner cannot remove the lock one of them
 * took meanwhile.
 */
export async function withHostLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(join(root, 'leases'), { recursive: true, mode: 0o700 });
  const lock = join(root, 'lock');
  const token = `${process.pid} ${Math.random().toString(36).slice(2)}`;
  const mine = `${lock}.${process.pid}.${token.split(' ')[1]}`;
  await writeFile(mine, token, { mode: 0o600 });
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  try {
    for (;;) {
      try {
        await link(mine, lock);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const seen = await readFile(lock, 'utf8').catch(() => '');
        const owner = Number(seen.split(' ')[0]);
        if (owner > 0 && !alive(owner)) {
          await breakDeadLock(lock, seen, token);
          continue;
        }
        if (Date.now() > deadline)
          throw new LocalClusterError(
            'REGATTA_REAL_NODE_HOST_LOCK',
            `the real-node host lock ${lock} is held by pid ${owner} for more than ${LOCK_TIMEOUT_MS} ms`,
          );
        await sleep(20 + Math.random() * 30);
      }
    }
  } finally {
    await rm(mine, { force: true });
  }
  try {
    return await fn();
  } finally {
    if ((await readFile(lock, 'utf8').catch(() => '')) === token) await rm(lock, { force: true });
  }
}

/** How long a `lock.break` may stand before it is taken for one left by a process that died while breaking. */
const BREAK_STALE_MS = 5_000;

/** Removes `lock` if it still holds what was seen (a dead owner's token), holding `lock.break` while it looks. */
async function breakDeadLock(lock: string, seen: string, token: string): Promise<void> {
  const breaker = `${lock}.break`;
  try {
    await writeFile(breaker, token, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const since = await stat(breaker).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (since > BREAK_STALE_MS) await rm(breaker, { force: true });
    await sleep(10 + Math.random() * 20);
    return;
  }
  try {
    if ((await readFile(lock, 'utf8').catch(() => '')) === seen) await rm(lock, { force: true });
  } finally {
    await rm(breaker, { force: true });
  }
}

async function liveLeases(root: string, live: (l: HostLease) => boolean): Promise<Map<string, HostLease>> {
  const out = new Map<string, HostLease>();
  const dir = join(root, 'leases');
  for (const f of existsSync(dir) ? readdirSync(dir) : []) {
    const file = join(dir, f);
    const lease = JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) as HostLease | null;
    if (lease && live(lease)) out.set(file, lease);
    else await rm(file, { force: true });
  }
  return out;
}

/**
 * Takes the host lease of the real node in `dir`. The first lease on the host records the host as it is (returned,
 * and kept in `<root>/host.json`); later ones get that first record.
 */
export async function acquireHostShare(dir: string, o: HostShareOptions = {}): Promise<HostSnapshot> {
  const root = o.root ?? HOST_SHARE_ROOT;
  return withHostLock(root, async () => {
    const leases = await liveLeases(root, o.live ?? ((l) => leaseLive(l)));
    const hostFile = join(root, 'host.json');
    let host: HostSnapshot | undefined;
    if (leases.size > 0)
      host = JSON.parse(await readFile(hostFile, 'utf8').catch(() => 'null')) as HostSnapshot | undefined;
    if (!host) {
      host = (o.snapshot ?? readHostSnapshot)();
      await writeFile(hostFile, JSON.stringify(host) + '\n');
    }
    const lease: HostLease = { dir, takenAt: Date.now() };
    await writeFile(leaseFile(root, dir), JSON.stringify(lease) + '\n');
    return host;
  });
}

/**
 * Gives back the lease of the node in `dir`. When no other live lease is left, `restore` runs with the first node's
 * record, still under the lock (a node starting meanwhile waits, then finds the host as it was); returns whether it
 * ran. `fallback` is the record to restore from when there is none (a node set up before leases existed).
 */
export async function releaseHostShare(
  dir: string,
  restore: (host: HostSnapshot) => Promise<void>,
  o: HostShareOptions & { fallback?: HostSnapshot } = {},
): Promise<boolean> {
  const root = o.root ?? HOST_SHARE_ROOT;
  return withHostLock(root, async () => {
    await rm(leaseFile(root, dir), { force: true });
    const leases = await liveLeases(root, o.live ?? ((l) => leaseLive(l)));
    if (leases.size > 0) return false;
    const hostFile = join(root, 'host.json');
    const host =
      (JSON.parse(await readFile(hostFile, 'utf8').catch(() => 'null')) as HostSnapshot | null) ?? o.fallback;
    if (host) await restore(host);
    await rm(hostFile, { force: true });
    return true;
  });
}

/** The folders of the nodes holding a live lease on this host (diagnostics, tests). */
export async function hostShareHolders(o: HostShareOptions = {}): Promise<string[]> {
  const root = o.root ?? HOST_SHARE_ROOT;
  return withHostLock(root, async () =>
    [...(await liveLeases(root, o.live ?? ((l) => leaseLive(l)))).values()].map((l) => l.dir),
  );
}
