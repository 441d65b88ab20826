// The rollout benchmarks' settings and what they measure (docs/benchmarks-rollouts.md): the workload both sides
// roll out, and the result of each side. One shape for every comparison (CloneSet vs Deployment,
// Advanced StatefulSet vs StatefulSet, Advanced DaemonSet vs DaemonSet).
import { CLONESET_UPDATE_STRATEGY_TYPES, type CloneSetUpdateStrategyType } from '@regatta/api';
import type { LocalCluster } from '@regatta/local-cluster';
import type { AuditWindow, WriteTally } from './rollout-audit.js';
import type { PeerOptions } from './peer-config.js';

export interface RolloutConfig {
  /** N: pods of each side's workload (for a DaemonSet: the nodes). */
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
  /** `--peer=kruise`: run the workload a third time with kruise-manager (peer-config.ts kruisePeerSide). */
  peer?: PeerOptions;
}

export const MAX_UNAVAILABLE = '10%';
export const IMAGE_OLD = 'nginx:1.27.3';
export const IMAGE_NEW = 'nginx:1.27.4';
/** The pod both sides run: one container, no probes, no resource requests. */
export function benchPodSpec(image: string, extra: Record<string, unknown> = {}) {
  return {
    ...extra,
    containers: [{ name: 'app', image, ports: [{ containerPort: 8080, protocol: 'TCP' }] }],
  };
}

export const MAX_PODS_PER_NODE = 110;
/** Writes made this long after "done" are still counted (and shown apart): stragglers belong to the rollout. */
export const TAIL_MS = 5_000;

/** At most this many restarts of the watcher and the controller program together. */
export const MAX_RESTARTS = 5;

/** A goal for writes per pod: at most this many, or at most the native side's in the same run. */
export type WritesGoal = number | 'native';

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
  /** Short name (`CloneSet`), and the column header (`CloneSet InPlaceIfPossible`, `CloneSet ReCreate`). */
  name: string;
  label: string;
  /** Pods this side's budget lets it update at once, and its own bound on the duration, s. */
  batch: number;
  boundS: number;
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
  /** VmRSS with the N pods ready and settled, just before the patch, bytes (− idle, ÷ N: what a pod costs). */
  loadedRss?: Record<string, number>;
  /** WATCH requests the API server held with the N pods ready, just before the patch (every client's, the
   * benchmark's follower of the workload included), and after the side's controllers stopped (follower closed). */
  apiWatches?: number;
  apiWatchesWithout?: number;
  notes: string[];
}

export interface RolloutResult extends RolloutConfig {
  /** The report's first line: what was rolled out, how, and the bounds. */
  title: string;
  nodes: number;
  /** The Regatta controller's process name and user agent (`regatta-cloneset`). */
  controller: string;
  /** Regatta's side, and the native baseline measured in the same run. */
  regatta: PhaseResult;
  native: PhaseResult;
  /** The goal for the controller's pod writes per pod, if it sets one: a number, or `native` for "at most
   * the native controller's, measured in the same run" (a CloneSet recreate against the Deployment's). */
  writesGoalPerPod?: WritesGoal;
  /** Regatta programs that exited and were started again (none in a healthy run). */
  restarts: Restart[];
  /** client → tally, per side, over the side's window. */
  writes: {
    regatta: Map<string, WriteTally>;
    native: Map<string, WriteTally>;
    peer?: Map<string, WriteTally>;
  };
  /** `--peer=kruise`: the same workload with kruise-manager as its controller, at client limits qps/burst. */
  peer?: { phase: PhaseResult; qps: number; burst: number; version: string; readyS: number };
}

/** ceil(N / batch) · t in seconds: the rollout's duration if each batch took exactly t and nothing else. */
export function rolloutBoundS(replicas: number, batch: number, restartMs: number): number {
  return (Math.ceil(replicas / Math.max(1, batch)) * restartMs) / 1000;
}

/**
 * A `maxUnavailable` of N pods as an absolute batch (at least 1): an int as is, a percentage rounded down
 * (CloneSet, StatefulSet; `roundUp` for a DaemonSet, whose controller rounds percentages up).
 */
