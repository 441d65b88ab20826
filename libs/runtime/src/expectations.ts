import { systemClock, type Clock } from './clock.js';

/** OpenKruise's expectation timeout (`--expectation-timeout`, 5 minutes). */
export const DEFAULT_EXPECTATION_TIMEOUT_MS = 5 * 60_000;

export type ScaleAction = 'create' | 'delete';

/** Object names a controller still waits to see created or deleted. */
export interface PendingScale {
  create: string[];
  delete: string[];
}

/** An object whose update the cache has not shown yet. */
export interface PendingUpdate {
  name: string;
  /** The minimum resourceVersion the cache must show. */
  resourceVersion: string;
}

export interface Satisfaction<P> {
  satisfied: boolean;
  /** How long the oldest pending expectation has been waiting (0 when satisfied). */
  unsatisfiedForMs: number;
  /** Time left before the pending expectations time out (0 when satisfied); a requeue delay. */
  remainingMs: number;
  pending: P;
}

/** Reported when an expectation was dropped because it waited longer than the timeout. */
export type ExpectationTimeout =
  | { kind: 'scale'; key: string; unsatisfiedForMs: number; pending: PendingScale }
  | { kind: 'update'; key: string; unsatisfiedForMs: number; pending: PendingUpdate[] };

export interface ExpectationsOptions {
  /** Default 5 minutes, as OpenKruise. */
  timeoutMs?: number;
  clock?: Clock;
  /** Called (synchronously, state already healed) for every expectation dropped by the timeout. */
  onTimeout?: (event: ExpectationTimeout) => void;
}

interface ScaleEntry {
  create: Set<string>;
  delete: Set<string>;
  since: number;
}

interface UpdateEntry {
  resourceVersion: string;
  since: number;
}

/** Parses a resourceVersion as the integer etcd gives; `undefined` when it is not one. */
function parseResourceVersion(rv: string): bigint | undefined {
  return /^\d+$/.test(rv) ? BigInt(rv) : undefined;
}

/** `a ≥ b` as resourceVersions; an unparseable `a` is never newer, an unparseable `b` is always older. */
function isAtLeast(a: string, b: string): boolean {
  const na = parseResourceVersion(a);
  if (na === undefined) return false;
  const nb = parseResourceVersion(b);
  return nb === undefined || na >= nb;
}

/**
 * What a controller expects its cache to show after its own writes (OpenKruise
 * `pkg/util/expectations`). The cache lags the API server: after creating or deleting
 * pods, or updating one, a controller records the expectation and does not decide again for that
 * workload until the cache shows the change — so it never double-creates or double-deletes.
 *
 * Keys are controller keys (`namespace/name` of the workload). Process-local and pure: time
 * comes from the injected clock; nothing here schedules anything.
 *
 * Every expectation times out. Unlike OpenKruise (which, without the
 * `ForceDeleteTimeoutExpectation` gate, leaves a leaked expectation in place and stops
 * reconciling the workload), a timed-out expectation is dropped and reported through
 * `onTimeout`, and the check reports satisfied: a lost watch event costs at most one timeout,
 * never a frozen workload.
 */
export class Expectations {
  readonly timeoutMs: number;
  readonly #clock: Clock;
  readonly #onTimeout: ((event: ExpectationTimeout) => void) | undefined;
  readonly #scale = new Map<string, ScaleEntry>();
  readonly #updates = new Map<string, Map<string, UpdateEntry>>();

  constructor(options: ExpectationsOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_EXPECTATION_TIMEOUT_MS;
    this.#clock = options.clock ?? systemClock;
    this.#onTimeout = options.onTimeout;
  }

  // ── scale: creates and deletes by object name ──────────────────────────────

