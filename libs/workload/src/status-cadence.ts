/**
 * How often a workload's status is written (docs/adr/0050-workload-status-write-cadence.md).
 *
 * A reconcile runs on nearly every pod event, and each one that moves a counter (`readyReplicas`,
 * `updatedReplicas`, …) would be its own status write. OpenKruise's kruise-manager writes the same status from every
 * reconcile (`pkg/controller/cloneset/cloneset_status.go` `UpdateCloneSetStatus`), but its client's rate limit
 * batches the reconciles of a busy rollout. Here the batching is explicit, per workload:
 *
 * - a change users or other controllers wait on (`observedGeneration`, revisions, conditions, the collision count,
 *   anything that is not a counter) or one that reaches the settled state (the rollout or scale done) is written at
 *   once;
 * - a change users wait on within about a second, as the kind's `prompt` rule says (replicas, readiness or
 *   availability moving while no rollout is under way, docs/adr/0070-prompt-status-changes.md), is written at most
 *   once per {@link PROMPT_STATUS_WRITE_INTERVAL_MS};
 * - any other change only in counters (a rollout's progress) is written at most once per
 *   {@link STATUS_WRITE_INTERVAL_MS}; a deferred one asks for a requeue after the rest of the interval, and that
 *   reconcile computes and writes the latest status (level-based: nothing is lost, the last status of a burst is
 *   written at most one interval late).
 *
 * {@link decideStatusWrite} is the pure decision; {@link StatusCadence} keeps each workload's last write time.
 */

/** Least time between two counter-only status writes of one workload (ms; 1 s until ADR 0050's amendment). */
export const STATUS_WRITE_INTERVAL_MS = 2000;

/**
 * Least time between two status writes of one workload when the change is a prompt one (ms, ADR 0070): short enough
 * that the status shows a new pod count, readiness or availability within about a second of the pods (OpenKruise's
 * e2e specs give `status.replicas` 3 s, polled each second), long enough to merge a burst of pod events into one write.
 */
export const PROMPT_STATUS_WRITE_INTERVAL_MS = 500;

export type StatusWriteDecision =
  /** Nothing the controller owns changed. */
  | { action: 'unchanged' }
  /** urgent: at once; prompt: a prompt change, its interval gone; due: a counter change, the interval gone. */
  | { action: 'write'; why: 'urgent' | 'prompt' | 'due' }
  /** A counter-only change inside the interval: reconcile again after `afterMs` and write then. */
  | { action: 'defer'; afterMs: number };

/** What makes a status change urgent, per kind. */
export interface StatusCadenceRules<S> {
  /** Top-level status fields that are counters: a change only in these may wait for the interval. */
  counters: readonly string[];
  /** True when `next` is a state users wait for (every replica updated and ready, …): written at once. */
  settled: (next: S) => boolean;
  /**
   * True when a counter-only change is one users and tools wait on (ADR 0070: the pod count, readiness or
   * availability while no rollout is under way): written within {@link PROMPT_STATUS_WRITE_INTERVAL_MS}. Without
   * it every counter-only change waits for the full interval.
   */
  prompt?: (stored: Readonly<Record<string, unknown>>, next: S) => boolean;
}

/** The replica counts a CloneSet and an Advanced StatefulSet report: counters for the cadence. */
export const REPLICA_COUNTERS = [
  'replicas',
  'readyReplicas',
  'availableReplicas',
  'updatedReplicas',
  'updatedReadyReplicas',
  'updatedAvailableReplicas',
] as const;

export type ReplicaCounts = Record<(typeof REPLICA_COUNTERS)[number], number>;

/** The replica counts that say how many pods there are and how many serve (ADR 0070), not how far a rollout is. */
export const SCALE_COUNTERS = ['replicas', 'readyReplicas', 'availableReplicas'] as const;

/**
 * A rollout is under way: fewer pods are at the update revision than the partition lets through (capped at the pods
 * there are). Its pods going unready and ready again as they are updated is the rollout's progress.
 */
export function replicasRolling(n: ReplicaCounts, expectedUpdated: number): boolean {
  return n.updatedReplicas < Math.min(expectedUpdated, n.replicas);
}

/**
 * ADR 0070's prompt rule for kinds that report {@link REPLICA_COUNTERS}: the pod count, readiness or availability
 * changed, and no rollout is under way (a scale, pods turning ready or available after it, a pod lost or back).
 */
export function replicasChangedPromptly(
  stored: Readonly<Record<string, unknown>>,
  n: ReplicaCounts,
  expectedUpdated: number,
): boolean {
  if (replicasRolling(n, expectedUpdated)) return false;
  return SCALE_COUNTERS.some((k) => stored[k] !== n[k]);
}

