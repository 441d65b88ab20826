// Memory of running processes, from Linux /proc/<pid>/status.
import { readFileSync } from 'node:fs';
import type { LocalCluster } from '@regatta/local-cluster';

/** The cluster's own processes a benchmark accounts for, by the name its launch records give them. */
export const CONTROL_PLANE = ['kube-apiserver', 'etcd', 'nats-server'] as const;
export const CONTROLLERS = ['kube-scheduler', 'kube-controller-manager'] as const;

/** The pid of each named process the cluster started (-1 for one it did not start). */
export function clusterPids(cluster: LocalCluster, names: readonly string[]): Record<string, number> {
  return Object.fromEntries(
    names.map((n) => [n, cluster.processRecords.find((p) => p.name === n)?.pid ?? -1]),
  );
}

/** A size field of /proc/<pid>/status in bytes (VmRSS: resident now; VmHWM: peak since start); NaN once gone. */
export function procStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * From `/proc/<pid>/smaps_rollup`, bytes: `Pss` (each shared page divided among the processes mapping it) or
 * `Private` (Private_Clean + Private_Dirty: what the process alone holds, freed when it exits). RSS counts the pages
 * of the node binary that every agent shares once per agent; these two do not. NaN when unreadable.
 */
export function procSmapsBytes(pid: number, field: 'Pss' | 'Private'): number {
  try {
    const s = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (k: string) => Number(s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
    return (field === 'Pss' ? kb('Pss') : kb('Private_Clean') + kb('Private_Dirty')) * 1024;
  } catch {
    return NaN;
  }
}

/** Samples VmRSS of the processes every 250 ms; `end()` gives the largest sample of each. */
export function rssSampler(pids: Record<string, number>): { end(): Record<string, number> } {
  const peak: Record<string, number> = {};
  const sample = () => {
    for (const [n, pid] of Object.entries(pids)) {
      const b = procStatusBytes(pid, 'VmRSS');
      if (Number.isFinite(b) && !(b <= (peak[n] ?? 0))) peak[n] = b;
    }
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    end() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
