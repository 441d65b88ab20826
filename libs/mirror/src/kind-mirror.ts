import {
  keyOf,
  MirrorWriter,
  ObjectTooLargeError,
  resourceId,
  type Bus,
  type KindRef,
  type KubeObject,
} from '@regatta/bus';
import { ListWatcher, type EventRecorder, type KubeClient } from '@regatta/kube';
import { mirrorLagReason, type MirrorProgress } from './mirror-health.js';

export interface MirrorStats {
  lists: number;
  puts: number;
  deletes: number;
  errors: number;
  /** Object versions set aside for good, by reason (`too_large`). */
  skipped: Record<string, number>;
}

/** One object version the mirror could not write and will not retry. */
export interface SetAside {
  kind: string;
  key: string;
  resourceVersion: string;
  reason: 'too_large';
  err: unknown;
}

export interface KindMirrorOptions {
  /** List/watch trouble and write failures that are retried. */
  onError: (err: unknown, kind: string) => void;
  /** Called once per object version set aside. */
  onSetAside?: (s: SetAside) => void;
  /** Where a Warning event about an object set aside is recorded. */
  recorder?: Pick<EventRecorder, 'warning'>;
  relistIntervalMs?: number;
  secretHashKey?: string;
  /** How often failed writes are retried. Default 2 s. */
  retryMs?: number;
  /** How long the mirror may be behind before {@link KindMirror.lagReason} reports it. Default 30 s. */
  staleAfterMs?: number;
}

/** Failed writes in a row after which the rest of a pass waits for the retry (the bus is down, not one object). */
const GIVE_UP_AFTER = 3;

/** Event reason on an object too large for the bus. */
export const REASON_TOO_LARGE = 'TooLargeForBus';

/**
 * One kind: list + watch from the API server into its mirror bucket. Every write concerns one object: an
 * object that cannot be mirrored is set aside (counted, reported once per version, a Warning event on it) and
 * a write that fails for another reason is retried, while the rest of the kind keeps flowing (docs/adr/0008).
 */
export class KindMirror {
  readonly stats: MirrorStats = { lists: 0, puts: 0, deletes: 0, errors: 0, skipped: {} };
  private readonly progress: MirrorProgress = { startedAt: Date.now(), pending: 0 };
  /** key → the object to write (or null: delete) whose last write failed */
  private readonly pending = new Map<string, KubeObject | null>();
  /** key → resourceVersion set aside */
  private readonly setAside = new Map<string, string>();
  /** every write goes through this chain, so a retry never overtakes a newer event */
  private chain: Promise<void> = Promise.resolve();
  private failedInARow = 0;
  private retryQueued = false;
  private lw?: ListWatcher;
  private retryTimer?: NodeJS.Timeout;

  private constructor(
    readonly kind: KindRef,
    private readonly writer: MirrorWriter,
    private readonly o: KindMirrorOptions,
  ) {}

  static async start(client: KubeClient, bus: Bus, kind: KindRef, o: KindMirrorOptions): Promise<KindMirror> {
    const writer = await MirrorWriter.open(bus, kind, o.secretHashKey ? { secretHashKey: o.secretHashKey } : {});
    const m = new KindMirror(kind, writer, o);
    m.lw = new ListWatcher(
      client,
      kind,
      {
        onList: (objects) => m.serial(() => m.list(objects as KubeObject[])),
        onUpsert: (obj) => m.serial(() => m.upsert(obj as KubeObject)),
        onDelete: (obj) => m.serial(() => m.remove(keyOf(obj as KubeObject))),
        onError: (err, obj) => {
          m.stats.errors++;
          if (!obj) m.progress.failingSince ??= Date.now();
          o.onError(err, resourceId(kind));
        },
      },
      o.relistIntervalMs ? { relistIntervalMs: o.relistIntervalMs } : {},
    );
    m.lw.start();
    m.retryTimer = setInterval(() => {
      // one retry queued at a time, however long the bus keeps writes waiting
      if (m.pending.size === 0 || m.retryQueued) return;
      m.retryQueued = true;
      void m
        .serial(() => m.retry())
        .catch((err: unknown) => o.onError(err, resourceId(kind)))
        .finally(() => (m.retryQueued = false));
    }, o.retryMs ?? 2000);
    m.retryTimer.unref();
    return m;
  }

