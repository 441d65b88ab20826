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

/** The watcher creates the bucket; controllers (who may not create streams) only open it. */
async function openRegistrations(bus: Bus, { create }: { create: boolean }): Promise<KV> {
  const name = bus.prefix + REGISTRATIONS_BUCKET;
  if (!create) return bus.kvm.open(name);
  return bus.kvm.create(name, {
    history: 1,
    storage: 'file',
    // old registrations age out even if nobody cleans them
    ttl: 5 * REGISTRATION_TTL_MS,
    description: 'Regatta: kinds each running controller needs from the watcher',
  });
}

/**
 * Announces the kinds a controller instance needs and keeps the announcement fresh until `stop()`,
 * which withdraws it. It returns at once: the announcement is made (and retried every second) in
 * the background until the watcher has created the bucket; failures go to `onError`.
 */
export function registerKinds(
  bus: Bus,
  controller: string,
  instance: string,
  kinds: KindRef[],
  { onError }: { onError?: (err: unknown) => void } = {},
): { stop(): Promise<void> } {
  const key = `${controller}.${instance.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  let kv: KV | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const announce = async () => {
    if (stopped) return;
    try {
      kv ??= await openRegistrations(bus, { create: false });
      await kv.put(
        key,
        JSON.stringify({ controller, instance, kinds, at: Date.now() } satisfies Registration),
      );
      timer = setTimeout(() => void announce(), REFRESH_MS);
    } catch (err) {
      onError?.(err);
      timer = setTimeout(() => void announce(), 1000);
    }
    timer.unref();
  };
  void announce();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await kv?.delete(key);
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
  const kv = await openRegistrations(bus, { create: true });
  const out: Registration[] = [];
  for await (const key of await kv.keys()) {
    const e = await kv.get(key);
    if (e && e.operation === 'PUT') out.push(e.json<Registration>());
  }
  return out;
}

/** Calls `onChange` whenever a registration is added, refreshed or withdrawn. */
export async function watchRegistrations(bus: Bus, onChange: () => void): Promise<{ stop(): void }> {
  const kv = await openRegistrations(bus, { create: true });
  const it = await kv.watch({ include: KvWatchInclude.UpdatesOnly });
  void (async () => {
    for await (const _e of it) onChange();
  })();
  return it;
}
