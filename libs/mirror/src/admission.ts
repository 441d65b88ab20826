import { isSecretResource, REGISTRATION_TTL_MS, resourceId, type KindRef, type Registration } from '@regatta/bus';
import { CATALOGUE, type AllowList } from './catalogue.js';

/** Why a registered kind is not mirrored (the `reason` label of `regatta_mirror_registrations_refused_total`). */
export type RefusalReason = 'invalid' | 'unknown_kind' | 'not_allowed' | 'no_secret_hash_key';

export interface Refusal {
  /** The registration's key, `<controller>.<instance>`. */
  registration: string;
  /** The resource id asked for, when the entry could be read. */
  resource?: string;
  reason: RefusalReason;
  detail?: string;
}

/**
 * Which kinds to mirror for live registrations: only catalogue resources the registering controller is allowed,
 * with the catalogue's definition (never the registration's `kind`), Secrets only with a hash key.
 */
export function kindsToMirror(
  registrations: Registration[],
  o: {
    allow: AllowList;
    secretHashKey: boolean;
    now?: number;
    catalogue?: ReadonlyMap<string, KindRef>;
  },
): { needed: Map<string, KindRef>; refused: Refusal[] } {
  const now = o.now ?? Date.now();
  const catalogue = o.catalogue ?? CATALOGUE;
  const needed = new Map<string, KindRef>();
  const refused: Refusal[] = [];
  for (const r of registrations) {
    if (now - r.at > REGISTRATION_TTL_MS) continue;
    const registration = `${r.controller}.${r.instance}`;
    for (const asked of r.kinds) {
      const id = resourceId(asked);
      const kind = catalogue.get(id);
      if (!kind) refused.push({ registration, resource: id, reason: 'unknown_kind' });
      else if (!o.allow.get(r.controller)?.has(id)) refused.push({ registration, resource: id, reason: 'not_allowed' });
      else if (isSecretResource(kind) && !o.secretHashKey)
        refused.push({ registration, resource: id, reason: 'no_secret_hash_key' });
      else needed.set(id, kind);
    }
  }
  return { needed, refused };
}

/**
 * Which mirrors to start and stop so the running set follows the needed set. A running kind is stopped only
 * once it has not been needed for `graceMs` (registration TTL by default): registrations wiped or withdrawn
 * for a moment (their owners re-put them every 10 s) never restart every list+watch.
 */
export function planMirrors(
  running: Iterable<string>,
  needed: Map<string, KindRef>,
  o: { lastNeeded?: ReadonlyMap<string, number>; now?: number; graceMs?: number } = {},
): { start: KindRef[]; stop: string[] } {
  const run = new Set(running);
  const now = o.now ?? Date.now();
  const grace = o.graceMs ?? REGISTRATION_TTL_MS;
  return {
    start: [...needed].filter(([id]) => !run.has(id)).map(([, k]) => k),
    stop: [...run].filter((id) => !needed.has(id) && now - (o.lastNeeded?.get(id) ?? -Infinity) >= grace),
  };
}
