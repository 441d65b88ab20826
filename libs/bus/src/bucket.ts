import type { KV } from '@nats-io/kv';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Bus } from './connection.js';
import { bucketName, type KindRef } from './kinds.js';

/** How long the tombstone of a deleted object stays in a bucket (a cache that reconnects later relists). */
export const TOMBSTONE_TTL = '1h';

/**
 * The largest mirror value (envelope JSON) a bucket accepts: 8 MiB (docs/adr/0008). The API server stores
 * objects up to ~1.5 MiB, but their JSON can be larger: a YAML-posted Pod whose env value is full of control
 * characters (`"\x01"`, 4 bytes of YAML, 6 of JSON) reaches ~4.5 MB within the API server's 3 MB request
 * limit. Only an object posted as protobuf and dense in such characters can exceed 8 MiB; the watcher sets
 * those aside (counted, logged, a Warning event) instead of mirroring them.
 */
export const MAX_VALUE_BYTES = 8 * 1024 * 1024;

/** Opens the mirror bucket of a kind, creating it (watcher only) with the bus's settings. */
export async function openMirrorBucket(
  bus: Bus,
  kind: KindRef,
  { create }: { create: boolean },
): Promise<KV> {
  const name = bus.prefix + bucketName(kind);
  if (!create) return bus.kvm.open(name);
  const kv = await bus.kvm.create(name, {
    history: 1,
    storage: 'file',
    replicas: bus.replicas,
    compression: true,
    maxValueSize: MAX_VALUE_BYTES,
    // lets tombstones expire (purge with a TTL); needs nats-server 2.11+
    markerTTL: 60_000,
    description: `Regatta mirror of ${kind.plural} (${kind.group || 'core'}/${kind.version})`,
  });
  // a bucket created by an older watcher keeps its smaller limit, or its replicas from a smaller bus: raise them
  const config = (await kv.status()).streamInfo.config;
  const update = {
    ...(config.max_msg_size !== MAX_VALUE_BYTES ? { max_msg_size: MAX_VALUE_BYTES } : {}),
    ...replicasUpdate(config.num_replicas, bus.replicas),
  };
  if (Object.keys(update).length > 0) {
    const jsm = await jetstreamManager(bus.nc);
    await jsm.streams.update(config.name, update);
  }
  return kv;
}

/**
 * The stream update that brings a bucket to the configured replicas (docs/operations.md "A clustered bus"): a
 * bucket created on one server, or with fewer replicas, is scaled up once the bus has more servers; never down (a
 * program given fewer servers than the bucket has replicas does not shrink what another program sized).
 */
export function replicasUpdate(current: number | undefined, wanted: number): { num_replicas?: number } {
  return (current ?? 1) < wanted ? { num_replicas: wanted } : {};
}

/** The largest value a put into a bucket may carry: the bucket's limit, or the server's max_payload if lower. */
export function valueLimit(bus: Bus): number {
  const serverMax = bus.nc.info?.max_payload ?? MAX_VALUE_BYTES;
  // a JetStream publish carries a few headers besides the value
  return Math.min(MAX_VALUE_BYTES, serverMax - 4096);
}

/**
 * JetStream's "stream not found" (a KV bucket is a stream), whatever the client version calls the error: a bucket
 * the watcher has not created yet, or one deleted since.
 */
export function isStreamNotFound(err: unknown): boolean {
  const e = err as { name?: string; message?: string } | null;
  return e?.name === 'StreamNotFoundError' || /stream not found/i.test(e?.message ?? '');
}

/**
 * How a loop watching a mirror bucket (Cache, ObjectWatch) takes a failed round: a bucket the watcher has not created
 * yet is waiting, not trouble (the watch's `hasSynced` stays false and readiness says so); one gone after the first
 * sync is reported once, not every round. `missing` is carried to the next round.
 */
export function bucketWatchFailure(
  err: unknown,
  was: { synced: boolean; missing: boolean },
): { report: boolean; missing: boolean } {
  const missing = isStreamNotFound(err);
  return { report: !(missing && (was.missing || !was.synced)), missing };
}

/**
 * What one look at a watch's health says, and how many looks in a row found its consumer missing or unanswering: a KV
 * watch's consumer lives on one server and does not move when that server dies or is cut off (a clustered bus,
 * docs/operations.md), so the watch waits forever without ending. Two failed looks in a row (a lost answer is not
 * enough) end it; a reset bucket ends it at once.
 */
export function watchCheck(
  look: 'ok' | 'reset' | 'failed',
  failedBefore: number,
): { stop: boolean; failed: number } {
  if (look === 'reset') return { stop: true, failed: 0 };
  if (look === 'ok') return { stop: false, failed: 0 };
  return failedBefore + 1 >= 2 ? { stop: true, failed: 0 } : { stop: false, failed: failedBefore + 1 };
}

/** The consumer behind a KV watch (the client keeps it on the iterator), when the client version exposes it. */
function consumerOf(watch: object): { info(cached?: boolean): Promise<unknown> } | undefined {
  const c = (watch as { _data?: { info?: unknown } })._data;
  return typeof c?.info === 'function' ? (c as { info(cached?: boolean): Promise<unknown> }) : undefined;
}

/**
 * Stops `watch` (its loop watches again) when its bucket was reset (`reset()` says so, or the bucket is gone) or its
 * consumer is gone or unanswering ({@link watchCheck}); looks every `intervalMs`. Returns what ends the looks.
 */
export function guardWatch(watch: { stop(): void }, o: { intervalMs: number; reset: () => Promise<boolean> }): () => void {
  let failed = 0;
  let busy = false;
  // a user not allowed to ask cannot tell: its watch is left alone rather than made again every other look
  const refused = (err: unknown) => /permission/i.test((err as Error | null)?.message ?? '');
  const look = async (): Promise<'ok' | 'reset' | 'failed'> => {
    try {
      if (await o.reset()) return 'reset';
    } catch (err) {
      if (isStreamNotFound(err)) return 'reset';
      return refused(err) ? 'ok' : 'failed';
    }
    try {
      await consumerOf(watch)?.info(false);
      return 'ok';
    } catch (err) {
      return refused(err) ? 'ok' : 'failed';
    }
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void look()
      .then((l) => {
        const c = watchCheck(l, failed);
        failed = c.failed;
        if (c.stop) watch.stop();
      })
      .finally(() => (busy = false));
  }, o.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
