import {
  BucketResetError,
  KeyedPipeline,
  keyOf,
  MirrorWriter,
  ObjectTooLargeError,
  PUT_WINDOW,
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
  /**
   * How often the mirror checks that its bucket is still the one it filled (not deleted, or wiped with the bus's
   * store, and made again); a bucket reset is rebuilt by a new list. Default 5 s.
   */
  bucketCheckMs?: number;
}

/** Failed writes in a row after which the rest of a pass waits for the retry (the bus is down, not one object). */
const GIVE_UP_AFTER = 3;

/** Event reason on an object too large for the bus. */
export const REASON_TOO_LARGE = 'TooLargeForBus';

/** A write waiting for a retry: the object (null: delete) and when the watcher received it. */
interface PendingWrite {
  obj: KubeObject | null;
  receivedAt: number;
}

/**
 * One kind: list + watch from the API server into its mirror bucket. Every write concerns one object: an
 * object that cannot be mirrored is set aside (counted, reported once per version, a Warning event on it) and
 * a write that fails for another reason is retried, while the rest of the kind keeps flowing (docs/adr/0008).
 *
 * Writes are pipelined (docs/adr/0052): up to {@link PUT_WINDOW} in flight, one at a time and in event order per
 * object. Each envelope carries the time its event arrived from the API server, not the time of its put.
 */
export class KindMirror {
  readonly stats: MirrorStats = { lists: 0, puts: 0, deletes: 0, errors: 0, skipped: {} };
  private readonly progress: MirrorProgress = { startedAt: Date.now(), pending: 0 };
  /** key → the write whose last attempt failed */
  private readonly pending = new Map<string, PendingWrite>();
  /** key → resourceVersion set aside */
  private readonly setAside = new Map<string, string>();
  /**
   * Every write goes through it, queued behind the earlier writes of its object, so neither a retry nor a relist
   * overtakes a newer event of that object; writes of other objects proceed meanwhile. When it is full, the watch
   * stream waits.
   */
  private readonly pipeline = new KeyedPipeline(PUT_WINDOW);
  private failedInARow = 0;
  private retryQueued = false;
  /** A complete list is in the bucket but saying so (`MirrorWriter.markListed`) failed: the retry says it again. */
  private listedUnsaid = false;
  private lw?: ListWatcher;
  private retryTimer?: NodeJS.Timeout;
  private bucketTimer?: NodeJS.Timeout;
  private stopped = false;

  private constructor(
    readonly kind: KindRef,
    private readonly writer: MirrorWriter,
    private readonly o: KindMirrorOptions,
    private readonly client: KubeClient,
  ) {}

  static async start(client: KubeClient, bus: Bus, kind: KindRef, o: KindMirrorOptions): Promise<KindMirror> {
    const writer = await MirrorWriter.open(bus, kind, o.secretHashKey ? { secretHashKey: o.secretHashKey } : {});
    const m = new KindMirror(kind, writer, o, client);
    m.startListWatch();
    m.retryTimer = setInterval(() => {
      // one retry queued at a time, however long the bus keeps writes waiting
      if ((m.pending.size === 0 && !m.listedUnsaid) || m.retryQueued) return;
      m.retryQueued = true;
      void m
        .retry()
        .catch((err: unknown) => o.onError(err, resourceId(kind)))
        .finally(() => (m.retryQueued = false));
    }, o.retryMs ?? 2000);
    m.retryTimer.unref();
    let checking = false;
    m.bucketTimer = setInterval(() => {
      if (checking) return;
      checking = true;
      void m
        .rebuildIfReset()
        .catch((err: unknown) => o.onError(err, resourceId(kind)))
        .finally(() => (checking = false));
    }, o.bucketCheckMs ?? 5000);
    m.bucketTimer.unref();
    return m;
  }

  /**
   * When the bucket is gone or was made again (the bus lost its store), makes it again and fills it from a new list
   * of the API server, then says it is listed: caches that saw the reset resync from it (docs/operations.md).
   */
  private async rebuildIfReset(): Promise<void> {
    if (this.stopped || !(await this.writer.bucketReset())) return;
    this.o.onError(new BucketResetError(this.writer.bucket), resourceId(this.kind));
    await this.lw?.stop();
    await this.pipeline.idle();
    if (this.stopped) return;
    await this.writer.reopen();
    this.pending.clear();
    this.setAside.clear();
    this.listedUnsaid = false;
    delete this.progress.listedAt;
    this.notePending();
    if (!this.stopped) this.startListWatch();
  }

  private startListWatch(): void {
    const { client, kind, o } = this;
    this.lw = new ListWatcher(
      client,
      kind,
      {
        onList: (objects, _rv, receivedAt) => this.list(objects as KubeObject[], receivedAt),
        onUpsert: async (obj, receivedAt) => {
          await this.submit(keyOf(obj as KubeObject), () => this.upsert(obj as KubeObject, receivedAt));
        },
        onDelete: async (obj, receivedAt) => {
          const key = keyOf(obj as KubeObject);
          await this.submit(key, () => this.remove(key, receivedAt));
        },
        onError: (err, obj) => {
          this.stats.errors++;
          if (!obj) this.progress.failingSince ??= Date.now();
          o.onError(err, resourceId(kind));
        },
      },
      o.relistIntervalMs ? { relistIntervalMs: o.relistIntervalMs } : {},
    );
    this.lw.start();
  }

