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
  /** The object of that name as the last read of the API server returned it (undefined: not read, or NotFound). */
  stored?: AnySidecarSet;
  /** A read settled what is stored: the admitted object (confirmed) or another one of that name (gone). */
  settled?: boolean;
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

/** The object a record stands for: what is stored once settled, the admitted object until then. */
export function standsFor(record: AdmittedRecord): AnySidecarSet | undefined {
  return record.settled ? record.stored : record.admitted;
}

/** The cache holds the object the record stands for at its generation or later: the record has nothing more to give. */
export function supersededBy(record: AdmittedRecord, cached: AnySidecarSet | undefined): boolean {
  const target = standsFor(record);
  return !target || atLeast(cached, target);
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
 * The SidecarSets the pod webhook injects: the cached ones, each read object (the API server's truth at the read,
 * `stored` of the live records) taking the place of the cached object of its name, or added when the cache has none.
 */
export function withAdmitted(
  cached: readonly AnySidecarSet[],
  stored: readonly AnySidecarSet[],
): AnySidecarSet[] {
  const byName = new Map(stored.map((s) => [s.metadata?.name ?? '', s]));
  const merged = cached.map((s) => byName.get(s.metadata?.name ?? '') ?? s);
  const known = new Set(cached.map((s) => s.metadata?.name ?? ''));
  return [...merged, ...[...byName.values()].filter((s) => !known.has(s.metadata?.name ?? ''))];
}

const selectorsOf = (s: AnySidecarSet) => ({
  selector: s.spec.selector,
  namespaceSelector: s.spec.namespaceSelector,
  namespace: s.spec.namespace,
  paused: s.spec.injectionStrategy?.paused ?? false,
});

/**
 * The objects that need a pod webhook entry of their own: what every live record stands for (the admitted object
 * until a read settles it: the entry must be held before the API server stores the SidecarSet), unless the cached
 * object of its name has the same selectors (its entry already sends the same pods). One per distinct selectors.
 */
export function recordsNeedingEntries(
  live: readonly AdmittedRecord[],
  cached: (name: string) => AnySidecarSet | undefined,
): AnySidecarSet[] {
  const out: AnySidecarSet[] = [];
  for (const s of live.map(standsFor)) {
    if (!s) continue;
    const c = cached(s.metadata?.name ?? '');
    if (c && deepEqual(selectorsOf(c), selectorsOf(s))) continue;
    const same = (o: AnySidecarSet) =>
      o.metadata?.name === s.metadata?.name && deepEqual(selectorsOf(o), selectorsOf(s));
    if (!out.some(same)) out.push(s);
  }
  return out;
}
