import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sleep, systemClock, type Clock } from './clock.js';
import { AlreadyStartedError, InvalidOptionsError } from './errors.js';
import {
  decide,
  errorStatus,
  nextLease,
  observeLease,
  releasedLease,
  type Lease,
  type LeaseStore,
  type ObservedLease,
} from './lease.js';
import { silentLogger, type Logger } from './logger.js';
import { startLoopDelay, type LoopDelay } from './loop-delay.js';

/** client-go's jitter factor on the acquire retry period (and the timing rule's 1.2). */
const JITTER_FACTOR = 1.2;

export interface LeaderElectionCallbacks {
  /** This process became the leader; `signal` aborts when it stops leading (lost or stopping). */
  onStartedLeading?(signal: AbortSignal): void;
  /** This process stopped leading: the lease was lost, or the elector was stopped. */
  onStoppedLeading?(): void;
  /** The observed leader changed (including to this process). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionOptions {
  store: LeaseStore;
  /** Namespace and name of the Lease. */
  namespace: string;
  name: string;
  /** Unique per process. Default: `<hostname>_<uuid>`, as controller-runtime. */
  identity?: string;
  /** Default 15 s. */
  leaseDurationMs?: number;
  /** How long the leader keeps retrying a failed renewal before giving up. Default 10 s. */
  renewDeadlineMs?: number;
  /** Between attempts. Default 2 s. */
  retryPeriodMs?: number;
  /** Give the lease up when stopped, so a standby takes over at once. Default true. */
  releaseOnCancel?: boolean;
  callbacks?: LeaderElectionCallbacks;
  logger?: Logger;
  clock?: Clock;
  /** Random source for the acquire jitter, in [0, 1). */
  random?: () => number;
}

/** One renew round's timing: how late its timer fired, its attempts and how long the last one took (ms). */
interface RenewRound {
  timerLateMs: number;
  attempts: number;
  lastAttemptMs: number;
}

/** How `run` ended. */
export type LeaderElectionEnd = 'stopped' | 'lost';

interface Timings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's rule: lease duration > renew deadline > 1.2 × retry period, all positive. */
export function validateLeaderElectionTimings(t: Timings): void {
  const what = 'leader election timings';
  if (!(t.leaseDurationMs > 0 && t.renewDeadlineMs > 0 && t.retryPeriodMs > 0)) {
    throw new InvalidOptionsError(
      what,
      'lease duration, renew deadline and retry period must all be positive',
    );
  }
  if (!(t.leaseDurationMs > t.renewDeadlineMs)) {
    throw new InvalidOptionsError(
      what,
      `lease duration (${t.leaseDurationMs} ms) must be greater than the renew deadline (${t.renewDeadlineMs} ms)`,
    );
  }
  if (!(t.renewDeadlineMs > JITTER_FACTOR * t.retryPeriodMs)) {
    throw new InvalidOptionsError(
      what,
      `renew deadline (${t.renewDeadlineMs} ms) must be greater than ${JITTER_FACTOR} × retry period (${t.retryPeriodMs} ms)`,
    );
  }
}

export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease (client-go `leaderelection` semantics):
 * try to acquire every retry period (with jitter) until the lease is free or expired; as leader,
 * renew every retry period, and give up leadership when no renewal succeeds within the renew
 * deadline or someone else holds the lease. Writes use the lease's resourceVersion, so two
 * candidates never both win. On stop the lease is released.
 */
export class LeaderElector {
  readonly identity: string;
  readonly #store: LeaseStore;
  readonly #target: { namespace: string; name: string };
  readonly #timings: Timings;
  readonly #release: boolean;
  readonly #callbacks: LeaderElectionCallbacks;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #random: () => number;
  #observed: ObservedLease | undefined;
  /** The lease as this leader's last write returned it: the next renewal replaces it without reading first. */
  #held: Lease | undefined;
  #reportedLeader: string | undefined;
  #leading = false;
  #started = false;
  /** When the last successful acquire or renewal was sent (this elector's clock); undefined before it first led. */
  #renewedAt: number | undefined;

