import type { KV, KvWatchEntry } from '@nats-io/kv';
import { bucketWatchFailure, guardWatch, openMirrorBucket } from './bucket.js';
import { BucketResetError } from './errors.js';
import type { Bus } from './connection.js';
import { decodeEnvelope } from './envelope.js';
import { SetAsideKeys, type SetAsideEntry } from './set-aside.js';
import type { Change, KubeObject } from '@regatta/kube';
import { LISTED_KEY, bucketName, objectKey, type KindRef } from './kinds.js';

/** The workspace's one change-event shape (`@regatta/kube`), emitted by every cache. */
export type { Change, ChangeType } from '@regatta/kube';

export type ChangeHandler<T extends KubeObject> = (change: Change<T>) => void;

/** Computes index values of an object (e.g. the UIDs of its owners). */
export type IndexFunc<T extends KubeObject> = (obj: T) => string[];

export interface CacheOptions {
  /** Where to report handler failures and watch restarts. */
  onError?: (err: unknown) => void;
  /** Delay before re-watching after the watch ended (bus trouble). Default 500 ms. */
  rewatchDelayMs?: number;
  /**
   * Which objects this controller keeps (default: all). One that is not kept is absent from the cache; one that
   * stops being kept is removed with a delete event, one that starts being kept arrives as an add. Memory for the
   * objects a controller never reads (a CloneSet controller and the pods of Deployments, say).
   */
  keep?: (obj: KubeObject) => boolean;
  /**
   * Applied to each kept object before it is stored and before handlers see it (client-go's `SetTransform`): a
   * `projection` to the fields the program reads (docs/adr/0060-pod-projection.md). It receives the decoded
   * object, which nothing else holds, and may return it changed or a new one.
   */
  transform?: (obj: KubeObject) => KubeObject;
  /**
   * Told once per key and revision when a bucket entry cannot be applied (not an envelope, or an object the keep,
   * transform or index functions cannot read): the entry is set aside, the key keeps its last good object, and the
   * rest of the kind goes on (docs/adr/0068-a-bad-bus-entry-is-set-aside.md).
   */
  onSetAside?: (entry: SetAsideEntry) => void;
  /** How often a watch checks that its bucket was not reset (deleted and made again) and its watch moves. Default 2 s. */
  resetCheckMs?: number;
}

/** What a cache knows of the bucket it follows. */
export interface BucketFollowed {
  /** Its stream's creation time when last opened (undefined before the first). */
  created: string | undefined;
  /** The highest revision (stream sequence) applied from it. */
  revision: number;
}

/**
 * Whether the bucket is not the one a cache followed: made again since (another creation time), or its sequence
 * went backwards (a store restored from an older copy). A reset bucket is being filled again from a new list.
 */
export function bucketWasReset(
  followed: BucketFollowed,
  stream: { created: string; state: { last_seq: number } },
): boolean {
  if (followed.created === undefined) return false;
  return stream.created !== followed.created || stream.state.last_seq < followed.revision;
}

/** An entry's index values, by index name, computed before the entry is stored. */
type IndexValues = readonly (readonly [string, string[]])[];

/** What an entry is once read: an object to store, one the cache does not keep, or the version it holds. */
type EntryRead<T> = { object: T; observedAt: number; indexValues: IndexValues } | 'not-kept' | 'unchanged';

/** Built-in indexes. */
export const INDEX_NAMESPACE = 'namespace';
export const INDEX_OWNER_UID = 'ownerUid';
export const INDEX_NODE_NAME = 'nodeName';

/**
 * A controller's local copy of one kind, built from its mirror bucket: initial values then live
 * changes, exactly an informer's list + watch. Reads never leave the process. After any interruption
 * it re-reads the whole bucket and turns keys that disappeared meanwhile into delete events.
 */
export class Cache<T extends KubeObject = KubeObject> {
  private readonly objects = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  private readonly handlers: ChangeHandler<T>[] = [];
  private kv?: KV;
  private stopped = false;
  private synced = false;
  /** The bucket's initial values were read (once), and it says the watcher listed the kind ({@link LISTED_KEY}). */
  private initialRead = false;
  private listed = false;
  /** The current watch has read the bucket's contents and is following it (false while re-watching). */
  private following = false;
  private readonly setAside = new SetAsideKeys();
  /** The bucket this cache follows: its stream's creation time and the highest revision applied from it. */
  private readonly followed: BucketFollowed = { created: undefined, revision: 0 };
  /**
   * Keys put since the bucket was reset (deleted and made again, or its sequence went backwards), while the watcher
   * fills it again; undefined when not resetting. The cache is not in sync until the new bucket says it is listed.
   */
  private resetSeen?: Set<string>;
  private readonly syncWaiters: (() => void)[] = [];
  private currentWatch?: { stop(): void; getPending(): number };
  private loop?: Promise<void>;

