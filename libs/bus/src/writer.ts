import type { KV } from '@nats-io/kv';
import { TOMBSTONE_TTL, isStreamNotFound, openMirrorBucket, valueLimit } from './bucket.js';
import type { Bus } from './connection.js';
import { decodeEnvelope, encodeEnvelope, isSecretResource, trimForMirror, type TrimOptions } from './envelope.js';
import { ObjectTooLargeError, SecretHashKeyMissingError } from './errors.js';
import { LISTED_KEY, bucketName, keyOf, type KindRef, type KubeObject } from './kinds.js';

/**
 * The watcher's side of a mirror bucket. It remembers each key's resourceVersion so a relist
 * rewrites only what changed, and can delete the keys of objects that vanished.
 */
export class MirrorWriter {
  private readonly versions = new Map<string, string>();
  /** The bucket holds {@link LISTED_KEY}. */
  private listed = false;

  /** When the bucket's stream was created (JetStream's `created`): another value means it was deleted and made again. */
  private created = '';

  private constructor(
    readonly kind: KindRef,
    private kv: KV,
    private readonly bus: Bus,
    readonly bucket: string,
    private readonly trim: TrimOptions,
    /** The largest value a put may carry (bytes). */
    readonly limit: number,
  ) {}

  /**
   * `kind` is the resource the watcher lists (its own catalogue, never a registration's word): it decides the
   * bucket, the apiVersion/kind written and whether the object is scrubbed as a Secret.
   */
  static async open(bus: Bus, kind: KindRef, trim: TrimOptions = {}): Promise<MirrorWriter> {
    if (isSecretResource(kind) && !trim.secretHashKey?.length) throw new SecretHashKeyMissingError();
    const w = new MirrorWriter(
      kind,
      await openMirrorBucket(bus, kind, { create: true }),
      bus,
      bus.prefix + bucketName(kind),
      trim,
      valueLimit(bus),
    );
    await w.loadVersions();
    return w;
  }

  /**
   * Whether the bucket is gone or was made again since this writer opened it (a bus whose store was wiped, an
   * operator's `nats kv del`): what this writer remembers of it is then wrong. Throws when the bus cannot say.
   */
  async bucketReset(): Promise<boolean> {
    try {
      return (await this.kv.status()).streamInfo.created !== this.created;
    } catch (err) {
      if (isStreamNotFound(err)) return true;
      throw err;
    }
  }

  /**
   * Opens the bucket again, creating it if it is gone, and forgets what this writer remembered of the old one (its
   * keys' versions, that it was listed): the next list writes every object and says it is listed again.
   */
  async reopen(): Promise<void> {
    this.kv = await openMirrorBucket(this.bus, this.kind, { create: true });
    this.versions.clear();
    this.listed = false;
    await this.loadVersions();
  }

  /** Keys currently in the bucket. */
  keys(): string[] {
    return [...this.versions.keys()];
  }

  /**
   * Writes an object unless the bucket already holds this resourceVersion. Returns true when written. Throws
   * ObjectTooLargeError, before sending anything, when its mirrored form exceeds {@link limit}. `observedAt` is when
   * the watcher received this version from the API server (the envelope's `observedAt`; default: now), so a cache's
   * `lagMs` includes any time the write waited in the watcher.
   *
   * Writes of different keys may run concurrently; the caller keeps the writes of one key in order, one at a time
   * (the watcher's KeyedPipeline, docs/adr/0052).
   */
  async put(obj: KubeObject, observedAt = Date.now()): Promise<boolean> {
    const key = keyOf(obj);
    const rv = obj.metadata?.resourceVersion ?? '';
    if (rv && this.versions.get(key) === rv) return false;
    const full: KubeObject = {
      ...obj,
      apiVersion: this.kind.group ? `${this.kind.group}/${this.kind.version}` : this.kind.version,
      kind: this.kind.kind,
    };
    const value = encodeEnvelope(trimForMirror(full, this.kind, this.trim), observedAt);
    if (value.byteLength > this.limit) throw new ObjectTooLargeError(key, value.byteLength, this.limit);
    await this.kv.put(key, value);
    this.versions.set(key, rv);
    return true;
  }

  /**
   * Says, once, that a complete list of the kind is in the bucket ({@link LISTED_KEY}): caches of the bucket sync
   * only then. The watcher calls it when its first list's writes are all done; a bucket that already says so (a
   * watcher before this one listed it) is left as it is.
   */
  async markListed(): Promise<void> {
    if (this.listed) return;
    await this.kv.put(LISTED_KEY, JSON.stringify({ listedAt: new Date().toISOString() }));
    this.listed = true;
  }

  async delete(key: string): Promise<void> {
    if (!this.versions.has(key)) return;
    await this.kv.purge(key, { ttl: TOMBSTONE_TTL });
    this.versions.delete(key);
  }

  /** Deletes every key not in `live` (after a relist). Returns the deleted keys. */
  async deleteAllExcept(live: Set<string>): Promise<string[]> {
    const gone = this.keys().filter((k) => !live.has(k));
    for (const k of gone) await this.delete(k);
    return gone;
  }

  /**
   * The resourceVersion a bucket value holds; '' for a value that is not an envelope (docs/adr/0068), so that the
   * next list writes the object over it: a watcher's restart repairs what caches had to set aside.
   */
  private storedVersion(key: string, value: Uint8Array): string {
    try {
      return decodeEnvelope(this.bucket, key, value).object.metadata?.resourceVersion ?? '';
    } catch {
      return '';
    }
  }

  private async loadVersions(): Promise<void> {
    const status = await this.kv.status();
    this.created = status.streamInfo.created;
    if (status.values === 0) return;
    const it = await this.kv.watch();
    try {
      for await (const e of it) {
        if (e.key === LISTED_KEY) this.listed = e.operation === 'PUT';
        else if (e.operation === 'PUT') this.versions.set(e.key, this.storedVersion(e.key, e.value));
        if (!e.delta) break;
      }
    } finally {
      it.stop();
    }
  }
}
