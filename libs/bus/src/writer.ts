import type { KV } from '@nats-io/kv';
import { TOMBSTONE_TTL, openMirrorBucket } from './bucket.js';
import type { Bus } from './connection.js';
import { decodeEnvelope, encodeEnvelope } from './envelope.js';
import { bucketName, keyOf, type KindRef, type KubeObject } from './kinds.js';

/**
 * The watcher's side of a mirror bucket. It remembers each key's resourceVersion so a relist
 * rewrites only what changed, and can delete the keys of objects that vanished.
 */
export class MirrorWriter {
  private readonly versions = new Map<string, string>();

  private constructor(
    readonly kind: KindRef,
    private readonly kv: KV,
    readonly bucket: string,
  ) {}

  static async open(bus: Bus, kind: KindRef): Promise<MirrorWriter> {
    const w = new MirrorWriter(
      kind,
      await openMirrorBucket(bus, kind, { create: true }),
      bus.prefix + bucketName(kind),
    );
    await w.loadVersions();
    return w;
  }

  /** Keys currently in the bucket. */
  keys(): string[] {
    return [...this.versions.keys()];
  }

  /** Writes an object unless the bucket already holds this resourceVersion. Returns true when written. */
  async put(obj: KubeObject, traceparent?: string): Promise<boolean> {
    const key = keyOf(obj);
    const rv = obj.metadata?.resourceVersion ?? '';
    if (rv && this.versions.get(key) === rv) return false;
    const full: KubeObject = {
      ...obj,
      apiVersion: this.kind.group ? `${this.kind.group}/${this.kind.version}` : this.kind.version,
      kind: this.kind.kind,
    };
    await this.kv.put(key, encodeEnvelope(full, traceparent));
    this.versions.set(key, rv);
    return true;
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

  private async loadVersions(): Promise<void> {
    const status = await this.kv.status();
    if (status.values === 0) return;
    const it = await this.kv.watch();
    try {
      for await (const e of it) {
        if (e.operation === 'PUT') {
          this.versions.set(
            e.key,
            decodeEnvelope(this.bucket, e.key, e.value).object.metadata?.resourceVersion ?? '',
          );
        }
        if (!e.delta) break;
      }
    } finally {
      it.stop();
    }
  }
}
