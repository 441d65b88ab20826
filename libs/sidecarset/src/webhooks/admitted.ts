/**
 * SidecarSets admitted by this program but not yet in its cache (docs/adr/0040-sidecarset-effective-at-admission.md):
 * the pure rules. A record is what the SidecarSet validating webhook allowed; it counts only once a read of the API
 * server shows it stored (an admitted write may still be refused after us, or be a dry run), and it is dropped as soon
 * as the cache holds that object at that generation or later.
 */
import { deepEqual } from '@regatta/runtime';
import type { AnySidecarSet } from '../injection/types.js';

/** One admitted SidecarSet. */
export interface AdmittedRecord {
  /** As the validating webhook allowed it (the final object: every mutating webhook ran). */
  readonly admitted: AnySidecarSet;
  /** Milliseconds (the clock of the program) of the admission. */
  readonly admittedAt: number;
  /** As the API server returned it once it showed it stored; undefined while not confirmed. */
  stored?: AnySidecarSet;
}

/** What a read of the API server says of an admitted SidecarSet. */
export type Confirmation = 'confirmed' | 'pending' | 'gone';

const uidOf = (s: AnySidecarSet | undefined) => s?.metadata?.uid;
const generationOf = (s: AnySidecarSet | undefined) => s?.metadata?.generation ?? 0;

/** The same object (uid; an object admitted without one is taken by name) at the admitted generation or later. */
function atLeast(seen: AnySidecarSet | undefined, admitted: AnySidecarSet): boolean {
  if (!seen) return false;
  const uid = uidOf(admitted);
  if (uid !== undefined && uidOf(seen) !== uid) return false;
  return generationOf(seen) >= generationOf(admitted);
}

/**
 * `stored` is the API server's answer (undefined: NotFound). Confirmed: the admitted object is stored (its uid, its
 * generation or later). Another uid: the admitted create was refused (the name was taken) or the object was replaced
 * since: gone. NotFound or an older generation: not written yet, or refused; pending until the reads give up.
 */
export function confirmation(admitted: AnySidecarSet, stored: AnySidecarSet | undefined): Confirmation {
  if (!stored) return 'pending';
  const uid = uidOf(admitted);
  if (uid !== undefined && uidOf(stored) !== uid) return 'gone';
  return atLeast(stored, admitted) ? 'confirmed' : 'pending';
}

/** The cache holds the admitted object at its generation or later: the record has nothing more to give. */
export function supersededBy(record: AdmittedRecord, cached: AnySidecarSet | undefined): boolean {
  return atLeast(cached, record.stored ?? record.admitted);
}

/** The records still of use: not superseded by the cache, younger than `ttlMs`. */
export function liveRecords(
  records: readonly AdmittedRecord[],
  cached: (name: string) => AnySidecarSet | undefined,
  now: number,
  ttlMs: number,
): AdmittedRecord[] {
  return records.filter(
    (r) => now - r.admittedAt < ttlMs && !supersededBy(r, cached(r.admitted.metadata?.name ?? '')),
  );
}

/**
 * The SidecarSets the pod webhook injects: the cached ones, each confirmed record's stored object taking the place
 * of the cached object of its name (or added when the cache has none). Unconfirmed records add nothing.
 */
export function withAdmitted(
  cached: readonly AnySidecarSet[],
  confirmed: readonly AnySidecarSet[],
): AnySidecarSet[] {
  const byName = new Map(confirmed.map((s) => [s.metadata?.name ?? '', s]));
  const merged = cached.map((s) => byName.get(s.metadata?.name ?? '') ?? s);
  const known = new Set(cached.map((s) => s.metadata?.name ?? ''));
  return [...merged, ...confirmed.filter((s) => !known.has(s.metadata?.name ?? ''))];
}

const selectorsOf = (s: AnySidecarSet) => ({
  selector: s.spec.selector,
  namespaceSelector: s.spec.namespaceSelector,
  namespace: (s.spec as { namespace?: string }).namespace,
  paused: s.spec.injectionStrategy?.paused ?? false,
});

/**
 * The records that need a pod webhook entry of their own: every live record (confirmed or not: the entry must be held
 * before the API server stores the SidecarSet) whose selectors differ from the cached object of its name, whose entry
 * already sends the same pods.
 */
export function recordsNeedingEntries(
  live: readonly AdmittedRecord[],
  cached: (name: string) => AnySidecarSet | undefined,
): AnySidecarSet[] {
  return live
    .map((r) => r.stored ?? r.admitted)
    .filter((s) => {
      const c = cached(s.metadata?.name ?? '');
      return !c || !deepEqual(selectorsOf(c), selectorsOf(s));
    });
}
