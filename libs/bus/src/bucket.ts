import type { KV } from '@nats-io/kv';
import type { Bus } from './connection.js';
import { bucketName, type KindRef } from './kinds.js';

/** How long the tombstone of a deleted object stays in a bucket (a cache that reconnects later relists). */
export const TOMBSTONE_TTL = '1h';

/** Opens the mirror bucket of a kind, creating it (watcher only) with the bus's settings. */
export async function openMirrorBucket(
  bus: Bus,
  kind: KindRef,
  { create }: { create: boolean },
): Promise<KV> {
  const name = bus.prefix + bucketName(kind);
  if (!create) return bus.kvm.open(name);
  return bus.kvm.create(name, {
    history: 1,
    storage: 'file',
    compression: true,
    // objects up to the API server's ~1.5 MiB limit, plus the envelope
    maxValueSize: 3 * 1024 * 1024,
    // lets tombstones expire (purge with a TTL); needs nats-server 2.11+
    markerTTL: 60_000,
    description: `Regatta mirror of ${kind.plural} (${kind.group || 'core'}/${kind.version})`,
  });
}