export function batchOf(maxUnavailable: number | string, replicas: number, roundUp = false): number {
  if (typeof maxUnavailable === 'number') return Math.max(1, maxUnavailable);
  const pct = Number(maxUnavailable.replace(/%$/, ''));
  const x = (pct * replicas) / 100;
  return Math.max(1, roundUp ? Math.ceil(x) : Math.floor(x));
}

/**
 * How long the API server's WATCH count must hold still before a side's workload is created: kube-controller-manager's
 * garbage collector and quota monitor find CRDs (Regatta's, then kruise-manager's) by polling discovery every 30 s
 * (upstream kubernetes pkg/controller/garbagecollector, resourcequota) and open a watch per new resource then, which
 * would otherwise land between a side's two watch samples (pods ready; controllers stopped) and count against it.
 */
export const WATCHES_QUIET_MS = 35_000;

/**
 * Samples `[ms, WATCH count]`, oldest first → the count has held still for `quietMs`: every sample from the last one
 * taken at least `quietMs` before the newest on shows the newest's count.
 */
export function watchesSettled(samples: readonly (readonly [number, number])[], quietMs: number): boolean {
  const last = samples[samples.length - 1];
  if (!last) return false;
  let start = -1;
  samples.forEach(([t], i) => {
    if (t <= last[0] - quietMs) start = i;
  });
  return start >= 0 && samples.slice(start).every(([, c]) => c === last[1]);
}

export class RolloutArgsError extends Error {
  readonly code = 'BENCH_ROLLOUT_ARGS';
  constructor(message: string) {
    super(message);
    this.name = 'RolloutArgsError';
  }
}

/** The flag benchmark 4 reads for its CloneSet's `updateStrategy.type` (main.ts accepts it besides its own). */
export const isRolloutTypeArg = (a: string): boolean => a.startsWith('--rollout-type=');

/**
 * `--rollout-type=T` → the CloneSet update strategy type benchmark 4 rolls out with: one of OpenKruise's (upstream
 * apis/apps/v1alpha1/cloneset_types.go: ReCreate, InPlaceIfPossible, InPlaceOnly), InPlaceIfPossible without the flag.
 */
export function parseRolloutType(args: readonly string[]): CloneSetUpdateStrategyType {
  const hits = args.filter(isRolloutTypeArg);
  if (hits.length > 1) throw new RolloutArgsError(`--rollout-type given ${hits.length} times`);
  const v = hits[0]?.slice('--rollout-type='.length);
  if (v === undefined) return 'InPlaceIfPossible';
  const type = CLONESET_UPDATE_STRATEGY_TYPES.find((t) => t === v);
  if (!type)
    throw new RolloutArgsError(
      `--rollout-type wants one of ${CLONESET_UPDATE_STRATEGY_TYPES.join(', ')}, got ${v}`,
    );
  return type;
}

/** How benchmark 4's CloneSet side rolls out with `type`, in the report's words, and the writes goal it has. */
export interface CloneSetRollout {
  type: CloneSetUpdateStrategyType;
  /** The side's column header. */
  label: string;
  /** `in place` or `recreate`, for the section's title (`CloneSet recreate vs Deployment`). */
  how: 'in place' | 'recreate';
  /** What t is, for the title: a container restarted in place (CloneSet) or a new pod's start (both sides). */
  t: string;
  /** Issue 17: an in-place update at most 2 pod writes a pod; a recreate what the ReplicaSet controller's costs. */
  writesGoalPerPod: WritesGoal;
}

export function cloneSetRollout(type: CloneSetUpdateStrategyType): CloneSetRollout {
  const inPlace = type !== 'ReCreate';
  return {
    type,
    label: `CloneSet ${type}`,
    how: inPlace ? 'in place' : 'recreate',
    t: inPlace
      ? "a container to be ready after an in-place restart (CloneSet) or a new pod's start (Deployment)"
      : "a new pod's start (both sides recreate their pods)",
    writesGoalPerPod: inPlace ? 2 : 'native',
  };
}
