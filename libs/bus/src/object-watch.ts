// One object of a mirror bucket, watched on its own: a KV watch filtered on its key, so a program with bus
// credentials for that one key (a node agent reading its own NodeImage) needs no right to the rest of the bucket.
// After any interruption it watches again and reports the current value (or its absence).
import type { KV, KvEntry } from '@nats-io/kv';
import type { KubeObject } from '@regatta/kube';
import { bucketWatchFailure, guardWatch } from './bucket.js';
import type { Bus } from './connection.js';
import { decodeEnvelope } from './envelope.js';
import { bucketName, objectKey, type KindRef } from './kinds.js';
import { SetAsideKeys, type SetAsideEntry } from './set-aside.js';

export interface ObjectWatchOptions {
  onError?: (err: unknown) => void;
  /** Delay before watching again after the watch ended or failed. Default 500 ms. */
  rewatchDelayMs?: number;
  /** Told once per revision of a value that is not an envelope; the object stays as last seen (docs/adr/0068). */
  onSetAside?: (entry: SetAsideEntry) => void;
  /** How often the watch is checked for a lost consumer or a bucket made again. Default 2 s. */
  checkMs?: number;
}

export class ObjectWatch<T extends KubeObject = KubeObject> {
  private current: T | undefined;
  private stopped = false;
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private readonly setAside = new SetAsideKeys();
  private watch?: { stop(): void };
  private loop?: Promise<void>;

  constructor(
    private readonly bus: Bus,
    readonly kind: KindRef,
    readonly namespace: string | undefined,
    readonly name: string,
    private readonly onChange: (obj: T | undefined, old: T | undefined) => void,
    private readonly options: ObjectWatchOptions = {},
  ) {}

  get key(): string {
    return objectKey(this.namespace, this.name);
  }

  get bucket(): string {
    return this.bus.prefix + bucketName(this.kind);
  }

  /** The object as last seen, undefined while absent. */
  get object(): T | undefined {
    return this.current;
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  /**
   * Starts watching; resolves once the current value (or its absence) is known, or once {@link stop} is called
   * before that (then {@link hasSynced} stays false), so a program told to stop while it waits for the bucket exits.
   */
  async start(): Promise<void> {
    this.loop = this.run();
    if (!this.synced && !this.stopped) await new Promise<void>((r) => this.syncWaiters.push(r));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watch?.stop();
    for (const w of this.syncWaiters.splice(0)) w();
    await this.loop;
  }

  private async run(): Promise<void> {
    let kv: KV | undefined;
    let missing = false;
    while (!this.stopped) {
      try {
        // mirror buckets allow direct gets; saying so makes `get` use the per-key subject a node agent is allowed
        kv ??= await this.bus.kvm.open(this.bucket, { allow_direct: true });
        await this.watchOnce(kv);
        missing = false;
      } catch (err) {
        // the watcher creates the bucket once a registration asks for the kind: until then opening or watching fails
        const failure = bucketWatchFailure(err, { synced: this.synced, missing });
        if (!this.stopped && failure.report) this.options.onError?.(err);
        missing = failure.missing;
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, this.options.rewatchDelayMs ?? 500));
    }
  }

  private async watchOnce(kv: KV): Promise<void> {
    const it = await kv.watch({ key: this.key });
    this.watch = it;
    if (this.stopped) it.stop();
    // a watch whose consumer went with its server (a clustered bus), or whose bucket was made again, does not end on
    // its own: look, and watch again (the node agents' users may read their stream's and consumers' info)
    let created: string | undefined;
    const endGuard = guardWatch(it, {
      intervalMs: this.options.checkMs ?? 2000,
      reset: async () => {
        const now = (await kv.status()).streamInfo.created;
        created ??= now;
        return now !== created;
      },
    });
    let initial = true;
    const markSynced = () => {
      if (!initial) return;
      initial = false;
      if (!this.synced) {
        this.synced = true;
        for (const w of this.syncWaiters.splice(0)) w();
      }
    };
    // an absent key yields nothing on the watch: a direct get (permitted per key too) says so
    void kv.get(this.key).then(
      (e) => {
        if (!initial) return;
        this.apply(e);
        markSynced();
      },
      (err: unknown) => this.options.onError?.(err),
    );
    try {
      for await (const e of it) {
        this.apply(e);
        markSynced();
      }
    } finally {
      initial = false;
      endGuard();
    }
  }

  /** A value read (none: the key is absent); one that is not an envelope is set aside, once per revision. */
  private apply(e: KvEntry | null): void {
    if (!e || e.operation !== 'PUT') {
      this.setAside.clear(this.key);
      this.set(undefined);
      return;
    }
    let obj: T;
    try {
      obj = decodeEnvelope<T>(this.bucket, e.key, e.value).object;
    } catch (error) {
      this.setAside.setAside(
        { bucket: this.bucket, key: e.key, revision: e.revision },
        error,
        this.options.onSetAside,
      );
      return;
    }
    this.setAside.clear(this.key);
    this.set(obj);
  }

  private set(obj: T | undefined): void {
    const old = this.current;
    if (obj === undefined && old === undefined) return;
    if (obj && old && obj.metadata?.resourceVersion === old.metadata?.resourceVersion) return;
    this.current = obj;
    try {
      this.onChange(obj, old);
    } catch (err) {
      this.options.onError?.(err);
    }
  }
}
