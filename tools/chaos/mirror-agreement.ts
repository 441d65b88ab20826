// Does the watcher's mirror on the bus agree with the API server? R1 asks after each rollout (the workload and its
// pods in place) and once its kind's faults have stopped and the last workload is gone: every object the API server
// lists is in the mirror bucket at the resourceVersion listed, and the bucket holds nothing else. The bucket is read
// as a controller reads it, with the reader user of the bus (libs/local-cluster natsConfig), the API server directly.
// Objects change while they are compared, so the comparison is made again until the two agree or a deadline passes.
import { setTimeout as sleep } from 'node:timers/promises';
import type { KV } from '@nats-io/kv';
import {
  bucketName,
  connectBus,
  decodeEnvelope,
  keyOf,
  LISTED_KEY,
  type Bus,
  type KindRef,
} from '@regatta/bus';
import type { KubeClient } from '@regatta/kube';

/** key → resourceVersion, of one kind. */
export type Versions = Map<string, string>;

export interface Disagreement {
  /** Listed by the API server, absent from the mirror. */
  missing: string[];
  /** In both, at another resourceVersion. */
  stale: string[];
  /** In the mirror, not listed by the API server (deleted, never removed from the mirror). */
  extra: string[];
}

/** How the mirror differs from the API server's list (pure). */
export function compareMirror(api: Versions, mirror: Versions): Disagreement {
  const d: Disagreement = { missing: [], stale: [], extra: [] };
  for (const [key, rv] of api) {
    const m = mirror.get(key);
    if (m === undefined) d.missing.push(key);
    else if (m !== rv) d.stale.push(`${key} (mirror ${m}, API server ${rv})`);
  }
  for (const key of mirror.keys()) if (!api.has(key)) d.extra.push(key);
  return d;
}

export const agrees = (d: Disagreement): boolean => d.missing.length + d.stale.length + d.extra.length === 0;

/** `pods: 2 missing (a, b), 1 stale (…)`; at most `max` keys named per list. */
export function describeDisagreement(resource: string, d: Disagreement, max = 5): string {
  const part = (what: string, keys: string[]) =>
    keys.length === 0
      ? []
      : [`${keys.length} ${what} (${keys.slice(0, max).join(', ')}${keys.length > max ? ', …' : ''})`];
  return `${resource}: ${[...part('missing', d.missing), ...part('stale', d.stale), ...part('extra', d.extra)].join(', ')}`;
}

async function readBucket(kv: KV, bucket: string): Promise<Versions> {
  const out: Versions = new Map();
  const keys: string[] = [];
  for await (const k of await kv.keys()) if (k !== LISTED_KEY) keys.push(k);
  for (const key of keys) {
    const e = await kv.get(key);
    // deleted between keys() and get(), or a tombstone
    if (!e || e.operation !== 'PUT' || e.value.length === 0) continue;
    out.set(key, decodeEnvelope(bucket, key, e.value).object.metadata?.resourceVersion ?? '');
  }
  return out;
}

async function listApi(client: KubeClient, kind: KindRef): Promise<Versions> {
  const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
  const list = await client.listAll({ apiVersion, kind: kind.kind });
  return new Map(list.items.map((o) => [keyOf(o), o.metadata?.resourceVersion ?? '']));
}

export interface MirrorAgreement {
  /** ms from the first comparison to the one that agreed, or undefined when none did before the deadline. */
  agreedAfterMs: number | undefined;
  /** Objects compared in the last comparison (all kinds). */
  objects: number;
  /** What differed in the last comparison, per kind (empty when it agreed). */
  differences: string[];
}

/** Compares `kinds` of the mirror with the API server until they agree or `deadlineMs` passes. */
export async function waitForMirrorAgreement(o: {
  client: KubeClient;
  nats: { url: string; user: string; password: string; prefix: string };
  kinds: KindRef[];
  deadlineMs: number;
}): Promise<MirrorAgreement> {
  const t0 = Date.now();
  let bus: Bus | undefined;
  let last: MirrorAgreement = { agreedAfterMs: undefined, objects: 0, differences: ['never compared'] };
  try {
    while (Date.now() - t0 < o.deadlineMs) {
      try {
        bus ??= await connectBus({
          servers: o.nats.url,
          name: 'chaos-mirror-agreement',
          user: o.nats.user,
          pass: o.nats.password,
          prefix: o.nats.prefix,
        });
        const differences: string[] = [];
        let objects = 0;
        for (const kind of o.kinds) {
          // the API server first: an object the mirror holds newer than this list is "stale" and compared again
          const api = await listApi(o.client, kind);
          const bucket = bus.prefix + bucketName(kind);
          const mirror = await readBucket(await bus.kvm.open(bucket), bucket);
          objects += api.size;
          const d = compareMirror(api, mirror);
          if (!agrees(d)) differences.push(describeDisagreement(kind.plural, d));
        }
        last = {
          agreedAfterMs: differences.length === 0 ? Date.now() - t0 : undefined,
          objects,
          differences,
        };
        if (differences.length === 0) return last;
      } catch (err) {
        // the bus or the API server briefly away (a kill of nats-server): compared again
        last = { ...last, differences: [`comparison failed: ${String(err)}`] };
      }
      await sleep(1000);
    }
    return last;
  } finally {
    await bus?.close().catch(() => undefined);
  }
}