  /** Why this mirror is not keeping up with the API server, or undefined. */
  lagReason(now = Date.now()): string | undefined {
    return mirrorLagReason(this.progress, now, this.o.staleAfterMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.retryTimer);
    await this.lw?.stop();
    await this.chain;
  }

  /** Runs `fn` after every write queued before it; its failure is the caller's and never blocks the next. */
  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async list(objects: KubeObject[]): Promise<void> {
    this.stats.lists++;
    this.failedInARow = 0;
    const live = new Set<string>();
    for (const obj of objects) {
      const key = keyOf(obj);
      live.add(key);
      // the bus is failing (several writes in a row): the rest waits for the retry instead of timing out one by one
      if (this.failedInARow >= GIVE_UP_AFTER) this.pending.set(key, obj);
      else await this.upsert(obj);
    }
    for (const key of this.writer.keys()) {
      if (live.has(key)) continue;
      if (this.failedInARow >= GIVE_UP_AFTER) this.pending.set(key, null);
      else await this.remove(key);
    }
    for (const key of [...this.pending.keys(), ...this.setAside.keys()]) {
      if (!live.has(key)) {
        this.pending.delete(key);
        this.setAside.delete(key);
      }
    }
    this.progress.listedAt = Date.now();
    delete this.progress.failingSince;
    this.notePending();
  }

  private async upsert(obj: KubeObject): Promise<void> {
    const key = keyOf(obj);
    const rv = obj.metadata?.resourceVersion ?? '';
    if (rv && this.setAside.get(key) === rv) return;
    try {
      if (await this.writer.put(obj)) this.stats.puts++;
      this.failedInARow = 0;
      this.pending.delete(key);
      this.setAside.delete(key);
    } catch (err) {
      if (err instanceof ObjectTooLargeError) {
        this.pending.delete(key);
        this.putAside(obj, key, rv, err);
      } else this.failed(key, obj, err);
    }
    this.notePending();
  }

  private async remove(key: string): Promise<void> {
    this.setAside.delete(key);
    try {
      await this.writer.delete(key);
      this.stats.deletes++;
      this.failedInARow = 0;
      this.pending.delete(key);
    } catch (err) {
      this.failed(key, null, err);
    }
    this.notePending();
  }

  private async retry(): Promise<void> {
    this.failedInARow = 0;
    for (const [key, obj] of [...this.pending]) {
      if (this.failedInARow >= GIVE_UP_AFTER) break;
      if (obj) await this.upsert(obj);
      else await this.remove(key);
    }
  }

  private failed(key: string, obj: KubeObject | null, err: unknown): void {
    this.stats.errors++;
    this.failedInARow++;
    // reported when the object starts failing, not at every retry
    if (!this.pending.has(key)) this.o.onError(err, resourceId(this.kind));
    this.pending.set(key, obj);
  }

  private putAside(obj: KubeObject, key: string, rv: string, err: ObjectTooLargeError): void {
    this.setAside.set(key, rv);
    this.stats.skipped['too_large'] = (this.stats.skipped['too_large'] ?? 0) + 1;
    this.o.onSetAside?.({ kind: resourceId(this.kind), key, resourceVersion: rv, reason: 'too_large', err });
    const apiVersion = this.kind.group ? `${this.kind.group}/${this.kind.version}` : this.kind.version;
    void this.o.recorder?.warning(obj, REASON_TOO_LARGE, err.message, { apiVersion, kind: this.kind.kind });
  }

  private notePending(): void {
    this.progress.pending = this.pending.size;
    if (this.pending.size === 0) delete this.progress.pendingSince;
    else this.progress.pendingSince ??= Date.now();
  }
}