  /** Why this mirror is not keeping up with the API server, or undefined. */
  lagReason(now = Date.now()): string | undefined {
    return mirrorLagReason(this.progress, now, this.o.staleAfterMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.retryTimer);
    clearInterval(this.bucketTimer);
    await this.lw?.stop();
    await this.pipeline.idle();
  }

  /**
   * Queues `write` behind the earlier writes of `key`; resolves once it is admitted (at once unless
   * {@link PUT_WINDOW} writes are outstanding), not when it is done. The writes handle their own failures (pending,
   * set aside); anything else they throw is reported here, as the list/watch would have.
   */
  private async submit(key: string, write: () => Promise<void>): Promise<{ done: Promise<void> }> {
    const { done } = await this.pipeline.submit(key, write);
    return {
      done: done.catch((err: unknown) => {
        this.stats.errors++;
        this.o.onError(err, resourceId(this.kind));
      }),
    };
  }

  /** Writes one object, or, when the bus is failing (several writes in a row), leaves it for the retry. */
  private async upsertOrDefer(obj: KubeObject, key: string, receivedAt: number): Promise<void> {
    // decided when the write's turn comes, so it does not time out like the writes before it
    if (this.failedInARow >= GIVE_UP_AFTER) this.defer(key, { obj, receivedAt });
    else await this.upsert(obj, receivedAt);
  }

  private async removeOrDefer(key: string, receivedAt: number): Promise<void> {
    if (this.failedInARow >= GIVE_UP_AFTER) this.defer(key, { obj: null, receivedAt });
    else await this.remove(key, receivedAt);
  }

  private async list(objects: KubeObject[], receivedAt: number): Promise<void> {
    this.stats.lists++;
    this.failedInARow = 0;
    const live = new Set<string>();
    for (const obj of objects) {
      const key = keyOf(obj);
      live.add(key);
      await this.submit(key, () => this.upsertOrDefer(obj, key, receivedAt));
    }
    // every write before this point is done: the keys the bucket holds are known
    await this.pipeline.idle();
    for (const key of this.writer.keys()) {
      if (!live.has(key)) await this.submit(key, () => this.removeOrDefer(key, receivedAt));
    }
    await this.pipeline.idle();
    for (const key of [...this.pending.keys(), ...this.setAside.keys()]) {
      if (live.has(key)) continue;
      // a gone object's failed write is moot, but not its delete: the bucket still holds it
      if (this.pending.get(key)?.obj !== null) this.pending.delete(key);
      this.setAside.delete(key);
    }
    this.progress.listedAt = Date.now();
    delete this.progress.failingSince;
    this.notePending();
    await this.markListedIfComplete();
  }

  /**
   * Once a list's writes are all in the bucket (none left for the retry), says so in the bucket, so that caches
   * of it may sync (docs/adr/0057). Objects set aside as too large do not hold it back: they never will be there.
   */
  private async markListedIfComplete(): Promise<void> {
    if (this.progress.listedAt === undefined || this.pending.size > 0) return;
    try {
      await this.writer.markListed();
      this.listedUnsaid = false;
    } catch (err) {
      this.listedUnsaid = true;
      this.stats.errors++;
      this.o.onError(err, resourceId(this.kind));
    }
  }

  private async upsert(obj: KubeObject, receivedAt: number): Promise<void> {
    const key = keyOf(obj);
    const rv = obj.metadata?.resourceVersion ?? '';
    if (rv && this.setAside.get(key) === rv) return;
    try {
      if (await this.writer.put(obj, receivedAt)) this.stats.puts++;
      this.failedInARow = 0;
      this.pending.delete(key);
      this.setAside.delete(key);
    } catch (err) {
      if (err instanceof ObjectTooLargeError) {
        this.pending.delete(key);
        this.putAside(obj, key, rv, err);
      } else this.failed(key, { obj, receivedAt }, err);
    }
    this.notePending();
  }

  private async remove(key: string, receivedAt: number): Promise<void> {
    this.setAside.delete(key);
    try {
      await this.writer.delete(key);
      this.stats.deletes++;
      this.failedInARow = 0;
      this.pending.delete(key);
    } catch (err) {
      this.failed(key, { obj: null, receivedAt }, err);
    }
    this.notePending();
  }

  /**
   * Retries the failed writes one at a time, each queued behind its object's newer writes, if any: it writes what is
   * pending for the object when its turn comes (nothing if a newer write has succeeded meanwhile).
   */
  private async retry(): Promise<void> {
    this.failedInARow = 0;
    for (const key of [...this.pending.keys()]) {
      if (this.failedInARow >= GIVE_UP_AFTER) break;
      const { done } = await this.submit(key, () => this.retryOne(key));
      await done;
    }
    await this.markListedIfComplete();
  }

  private async retryOne(key: string): Promise<void> {
    const w = this.pending.get(key);
    if (!w) return;
    if (w.obj) await this.upsert(w.obj, w.receivedAt);
    else await this.remove(key, w.receivedAt);
  }

  private failed(key: string, w: PendingWrite, err: unknown): void {
    this.stats.errors++;
    this.failedInARow++;
    // reported when the object starts failing, not at every retry
    if (!this.pending.has(key)) this.o.onError(err, resourceId(this.kind));
    this.pending.set(key, w);
  }

  /** Leaves a write for the retry without trying it. */
  private defer(key: string, w: PendingWrite): void {
    this.pending.set(key, w);
    this.notePending();
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