/**
 * The rollout or scale is done: the spec's replicas exist, all ready and available, and at least `expectedUpdated`
 * of them (capped at the replicas) updated, all of those ready and available too.
 */
export function replicasSettled(n: ReplicaCounts, specReplicas: number, expectedUpdated: number): boolean {
  return (
    n.replicas === specReplicas &&
    n.readyReplicas === n.replicas &&
    n.availableReplicas === n.replicas &&
    n.updatedReadyReplicas === n.updatedReplicas &&
    n.updatedAvailableReplicas === n.updatedReplicas &&
    n.updatedReplicas >= Math.min(expectedUpdated, n.replicas)
  );
}

export interface StatusWriteFacts<S> {
  /** The stored status (as the cache, or this process' last write, shows it). */
  stored: unknown;
  next: S;
  /** Whether `next` differs from `stored` in a field the controller owns (the kind's comparison). */
  changed: boolean;
  /** When this process last wrote the workload's status (ms since the epoch); undefined: not in this process. */
  lastWriteMs: number | undefined;
  nowMs: number;
  intervalMs?: number;
  /** The prompt interval (ms; {@link PROMPT_STATUS_WRITE_INTERVAL_MS} unless told, never more than `intervalMs`). */
  promptIntervalMs?: number;
}

const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** True when `next` differs from `stored` in a field that is not one of `counters` (present on either side). */
export function changedBeyondCounters(stored: unknown, next: unknown, counters: readonly string[]): boolean {
  const s = asRecord(stored);
  const n = asRecord(next);
  const skip = new Set(counters);
  for (const k of new Set([...Object.keys(s), ...Object.keys(n)])) {
    if (!skip.has(k) && !same(s[k], n[k])) return true;
  }
  return false;
}

/** Write now, defer, or nothing to write. */
export function decideStatusWrite<S>(
  f: StatusWriteFacts<S>,
  rules: StatusCadenceRules<S>,
): StatusWriteDecision {
  if (!f.changed) return { action: 'unchanged' };
  if (f.stored === undefined || f.stored === null) return { action: 'write', why: 'urgent' };
  if (changedBeyondCounters(f.stored, f.next, rules.counters) || rules.settled(f.next))
    return { action: 'write', why: 'urgent' };
  const full = f.intervalMs ?? STATUS_WRITE_INTERVAL_MS;
  const prompt = rules.prompt?.(asRecord(f.stored), f.next) === true;
  const why = prompt ? 'prompt' : 'due';
  if (f.lastWriteMs === undefined) return { action: 'write', why };
  const interval = prompt ? Math.min(f.promptIntervalMs ?? PROMPT_STATUS_WRITE_INTERVAL_MS, full) : full;
  const elapsed = f.nowMs - f.lastWriteMs;
  // a clock that went back counts as a full interval gone, so a write is never held longer than one interval
  if (elapsed < 0 || elapsed >= interval) return { action: 'write', why };
  return { action: 'defer', afterMs: interval - elapsed };
}

/**
 * The last status write time of each workload a controller writes (one per controller process). Only workloads
 * written within the last interval matter; older entries are dropped as they are looked at, and `forget` drops a
 * deleted workload's.
 */
export class StatusCadence {
  readonly #lastWrite = new Map<string, number>();
  readonly intervalMs: number;
  readonly promptIntervalMs: number;

  constructor(intervalMs: number = STATUS_WRITE_INTERVAL_MS, promptIntervalMs?: number) {
    this.intervalMs = intervalMs;
    this.promptIntervalMs = Math.min(promptIntervalMs ?? PROMPT_STATUS_WRITE_INTERVAL_MS, intervalMs);
  }

  /** The key of a workload (namespace/name). */
  static keyOf(namespace: string | undefined, name: string | undefined): string {
    return `${namespace ?? ''}/${name ?? ''}`;
  }

  /** When `key`'s status was last written by this process, if within the interval before `nowMs`. */
  lastWrite(key: string, nowMs: number): number | undefined {
    const at = this.#lastWrite.get(key);
    if (at === undefined) return undefined;
    if (nowMs - at >= this.intervalMs || nowMs < at) {
      this.#lastWrite.delete(key);
      return undefined;
    }
    return at;
  }

  wrote(key: string, nowMs: number): void {
    this.#lastWrite.set(key, nowMs);
  }

  forget(key: string): void {
    this.#lastWrite.delete(key);
  }

  /** How many workloads are held (tests). */
  get size(): number {
    return this.#lastWrite.size;
  }
}
