import { KvWatchInclude, type KV } from '@nats-io/kv';
import type { Bus } from './connection.js';
import { resourceId, type KindRef } from './kinds.js';

/** The bucket where controllers announce which kinds they need mirrored. */
export const REGISTRATIONS_BUCKET = 'regatta_registrations';
/** A registration not refreshed for this long no longer counts. */
export const REGISTRATION_TTL_MS = 30_000;
const REFRESH_MS = 10_000;

export interface Registration {
  controller: string;
  instance: string;
  kinds: KindRef[];
  /** ms since epoch of the last refresh */
  at: number;
}

async function openRegistrations(bus: Bus): Promise<KV> {
  return bus.kvm.create(bus.prefix + REGISTRATIONS_BUCKET, {
    history: 1,
    storage: 'file',
    // old registrations age out even if nobody cleans them
    ttl: 5 * REGISTRATION_TTL_MS,
    description: 'Regatta: kinds each running controller needs from the watcher',
  });
}

/**
 * Announces the kinds a controller instance needs and keeps the announcement fresh until `stop()`,
 * which withdraws it.
 */
export async function registerKinds(
  bus: Bus,
  controller: string,
  instance: string,
  kinds: KindRef[],
): Promise<{ stop(): Promise<void> }> {
  const kv = await openRegistrations(bus);
  const key = `${controller}.${instance.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const put = () =>
    kv.put(key, JSON.stringify({ controller, instance, kinds, at: Date.now() } satisfies Registration));
  await put();
  const timer = setInterval(() => void put().catch(() => undefined), REFRESH_MS); // a missed refresh retries in 10 s
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await kv.delete(key);
    },
  };
}

/** The kinds needed by live registrations (refreshed within the TTL), by resource id. */
export function neededKinds(registrations: Registration[], now = Date.now()): Map<string, KindRef> {
  const out = new Map<string, KindRef>();
  for (const r of registrations) {
    if (now - r.at > REGISTRATION_TTL_MS) continue;
    for (const k of r.kinds) out.set(resourceId(k), k);
  }
  return out;
}

/** Reads every registration currently in the bucket. */
export async function readRegistrations(bus: Bus): Promise<Registration[]> {
  const kv = await openRegistrations(bus);
  const out: Registration[] = [];
  for await (const key of await kv.keys()) {
    const e = await kv.get(key);
    if (e && e.operation === 'PUT') out.push(e.json<Registration>());
  }
  return out;
}

/** Calls `onChange` whenever a registration is added, refreshed or withdrawn. */
export async function watchRegistrations(bus: Bus, onChange: () => void): Promise<{ stop(): void }> {
  const kv = await openRegistrations(bus);
  const it = await kv.watch({ include: KvWatchInclude.UpdatesOnly });
  void (async () => {
    for await (const _e of it) onChange();
  })();
  return it;
}
