// The rollout benchmark's settings and what it measures (docs/benchmarks.md): the workload both sides
// roll out, and the result of each side.
import type { LocalCluster } from '@regatta/local-cluster';
import type { AuditWindow, WriteTally } from './rollout-audit.js';

export interface RolloutConfig {
  /** N: pods of the CloneSet and of the Deployment. */
  replicas: number;
  /** t: how long a restarted container (in place) or a new pod's containers take to be ready, ms. */
  restartMs: number;
}

export interface Ctx extends RolloutConfig {
  cluster: LocalCluster;
  /** The API server's audit log (the cluster was started with `auditLogPath`). */
  auditLog: string;
  logsDir: string;
  log: (line: string) => void;
}

export const MAX_UNAVAILABLE = '10%';
export const IMAGE_OLD = 'nginx:1.27.3';
export const IMAGE_NEW = 'nginx:1.27.4';
export const MAX_PODS_PER_NODE = 110;
/** Writes made this long after "done" are still counted (and shown apart): stragglers belong to the rollout. */
export const TAIL_MS = 5_000;

/** At most this many restarts of the watcher and the cloneset program together. */
export const MAX_RESTARTS = 5;

/** A Regatta program that exited while the benchmark ran, and was started again. */
export interface Restart {
  name: string;
  phase: string;
  atMs: number;
  code: number | null;
  reason: string;
}

/** What one side of the comparison measured. */
export interface PhaseResult {
  name: string;
  /** N pods from the workload's creation to all ready, s. */
  setupS: number;
  /** Image patch → the workload's status says done, s; undefined when it did not finish in time. */
  durationS: number | undefined;
  timeoutS: number;
  /** Image patch → the last pod seen new and Ready (the pods' own view), s. */
  podsDoneS: number | undefined;
  /** When each pod was first seen at the new image and Ready, s after the patch, ascending. */
  podDoneS: number[];
  /** The most pods unavailable (not Ready, or being deleted, or missing) at any event during the rollout. */
  maxUnavailable: number;
  /** The workload's status when done (or at the timeout). */
  finalStatus: string;
  /** Wall-clock window whose audited writes belong to the rollout: the patch → done + TAIL_MS. */
  window: AuditWindow;
  /** CPU seconds per process over patch → done. */
  cpuS: Record<string, number>;
  /** Largest VmRSS sampled every 250 ms over patch → done, bytes. */
  rssPeak: Record<string, number>;
  /** VmHWM (peak resident set since the process started) at the end of the rollout, bytes. */
  hwm: Record<string, number>;
  /** VmRSS before the workload was created (controllers started, caches synced, nothing to do), bytes. */
  idleRss: Record<string, number>;
  notes: string[];
}

export interface RolloutResult extends RolloutConfig {
  batch: number;
  boundS: number;
  nodes: number;
  cloneSet: PhaseResult;
  deployment: PhaseResult;
  /** Regatta programs that exited and were started again (none in a healthy run). */
  restarts: Restart[];
  /** client → tally, per phase, over the phase's window. */
  writes: { cloneSet: Map<string, WriteTally>; deployment: Map<string, WriteTally> };
}