  constructor(options: LeaderElectionOptions) {
    this.#timings = {
      leaseDurationMs: options.leaseDurationMs ?? 15_000,
      renewDeadlineMs: options.renewDeadlineMs ?? 10_000,
      retryPeriodMs: options.retryPeriodMs ?? 2_000,
    };
    validateLeaderElectionTimings(this.#timings);
    this.identity = options.identity ?? defaultIdentity();
    if (this.identity === '') throw new InvalidOptionsError('leader election', 'identity must not be empty');
    this.#store = options.store;
    this.#target = { namespace: options.namespace, name: options.name };
    this.#release = options.releaseOnCancel ?? true;
    this.#callbacks = options.callbacks ?? {};
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#log = (options.logger ?? silentLogger).child({
      lease: `${options.namespace}/${options.name}`,
      identity: this.identity,
    });
  }

  get leaseName(): string {
    return `${this.#target.namespace}/${this.#target.name}`;
  }

  isLeader(): boolean {
    return this.#leading;
  }

  /**
   * Whether this process may write now (a fence against acting as a "zombie" leader): always when it has never led
   * (a standby's own writes are not the leader's), and, once it has led, only while it still leads and its last
   * renewal was sent less than the renew deadline ago — a lease the others may think expired is never acted on. After a
   * pause (SIGSTOP, a blocked event loop) this is false until the renew loop has renewed the lease as last written,
   * and stays false once leadership is lost. A renewal is sent every retry period, so a live leader never sees false.
   */
  mayWrite(): boolean {
    if (this.#renewedAt === undefined) return true;
    return this.#leading && this.#clock() - this.#renewedAt < this.#timings.renewDeadlineMs;
  }

  /** The holder last observed, if any. */
  getLeader(): string | undefined {
    return this.#reportedLeader;
  }

  /**
   * Campaigns until `signal` aborts. Resolves `'stopped'` when stopped (after releasing the
   * lease if it was held), or `'lost'` when leadership was lost; either way `onStoppedLeading`
   * has run if `onStartedLeading` did. Store errors are logged and retried, never thrown.
   */
  async run(signal: AbortSignal): Promise<LeaderElectionEnd> {
    if (this.#started) throw new AlreadyStartedError(`leader elector for ${this.leaseName}`);
    this.#started = true;
    this.#log.info('attempting to acquire the leader lease');
    if (!(await this.#acquire(signal))) return 'stopped';
    this.#leading = true;
    this.#log.info('acquired the leader lease');
    const leadership = new AbortController();
    try {
      this.#callbacks.onStartedLeading?.(leadership.signal);
      const end = await this.#renewLoop(signal);
      return end;
    } finally {
      this.#leading = false;
      this.#held = undefined;
      leadership.abort();
      if (signal.aborted && this.#release) await this.#releaseLease();
      this.#callbacks.onStoppedLeading?.();
    }
  }

  async #acquire(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal.aborted) return false;
      const sent = this.#clock();
      if ((await this.#tryAcquireOrRenew()) === 'ok') {
        this.#renewedAt = sent;
        return true;
      }
      const wait = this.#timings.retryPeriodMs * (1 + this.#random() * JITTER_FACTOR);
      if (!(await sleep(wait, signal))) return false;
    }
  }

  async #renewLoop(signal: AbortSignal): Promise<LeaderElectionEnd> {
    const loop = startLoopDelay();
    try {
      return await this.#renewRounds(signal, loop);
    } finally {
      loop.stop();
    }
  }

  async #renewRounds(signal: AbortSignal, loop: LoopDelay): Promise<LeaderElectionEnd> {
    const { retryPeriodMs, renewDeadlineMs } = this.#timings;
    let lastRenew = this.#clock();
    for (;;) {
      const sleptAt = this.#clock();
      loop.reset();
      if (!(await sleep(retryPeriodMs, signal))) return 'stopped';
      const round: RenewRound = {
        timerLateMs: this.#clock() - sleptAt - retryPeriodMs,
        attempts: 0,
        lastAttemptMs: 0,
      };
      /** Where the round's time went, logged with a late renewal or a loss (docs/reliability-findings-1-16.md finding 4). */
      const timing = () => ({
        sinceRenewMs: Math.round(this.#clock() - lastRenew),
        timerLateMs: Math.round(round.timerLateMs),
        attempts: round.attempts,
        lastAttemptMs: Math.round(round.lastAttemptMs),
        loopDelayMaxMs: Math.round(loop.maxMs()),
      });
      const deadline = lastRenew + renewDeadlineMs;
      // the round starts past its deadline: the process was paused (SIGSTOP, a long block of its event loop)
      if (this.#clock() >= deadline) {
        if (await this.#renewAfterPause(deadline, timing)) {
          lastRenew = this.#clock();
          continue;
        }
        return 'lost';
      }
      for (;;) {
        const remaining = deadline - this.#clock();
        const sent = this.#clock();
        // an attempt still pending at the deadline counts as failed (it may finish in the background)
        const outcome =
          remaining > 0 ? await withDeadline(this.#tryAcquireOrRenew(), remaining, 'failed') : 'failed';
        round.attempts++;
        round.lastAttemptMs = this.#clock() - sent;
        if (outcome === 'ok') {
          this.#renewedAt = sent;
          // half the renew deadline gone: not lost, but worth a line that says why (the loop, or the answer)
          if (this.#clock() - lastRenew > renewDeadlineMs / 2)
            this.#log.warn(timing(), 'leader lease renewed late');
          lastRenew = this.#clock();
          break;
        }
        if (outcome === 'taken') {
          this.#log.warn(
            { holder: this.#reportedLeader },
            'leader lease taken by another candidate; leadership lost',
          );
          return 'lost';
        }
        if (signal.aborted) return 'stopped';
        if (this.#clock() + retryPeriodMs >= deadline) {
          this.#log.error(
            { renewDeadlineMs, ...timing() },
            'failed to renew the leader lease within the renew deadline; leadership lost',
          );
          return 'lost';
        }
        if (!(await sleep(retryPeriodMs, signal))) return 'stopped';
      }
    }
  }

  /**
   * After a pause past the renew deadline, one renewal guarded by the version this elector last wrote: it succeeds
   * only if nobody wrote the lease meanwhile, so nobody else can have led, and leadership goes on where client-go's
   * elector (whose renew deadline starts at each round) would go on too. Otherwise leadership is lost.
   */
  async #renewAfterPause(deadline: number, timing: () => object): Promise<boolean> {
    const late = this.#clock() - deadline;
    const sent = this.#clock();
    const held = this.#held;
    const renewed =
      held !== undefined && (await withDeadline(this.#renewHeld(held), this.#timings.renewDeadlineMs, false));
    if (renewed) this.#renewedAt = sent;
    if (renewed)
      this.#log.warn(
        { lateMs: late, ...timing() },
        'renewed the leader lease after a pause past the renew deadline',
      );
    else
      this.#log.error(
        { lateMs: late, renewDeadlineMs: this.#timings.renewDeadlineMs, ...timing() },
        'paused past the renew deadline, and the leader lease could not be renewed as last written (written meanwhile, or no answer); leadership lost',
      );
    return renewed;
  }

  /** One attempt: `ok` (we hold the lease now), `taken` (someone else holds a live one) or `failed`. */
  async #tryAcquireOrRenew(): Promise<'ok' | 'failed' | 'taken'> {
    if (this.#leading && this.#held && (await this.#renewHeld(this.#held))) return 'ok';
    const { namespace, name } = this.#target;
    let current: Lease | undefined;
    try {
      current = await this.#store.get(namespace, name);
    } catch (err) {
      if (errorStatus(err) !== 404) {
        this.#log.warn({ err }, 'reading the leader lease failed');
        return 'failed';
      }
    }
    const now = this.#clock();
    if (current) {
      this.#observed = observeLease(this.#observed, current, now);
      this.#reportLeader(current.spec?.holderIdentity ?? '');
    } else {
      this.#observed = undefined;
    }
    const decision = decide(this.#observed, this.identity, now, this.#timings);
    if (decision === 'wait') return 'taken';
    const desired = nextLease(current, this.#target, this.identity, decision, now, this.#timings);
    try {
      const written = current ? await this.#store.update(desired) : await this.#store.create(desired);
      this.#observed = observeLease(this.#observed, written, this.#clock());
      this.#held = written;
      this.#reportLeader(this.identity);
      return 'ok';
    } catch (err) {
      const status = errorStatus(err);
      if (status === 409) this.#log.debug('leader lease changed while writing it (conflict); retrying');
      else
        this.#log.warn(
          { err },
          current ? 'updating the leader lease failed' : 'creating the leader lease failed',
        );
      return 'failed';
    }
  }

  /**
   * A renewal in one round trip, as client-go's optimistic renew: the lease this leader last wrote, replaced with a
   * new renewTime. Its resourceVersion guards it, so it succeeds only if nobody wrote the lease since; otherwise
   * (409, or any failure) the caller reads the lease and decides as on any attempt. Under load this halves what a
   * renewal waits for (a machine starved by other work cost the old read-then-write ~2 s per renewal).
   */
  async #renewHeld(held: Lease): Promise<boolean> {
    const desired = nextLease(held, this.#target, this.identity, 'renew', this.#clock(), this.#timings);
    try {
      const written = await this.#store.update(desired);
      this.#observed = observeLease(this.#observed, written, this.#clock());
      this.#held = written;
      return true;
    } catch (err) {
      this.#held = undefined;
      this.#log.debug({ err }, 'renewing the leader lease without reading it failed; reading it');
      return false;
    }
  }

  async #releaseLease(): Promise<void> {
    const { namespace, name } = this.#target;
    try {
      const current = await this.#store.get(namespace, name);
      if ((current.spec?.holderIdentity ?? '') !== this.identity) return;
      await this.#store.update(releasedLease(current, this.#clock()));
      this.#log.info('released the leader lease');
    } catch (err) {
      this.#log.warn({ err }, 'releasing the leader lease failed; it expires after the lease duration');
    }
  }

  #reportLeader(holder: string): void {
    if (holder === '' || holder === this.#reportedLeader) return;
    this.#reportedLeader = holder;
    if (holder !== this.identity) this.#log.info({ leader: holder }, 'new leader observed');
    this.#callbacks.onNewLeader?.(holder);
  }
}

/**
 * `promise`'s value, or `late` if it has not settled within `ms`. An answer already received when the deadline passes
 * still counts: when the event loop was held past the deadline (a long synchronous stretch), its timer fires before
 * the loop reads the answer that arrived meanwhile, so the deadline gives way for one turn of the loop (timers run
 * before I/O, `setImmediate` after it). A guarded renewal that succeeded proves nobody wrote the lease since this
 * leader's last write, so accepting it is as safe as any renewal (docs/reliability-findings-1-16.md finding 4).
 */
function withDeadline<T, L>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const timeout = new Promise<L>((resolve) => {
    timer = setTimeout(() => {
      immediate = setImmediate(() => resolve(late));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  });
}