  constructor(
    private readonly bus: Bus,
    readonly kind: KindRef,
    private readonly options: CacheOptions = {},
  ) {
    this.addIndex(INDEX_NAMESPACE, (o) => (o.metadata?.namespace ? [o.metadata.namespace] : []));
    this.addIndex(INDEX_OWNER_UID, (o) => (o.metadata?.ownerReferences ?? []).map((r) => r.uid));
    this.addIndex(INDEX_NODE_NAME, (o) => {
      const node = (o as { spec?: { nodeName?: string } }).spec?.nodeName;
      return node ? [node] : [];
    });
  }

  get bucket(): string {
    return this.bus.prefix + bucketName(this.kind);
  }

  /**
   * Starts watching; resolves once synced (`hasSynced`): the bucket's contents are loaded and the watcher has written
   * a complete list of the kind into it. A bucket being filled for the first time (an empty bus) is not synced.
   */
  async start(): Promise<void> {
    this.loop = this.run();
    await this.waitForSync();
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  /**
   * Whether the cache follows its bucket now: synced, and its current watch has read the bucket's contents again
   * after any interruption. A controller acts only on caches in sync (docs/adr/0068): a cache whose watch keeps
   * failing holds old objects, and acting on them creates what already exists.
   */
  get inSync(): boolean {
    return this.synced && this.following && !this.resetSeen;
  }

  /** How many keys hold a value set aside (their last good object, or none, is what the cache shows). */
  /** Changes the bus has delivered to this cache's watch that it has not applied yet (0 while not watching). */
  get pending(): number {
    return this.currentWatch?.getPending() ?? 0;
  }

  get setAsideCount(): number {
    return this.setAside.size;
  }

  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.currentWatch?.stop();
    await this.loop;
  }

  /** Registers a handler for every change applied from now on (existing objects are not replayed). */
  onChange(handler: ChangeHandler<T>): void {
    this.handlers.push(handler);
  }

  addIndex(name: string, fn: IndexFunc<T>): void {
    this.indexers.set(name, fn);
    const idx = new Map<string, Set<string>>();
    this.indexes.set(name, idx);
    for (const [key, obj] of this.objects) this.indexAdd(idx, fn(obj), key);
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.objects.get(objectKey(namespace, name));
  }

  /** Objects, optionally in one namespace and matching a filter (a label selector's matcher, say). */
  list(opts: { namespace?: string; filter?: (obj: T) => boolean } = {}): T[] {
    const source =
      opts.namespace !== undefined
        ? this.byIndex(INDEX_NAMESPACE, opts.namespace)
        : [...this.objects.values()];
    return opts.filter ? source.filter(opts.filter) : source;
  }

  byIndex(name: string, value: string): T[] {
    const keys = this.indexes.get(name)?.get(value);
    if (!keys) return [];
    return [...keys].map((k) => this.objects.get(k)).filter((o): o is T => o !== undefined);
  }

  get size(): number {
    return this.objects.size;
  }

