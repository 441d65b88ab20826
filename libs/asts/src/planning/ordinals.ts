/**
 * Ordinals (OpenKruise `pkg/controller/statefulset/stateful_set_utils.go` `getStatefulSetReplicasRange`,
 * `getParentNameAndOrdinal`; `apis/apps/v1beta1` `GetReserveOrdinalIntSet`): which ordinals a set's pods hold, with
 * `ordinals.start` and `reserveOrdinals` (ints and inclusive ranges `"3-5"`).
 */
import type { IntOrString, KubeObject } from '@regatta/kube';

const RANGE_RE = /^(\d+)-(\d+)$/;
const NAME_RE = /^(.*)-([0-9]+)$/;

/**
 * The reserved ordinals: ints ≥ 0 and inclusive ranges `"a-b"` with a ≤ b. Anything else (a negative int, a range
 * written backwards, text) adds nothing (the webhook rejects it; a stored one is ignored).
 */
export function reserveOrdinalSet(reserve: readonly IntOrString[] | null | undefined): Set<number> {
  const out = new Set<number>();
  for (const r of reserve ?? []) {
    if (typeof r === 'number') {
      if (Number.isInteger(r) && r >= 0) out.add(r);
      continue;
    }
    if (/^\d+$/.test(r)) {
      out.add(Number(r));
      continue;
    }
    const m = RANGE_RE.exec(r);
    if (!m) continue;
    const a = Number(m[1]);
    const b = Number(m[2]);
    if (a > b || b - a > 1_000_000) continue;
    for (let i = a; i <= b; i++) out.add(i);
  }
  return out;
}

export interface OrdinalRange {
  /** First possible ordinal (inclusive). */
  start: number;
  /** One past the last ordinal (exclusive); `end - start` is the number of slots. */
  end: number;
  reserve: Set<number>;
}

/** `getStatefulSetReplicasRange`: `replicas` non-reserved ordinals from `start` on. */
export function ordinalRange(
  replicas: number,
  reserveOrdinals: readonly IntOrString[] | null | undefined,
  start = 0,
): OrdinalRange {
  const reserve = reserveOrdinalSet(reserveOrdinals);
  let end = start;
  for (let count = 0; count < replicas; end++) if (!reserve.has(end)) count++;
  return { start, end, reserve };
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
