import { KvWatchInclude, type KV } from '@nats-io/kv';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Bus } from './connection.js';
import { resourceId, type KindRef } from './kinds.js';
import { replicasUpdate } from './bucket.js';

/** The bucket where controllers announce which kinds they need mirrored. */
export const REGISTRATIONS_BUCKET = 'regatta_registrations';
/** A registration not refreshed for this long no longer counts. */
export const REGISTRATION_TTL_MS = 30_000;
const REFRESH_MS = 10_000;

/** A controller name: one NATS subject token, a DNS label (`cloneset`, `resourcedistribution`). */
export const CONTROLLER_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface Registration {
  controller: string;
  instance: string;
  kinds: KindRef[];
  /** ms since epoch of the last refresh (the watcher uses the NATS server's time of the write) */
  at: number;
}

/** The key of a controller instance's registration: `<controller>.<instance>`; NATS permissions bind the first token. */
export function registrationKey(controller: string, instance: string): string {
  if (!CONTROLLER_NAME.test(controller)) {
    throw new TypeError(`controller name ${JSON.stringify(controller)} is not a DNS label (a-z, 0-9, -)`);
  }
  return `${controller}.${instance.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** The watcher creates the bucket; controllers (who may not create streams) only open it. */
async function openRegistrations(bus: Bus, { create }: { create: boolean }): Promise<KV> {
  const name = bus.prefix + REGISTRATIONS_BUCKET;
  if (!create) return bus.kvm.open(name);
  const kv = await bus.kvm.create(name, {
    history: 1,
    storage: 'file',
    replicas: bus.replicas,
    // old registrations age out even if nobody cleans them
    ttl: 5 * REGISTRATION_TTL_MS,
    description: 'Regatta: kinds each running controller needs from the watcher',
  });
  // nobody purges registrations: refusing rollup headers stops a `Nats-Rollup: all` publish (which subject
  // permissions cannot see) from wiping every controller's registration (docs/adr/0009)
  const info = (await kv.status()).streamInfo;
  const update = {
    ...(info.config.allow_rollup_hdrs ? { allow_rollup_hdrs: false } : {}),
    ...replicasUpdate(info.config.num_replicas, bus.replicas),
  };
  if (Object.keys(update).length > 0) {
    const jsm = await jetstreamManager(bus.nc);
    await jsm.streams.update(info.config.name, update);
  }
  return kv;
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
  const key = registrationKey(controller, instance);
  let kv: KV | undefined;
  let stopped = false;
  let announced = false;
  let timer: NodeJS.Timeout | undefined;
  const announce = async () => {
    if (stopped) return;
    try {
      kv ??= await openRegistrations(bus, { create: false });
      await kv.put(
        key,
        JSON.stringify({ controller, instance, kinds, at: Date.now() } satisfies Registration),
      );
      announced = true;
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
      // nothing to withdraw when no announcement was ever written (the bucket not there yet)
      if (announced) await kv?.delete(key);
    },
  };
}

/** One registration entry as read: valid, or why it is not (the entry is then skipped, never fatal). */
export type ParsedRegistration =
  | { ok: true; registration: Registration }
  | { ok: false; key: string; reason: string };

/**
 * Validates one entry of the registrations bucket on its own. The controller is the key's first token (what
 * NATS permissions can restrict), the time is the server's write time (`createdMs`), not the writer's word.
 */
export function parseRegistration(key: string, value: Uint8Array | string, createdMs: number): ParsedRegistration {
  const bad = (reason: string): ParsedRegistration => ({ ok: false, key, reason });
  const dot = key.indexOf('.');
  const controller = dot > 0 ? key.slice(0, dot) : '';
  const instance = key.slice(dot + 1);
  if (!CONTROLLER_NAME.test(controller) || !instance) return bad('key is not <controller>.<instance>');
  let body: unknown;
  try {
    body = JSON.parse(typeof value === 'string' ? value : new TextDecoder().decode(value));
  } catch {
    return bad('value is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return bad('value is not an object');
  const { controller: named, kinds } = body as { controller?: unknown; kinds?: unknown };
  if (named !== undefined && named !== controller) return bad(`controller ${String(named)} differs from the key's`);
  if (!Array.isArray(kinds)) return bad('kinds is not a list');
  const refs: KindRef[] = [];
  for (const k of kinds as unknown[]) {
    const { group, version, plural, kind, namespaced } = (k ?? {}) as Record<string, unknown>;
    if (typeof group !== 'string' || typeof version !== 'string' || typeof plural !== 'string' || !version || !plural) {
      return bad('a kind lacks group, version or plural');
    }
    refs.push({ group, version, plural, kind: typeof kind === 'string' ? kind : '', namespaced: namespaced === true });
  }
  return { ok: true, registration: { controller, instance, kinds: refs, at: createdMs } };
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

/**
 * Reads every registration currently in the bucket. Entries that do not validate are skipped and handed to
 * `onInvalid`: one bad entry never hides the others.
 */
export async function readRegistrations(
  bus: Bus,
  { onInvalid }: { onInvalid?: (key: string, reason: string) => void } = {},
): Promise<Registration[]> {
  const kv = await openRegistrations(bus, { create: true });
  const out: Registration[] = [];
  for await (const key of await kv.keys()) {
    const e = await kv.get(key);
    if (!e || e.operation !== 'PUT') continue;
    const parsed = parseRegistration(key, e.value, e.created.getTime());
    if (parsed.ok) out.push(parsed.registration);
    else onInvalid?.(parsed.key, parsed.reason);
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