  private async run(): Promise<void> {
    let missing = false;
    while (!this.stopped) {
      try {
        this.kv ??= await openMirrorBucket(this.bus, this.kind, { create: false });
        await this.watchOnce(this.kv);
        missing = false;
      } catch (err) {
        // the watcher creates the bucket once it sees the registration: until then opening or watching it fails
        const failure = bucketWatchFailure(err, { synced: this.synced, missing });
        if (!this.stopped && failure.report) this.options.onError?.(err);
        missing = failure.missing;
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, this.options.rewatchDelayMs ?? 500));
    }
  }

  /** One watch: the bucket's current values (a relist), then live changes until the watch ends. */
  private async watchOnce(kv: KV): Promise<void> {
    const seen = new Set<string>();
    let initial = true;
    const finishInitial = () => {
      initial = false;
      // keys that vanished while we were not watching (a reset bucket: once it is listed again, in `apply`)
      if (!this.resetSeen) this.removeUnseen(seen);
      this.initialRead = true;
      this.following = true;
      this.syncIfListed();
    };
    let endGuard: (() => void) | undefined;
    try {
      const status = await kv.status();
      if (bucketWasReset(this.followed, status.streamInfo)) this.beginReset();
      this.followed.created = status.streamInfo.created;
      if (status.values === 0) finishInitial();
      const it = await kv.watch();
      this.currentWatch = it;
      if (this.stopped) it.stop();
      // a watch does not end when its bucket is deleted and made again, nor when the server of its consumer dies:
      // look, and watch again
      endGuard = guardWatch(it, {
        intervalMs: this.options.resetCheckMs ?? 2000,
        reset: async () => bucketWasReset(this.followed, (await kv.status()).streamInfo),
      });
      for await (const e of it) {
        this.followed.revision = Math.max(this.followed.revision, e.revision);
        if (e.operation === 'PUT') this.resetSeen?.add(e.key);
        this.apply(e, initial ? seen : undefined);
        if (initial && (!e.delta || e.isUpdate)) finishInitial();
      }
    } finally {
      endGuard?.();
      this.following = false;
    }
  }

  /** Drops the objects (and set-aside marks) of keys not in `seen`, with delete events. */
  private removeUnseen(seen: Set<string>): void {
    for (const key of [...this.objects.keys()]) if (!seen.has(key)) this.remove(key);
    for (const key of this.setAside.keys()) if (!seen.has(key)) this.setAside.clear(key);
  }

  /**
   * The bucket was reset: its old contents are gone and the watcher is filling it again. The cache keeps what it
   * holds (a controller must not see every object deleted and act on it) but is out of sync until the new bucket
   * says it is listed; then the keys it did not bring back are deleted.
   */
  private beginReset(): void {
    this.resetSeen = new Set();
    this.listed = false;
    this.followed.revision = 0;
    this.options.onError?.(new BucketResetError(this.bucket));
  }

  private syncIfListed(): void {
    if (this.synced || !this.initialRead || !this.listed) return;
    this.synced = true;
    for (const w of this.syncWaiters.splice(0)) w();
  }

  private apply(e: KvWatchEntry, seen?: Set<string>): void {
    if (e.key === LISTED_KEY) {
      // a bucket once listed stays complete (the watcher keeps it in step), so a later purge changes nothing
      this.listed ||= e.operation === 'PUT';
      if (this.listed && this.resetSeen) {
        // the reset bucket is complete again: what it did not bring back is gone
        const seen = this.resetSeen;
        this.resetSeen = undefined;
        this.removeUnseen(seen);
      }
      this.syncIfListed();
      return;
    }
    if (e.operation !== 'PUT') {
      this.setAside.clear(e.key);
      this.remove(e.key);
      return;
    }
    seen?.add(e.key);
    const old = this.objects.get(e.key);
    let read: EntryRead<T>;
    try {
      read = this.read(e, old);
    } catch (error) {
      // one entry never stops the kind: the key keeps its last good object (docs/adr/0068)
      this.setAside.setAside(
        { bucket: this.bucket, key: e.key, revision: e.revision },
        error,
        this.options.onSetAside,
      );
      return;
    }
    this.setAside.clear(e.key);
    if (read === 'unchanged') return;
    if (read === 'not-kept') {
      this.remove(e.key);
      return;
    }
    this.store(e.key, read.object, old, read.indexValues);
    this.emit({
      type: old ? 'update' : 'add',
      object: read.object,
      ...(old ? { old } : {}),
      lagMs: Date.now() - read.observedAt,
      ...(this.synced ? {} : { inInitialList: true }),
    });
  }

  /**
   * Everything about an entry that can fail, before anything is changed: decoding, keeping, transforming and
   * indexing. Throws for an entry to set aside.
   */
  private read(e: KvWatchEntry, old: T | undefined): EntryRead<T> {
    const env = decodeEnvelope<T>(this.bucket, e.key, e.value);
    if (this.options.keep && !this.options.keep(env.object)) return 'not-kept';
    if (
      old?.metadata?.resourceVersion &&
      old.metadata.resourceVersion === env.object.metadata?.resourceVersion
    )
      return 'unchanged';
    const object = this.options.transform ? (this.options.transform(env.object) as T) : env.object;
    const indexValues = [...this.indexers].map(([name, fn]) => [name, fn(object)] as const);
    return { object, observedAt: env.observedAt, indexValues };
  }

  private remove(key: string): void {
    const old = this.objects.get(key);
    if (!old) return;
    this.unindex(key, old);
    this.objects.delete(key);
    this.emit({ type: 'delete', object: old, old });
  }

  private store(key: string, obj: T, old: T | undefined, indexValues: IndexValues): void {
    if (old) this.unindex(key, old);
    this.objects.set(key, obj);
    for (const [name, values] of indexValues) this.indexAdd(this.indexes.get(name)!, values, key);
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const idx = this.indexes.get(name)!;
      for (const v of fn(obj)) {
        const keys = idx.get(v);
        keys?.delete(key);
        if (keys?.size === 0) idx.delete(v);
      }
    }
  }

  private indexAdd(idx: Map<string, Set<string>>, values: string[], key: string): void {
    for (const v of values) {
      let keys = idx.get(v);
      if (!keys) idx.set(v, (keys = new Set()));
      keys.add(key);
    }
  }

  private emit(change: Change<T>): void {
    for (const h of this.handlers) {
      try {
        h(change);
      } catch (err) {
        this.options.onError?.(err);
      }
    }
  }
}
