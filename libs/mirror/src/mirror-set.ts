import { setTimeout as sleep } from 'node:timers/promises';
import { EventRecorder, type KubeClient } from '@regatta/kube';
import { readRegistrations, resourceId, watchRegistrations, type Bus } from '@regatta/bus';
import { kindsToMirror, planMirrors, type Refusal } from './admission.js';
import { DEFAULT_ALLOW_LIST, type AllowList } from './catalogue.js';
import { KindMirror, type MirrorStats, type SetAside } from './kind-mirror.js';

/** The first wait before the registrations watch is tried again at start, doubled up to the cap. */
const START_RETRY_MS = 200;
const START_RETRY_CAP_MS = 5_000;

/** What the mirror set logs (a pino logger fits). */
export interface MirrorLogger {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface MirrorSetOptions {
  onError: (err: unknown, kind: string) => void;
  onChange?: (running: string[]) => void;
  /** Receives one warning per object version set aside and per refused registration. */
  logger?: MirrorLogger;
  /** Which kinds each controller may have mirrored (the watcher's own configuration). */
  allow?: AllowList;
  /** HMAC key for Secrets' data; Secrets are refused without one. */
  secretHashKey?: string;
  relistIntervalMs?: number;
  /** How often registrations are re-read even without a change (expiry). Default 5 s. */
  resyncMs?: number;
  /** How long a kind's mirror may be behind before readiness fails. Default 30 s. */
  staleAfterMs?: number;
}

/**
 * The watcher's leader work: follows controllers' registrations on the bus and keeps exactly one
 * list+watch per needed kind running. What it mirrors is decided by its own allow-list and catalogue; a
 * registration only selects among them (docs/adr/0009).
 */
export class MirrorSet {
  private readonly mirrors = new Map<string, KindMirror>();
  private readonly lastNeeded = new Map<string, number>();
  /** refusals and invalid entries already reported, by registration key */
  private readonly reported = new Map<string, Set<string>>();
  private readonly refusedCounts: Record<string, number> = {};
  private readonly recorder: EventRecorder;
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private regWatch?: { stop(): void };

  constructor(
    private readonly client: KubeClient,
    private readonly bus: Bus,
    private readonly o: MirrorSetOptions,
  ) {
    this.recorder = new EventRecorder(client, {
      component: 'regatta-watcher',
      onError: (err, ev) => o.logger?.debug({ err, reason: ev.reason }, 'event not recorded'),
    });
  }

  /** Starts following the registrations; with `signal`, gives up retrying the start once it aborts. */
  async start(signal?: AbortSignal): Promise<void> {
    this.stopped = false;
    this.regWatch = await this.watchRegistrationsRetried(signal);
    if (this.stopped || signal?.aborted) return this.regWatch?.stop();
    this.timer = setInterval(() => this.resync(), this.o.resyncMs ?? 5000);
    this.resync();
    await this.busy;
  }

  /**
   * The registrations watch, tried again until it starts or the set is stopped: a nats-server that has just come
   * back answers JetStream requests with timeouts for a few seconds, and the running mirrors retry the same errors
   * (docs/reliability-findings-1-16.md finding 9: the watcher exited on them instead).
   */
  private async watchRegistrationsRetried(signal?: AbortSignal): Promise<{ stop(): void } | undefined> {
    for (let attempt = 0; !this.stopped && !signal?.aborted; attempt++) {
      try {
        return await watchRegistrations(this.bus, () => this.resync());
      } catch (err) {
        this.o.onError(err, 'registrations');
        const ms = Math.min(START_RETRY_MS * 2 ** attempt, START_RETRY_CAP_MS);
        await sleep(ms, undefined, signal ? { signal } : {}).catch(() => undefined); // aborted: the loop ends
      }
    }
    return undefined;
  }

  get running(): string[] {
    return [...this.mirrors.keys()];
  }

  stats(): Record<string, MirrorStats> {
    return Object.fromEntries(
      [...this.mirrors].map(([id, m]) => [id, { ...m.stats, skipped: { ...m.stats.skipped } }]),
    );
  }

  /** Registration entries and kinds refused so far, by reason (each distinct refusal counted once). */
  refused(): Record<string, number> {
    return { ...this.refusedCounts };
  }

  /** Throws when a running mirror is not keeping up with the API server (for `/readyz`). */
  assertKeepingUp(now = Date.now()): void {
    const behind = [...this.mirrors]
      .map(([id, m]) => [id, m.lagReason(now)] as const)
      .filter(([, why]) => why !== undefined)
      .map(([id, why]) => `${id}: ${why}`);
    if (behind.length > 0) throw new Error(`mirrors behind the API server: ${behind.join('; ')}`);
  }

  /** Serialised: one plan/apply at a time. */
  resync(): void {
    this.busy = this.busy
      .then(() => this.apply())
      .catch((err: unknown) => this.o.onError(err, 'registrations'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.regWatch?.stop();
    await this.busy;
    await Promise.all([...this.mirrors.values()].map((m) => m.stop()));
    this.mirrors.clear();
  }

  private async apply(): Promise<void> {
    if (this.stopped) return;
    const refusals: Refusal[] = [];
    const registrations = await readRegistrations(this.bus, {
      onInvalid: (registration, detail) => refusals.push({ registration, reason: 'invalid', detail }),
    });
    const now = Date.now();
    const { needed, refused } = kindsToMirror(registrations, {
      allow: this.o.allow ?? DEFAULT_ALLOW_LIST,
      secretHashKey: Boolean(this.o.secretHashKey),
      now,
    });
    this.report([...refusals, ...refused]);
    for (const id of needed.keys()) this.lastNeeded.set(id, now);
    const plan = planMirrors(this.mirrors.keys(), needed, { lastNeeded: this.lastNeeded, now });
    if (plan.start.length === 0 && plan.stop.length === 0) return;
    for (const id of plan.stop) {
      await this.mirrors.get(id)?.stop();
      this.mirrors.delete(id);
      this.lastNeeded.delete(id);
    }
    for (const k of plan.start) {
      this.mirrors.set(
        resourceId(k),
        await KindMirror.start(this.client, this.bus, k, {
          onError: this.o.onError,
          onSetAside: (s) => this.setAside(s),
          recorder: this.recorder,
          ...(this.o.secretHashKey ? { secretHashKey: this.o.secretHashKey } : {}),
          ...(this.o.relistIntervalMs ? { relistIntervalMs: this.o.relistIntervalMs } : {}),
          ...(this.o.staleAfterMs ? { staleAfterMs: this.o.staleAfterMs } : {}),
        }),
      );
    }
    this.o.onChange?.(this.running);
  }

  /** Logs and counts each distinct refusal once, for as long as its registration exists. */
  private report(refusals: Refusal[]): void {
    const live = new Set(refusals.map((r) => r.registration));
    for (const key of this.reported.keys()) if (!live.has(key)) this.reported.delete(key);
    for (const r of refusals) {
      const id = `${r.reason}|${r.resource ?? ''}|${r.detail ?? ''}`;
      let seen = this.reported.get(r.registration);
      if (!seen) this.reported.set(r.registration, (seen = new Set()));
      if (seen.has(id)) continue;
      seen.add(id);
      this.refusedCounts[r.reason] = (this.refusedCounts[r.reason] ?? 0) + 1;
      this.o.logger?.warn(r, 'registration refused: not mirrored');
    }
  }

  private setAside(s: SetAside): void {
    this.o.logger?.warn(
      { kind: s.kind, key: s.key, resourceVersion: s.resourceVersion, reason: s.reason, err: s.err },
      'object set aside: not mirrored',
    );
  }
}
