/**
 * Ordinals (OpenKruise `pkg/controller/statefulset/stateful_set_utils.go` `getStatefulSetReplicasRange`,
 * `getParentNameAndOrdinal`; `apis/apps/v1beta1` `GetReserveOrdinalIntSet`): which ordinals a set's pods hold, with
 * `ordinals.start` and `reserveOrdinals` (ints and inclusive ranges `"3-5"`).
 */
import { type ReservedOrdinals, replicaOrdinals, reservedOrdinals } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';

const NAME_RE = /^(.*)-([0-9]+)$/;

export interface OrdinalRange {
  /** First possible ordinal (inclusive). */
  start: number;
  /** One past the last ordinal (exclusive); `end - start` is the number of slots. */
  end: number;
  reserve: ReservedOrdinals;
}

/**
 * `getStatefulSetReplicasRange`: `replicas` non-reserved ordinals from `start` on. The reserved set is
 * `@regatta/api`'s reading of `reserveOrdinals` (upstream `GetReserveOrdinalIntSet`: one invalid entry empties it).
 */
export function ordinalRange(replicas: number, reserveOrdinals: unknown, start = 0): OrdinalRange {
  const reserve = reservedOrdinals(reserveOrdinals);
  const ordinals = replicaOrdinals(replicas, start, reserve);
  const last = ordinals[ordinals.length - 1];
  return { start, end: last === undefined ? start : last + 1, reserve };
}

/** The ordinals pods hold, ascending (exactly `replicas` of them). */
export function validOrdinals(range: OrdinalRange): number[] {
  const out: number[] = [];
  for (let o = range.start; o < range.end; o++) if (!range.reserve.has(o)) out.push(o);
  return out;
}

/** `podInOrdinalRangeWithParams`. */
export function inOrdinalRange(ordinal: number, range: OrdinalRange): boolean {
  return ordinal >= range.start && ordinal < range.end && !range.reserve.has(ordinal);
}

/** `getParentNameAndOrdinal`: `web-3` → `{ parent: 'web', ordinal: 3 }`; -1 when the name has no ordinal. */
export function parentAndOrdinal(name: string): { parent: string; ordinal: number } {
  const m = NAME_RE.exec(name);
  if (!m) return { parent: '', ordinal: -1 };
  const ordinal = Number(m[2]);
  return Number.isSafeInteger(ordinal) ? { parent: m[1] ?? '', ordinal } : { parent: '', ordinal: -1 };
}

export function ordinalOf(pod: KubeObject): number {
  return parentAndOrdinal(pod.metadata?.name ?? '').ordinal;
}

/** `isMemberOf`: the pod's name is `<set>-<ordinal>`. */
export function isMemberOf(setName: string, pod: KubeObject): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod.metadata?.name ?? '');
  return ordinal >= 0 && parent === setName;
}

/** Pods split into slots (index = ordinal - start; reserved or missing = undefined) and condemned (descending). */
export function splitPods<T extends KubeObject>(
  pods: readonly T[],
  range: OrdinalRange,
): { slots: (T | undefined)[]; condemned: T[] } {
  const slots: (T | undefined)[] = new Array<T | undefined>(range.end - range.start).fill(undefined);
  const condemned: T[] = [];
  for (const p of pods) {
    const o = ordinalOf(p);
    if (inOrdinalRange(o, range)) slots[o - range.start] = p;
    else if (o >= 0) condemned.push(p);
  }
  condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
  return { slots, condemned };
}