  /** Records that `name` is being created/deleted for workload `key`. */
  expectScale(key: string, action: ScaleAction, name: string): void {
    let entry = this.#scale.get(key);
    if (!entry) {
      entry = { create: new Set(), delete: new Set(), since: this.#clock() };
      this.#scale.set(key, entry);
    }
    entry[action].add(name);
  }

  /**
   * The cache showed `name` created/deleted (or the write failed and will not happen): drops
   * the expectation, and the workload's entry once nothing is pending.
   */
  observeScale(key: string, action: ScaleAction, name: string): void {
    const entry = this.#scale.get(key);
    if (!entry) return;
    entry[action].delete(name);
    if (entry.create.size === 0 && entry.delete.size === 0) this.#scale.delete(key);
  }

  /** Whether every create/delete expected for `key` has been observed (or timed out). */
  satisfiedScale(key: string): Satisfaction<PendingScale> {
    const entry = this.#scale.get(key);
    if (!entry || (entry.create.size === 0 && entry.delete.size === 0)) {
      this.#scale.delete(key);
      return { satisfied: true, unsatisfiedForMs: 0, remainingMs: 0, pending: { create: [], delete: [] } };
    }
    const pending = { create: [...entry.create], delete: [...entry.delete] };
    const unsatisfiedForMs = Math.max(0, this.#clock() - entry.since);
    if (unsatisfiedForMs >= this.timeoutMs) {
      this.#scale.delete(key);
      this.#onTimeout?.({ kind: 'scale', key, unsatisfiedForMs, pending });
      return { satisfied: true, unsatisfiedForMs: 0, remainingMs: 0, pending: { create: [], delete: [] } };
    }
    return { satisfied: false, unsatisfiedForMs, remainingMs: this.timeoutMs - unsatisfiedForMs, pending };
  }

  /** Forgets everything expected for `key` (the workload was deleted). */
  deleteScale(key: string): void {
    this.#scale.delete(key);
  }

  // ── updates: the minimum resourceVersion per object ────────────────────────

  /**
   * Records that the cache must show object `name` at `resourceVersion` or newer (call it with
   * the object an update/patch returned). A newer version replaces an older one; the waiting
   * time keeps counting from the first expectation.
   */
  expectUpdated(key: string, name: string, resourceVersion: string): void {
    let objects = this.#updates.get(key);
    if (!objects) {
      objects = new Map();
      this.#updates.set(key, objects);
    }
    const existing = objects.get(name);
    if (!existing) {
      objects.set(name, { resourceVersion, since: this.#clock() });
    } else if (isAtLeast(resourceVersion, existing.resourceVersion)) {
      existing.resourceVersion = resourceVersion;
    }
  }

  /** The cache shows `name` at `resourceVersion`: drops the expectation once it is reached. */
  observeUpdated(key: string, name: string, resourceVersion: string): void {
    const objects = this.#updates.get(key);
    const entry = objects?.get(name);
    if (!objects || !entry || !isAtLeast(resourceVersion, entry.resourceVersion)) return;
    objects.delete(name);
    if (objects.size === 0) this.#updates.delete(key);
  }

  /**
   * Whether the cache has shown every update expected for `key`. Objects waiting longer than the
   * timeout are dropped (reported through `onTimeout`) and no longer hold the workload back.
   */
  isUpdatedSatisfied(key: string): Satisfaction<PendingUpdate[]> {
    const objects = this.#updates.get(key);
    if (!objects || objects.size === 0) {
      this.#updates.delete(key);
      return { satisfied: true, unsatisfiedForMs: 0, remainingMs: 0, pending: [] };
    }
    const now = this.#clock();
    const expired: PendingUpdate[] = [];
    let expiredFor = 0;
    const pending: PendingUpdate[] = [];
    let oldest = 0;
    for (const [name, entry] of objects) {
      const waited = Math.max(0, now - entry.since);
      if (waited >= this.timeoutMs) {
        expired.push({ name, resourceVersion: entry.resourceVersion });
        expiredFor = Math.max(expiredFor, waited);
        objects.delete(name);
      } else {
        pending.push({ name, resourceVersion: entry.resourceVersion });
        oldest = Math.max(oldest, waited);
      }
    }
    if (objects.size === 0) this.#updates.delete(key);
    if (expired.length > 0)
      this.#onTimeout?.({ kind: 'update', key, unsatisfiedForMs: expiredFor, pending: expired });
    if (pending.length === 0) return { satisfied: true, unsatisfiedForMs: 0, remainingMs: 0, pending };
    return { satisfied: false, unsatisfiedForMs: oldest, remainingMs: this.timeoutMs - oldest, pending };
  }

  /**
   * Checks the pending update expectations of `key` against what the cache holds now: `current(name)` gives the
   * cached resourceVersion, undefined when the object is gone. Needed because a write can come back over the bus
   * before its expectation was recorded (the change handler then saw nothing to observe).
   */
  observeUpdatedFrom(key: string, current: (name: string) => string | undefined): void {
    for (const name of [...(this.#updates.get(key)?.keys() ?? [])]) {
      const rv = current(name);
      if (rv === undefined) this.deleteUpdated(key, name);
      else this.observeUpdated(key, name, rv);
    }
  }

  /** Forgets the update expectation of one object (it was deleted), or of the whole workload. */
  deleteUpdated(key: string, name?: string): void {
    if (name === undefined) {
      this.#updates.delete(key);
      return;
    }
    const objects = this.#updates.get(key);
    objects?.delete(name);
    if (objects?.size === 0) this.#updates.delete(key);
  }
}
