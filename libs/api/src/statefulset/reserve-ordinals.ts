/**
 * `spec.reserveOrdinals`: ordinals the StatefulSet skips — integers, or inclusive ranges `"a-b"` (`"3-5"` is 3, 4
 * and 5; OpenKruise #1873). Upstream parses them in `pkg/util/api/asts.go` (`ParseRange`, `GetReserveOrdinalIntSet`):
 * a range must be `<int>-<int>` with start ≤ end, and **one** invalid range makes the whole reserve set empty.
 *
 * Regatta keeps the ranges as ranges (membership is a scan of the list), so a wide range such as `"0-2000000000"`
 * costs nothing; upstream inserts every member into a set.
 */

/** `^\d+-\d+$`, the webhook's syntax for a range (so `"-1-3"` or `" 1-3"` are rejected). */
export const RESERVE_ORDINAL_RANGE_RE = /^\d+-\d+$/;

/** An inclusive ordinal range. */
export interface OrdinalRange {
  start: number;
  end: number;
}

/** Go's `strconv.Atoi` on a 64-bit machine: optional sign, decimal digits, within int64 (checked as safe integer). */
function atoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * `ParseRange`: the start and end of `"a-b"`, or the problem (`invalid range 5-3`). Split on `-` into exactly two
 * parts, each an integer, start ≤ end.
 */
export function parseOrdinalRange(s: string): OrdinalRange | { problem: string } {
  const parts = s.split('-');
  if (parts.length !== 2) return { problem: `invalid range ${s}` };
  const [a = '', b = ''] = parts;
  const start = atoi(a);
  if (start === undefined) return { problem: `strconv.Atoi: parsing ${JSON.stringify(a)}: invalid syntax` };
  const end = atoi(b);
  if (end === undefined) return { problem: `strconv.Atoi: parsing ${JSON.stringify(b)}: invalid syntax` };
  if (start > end) return { problem: `invalid range ${s}` };
  return { start, end };
}

/** The reserved ordinals of a spec, as a membership test. */
export interface ReservedOrdinals {
  /** True when `ordinal` is reserved. */
  has(ordinal: number): boolean;
  /** The integers and ranges, as parsed (integers as one-element ranges). */
  readonly ranges: readonly OrdinalRange[];
  /** False when an item was invalid and the set is therefore empty (upstream behaviour). */
  readonly valid: boolean;
}

const EMPTY: ReservedOrdinals = { has: () => false, ranges: [], valid: true };

/**
 * `GetReserveOrdinalIntSet`: the union of the integers and ranges of `spec.reserveOrdinals`. Any JSON is accepted:
 * a non-list is empty; an invalid string (or an item that is neither an integer nor a string) empties the whole
 * set, as upstream does with an invalid range.
 */
export function reservedOrdinals(list: unknown): ReservedOrdinals {
  if (!Array.isArray(list) || list.length === 0) return EMPTY;
  const ranges: OrdinalRange[] = [];
  for (const item of list) {
    if (typeof item === 'number' && Number.isInteger(item)) {
      ranges.push({ start: item, end: item });
      continue;
    }
    const r = typeof item === 'string' ? parseOrdinalRange(item) : { problem: 'not an integer or a range' };
    if ('problem' in r) return { has: () => false, ranges: [], valid: false };
    ranges.push(r);
  }
  return { has: (o: number) => ranges.some((r) => o >= r.start && o <= r.end), ranges, valid: true };
}

/**
 * The ordinals of the pods a StatefulSet runs (OpenKruise `getStatefulSetReplicasRange`): from `start`, the first
 * `replicas` ordinals that are not reserved, ascending. `start` is `ordinals.start` when the gate
 * `StatefulSetStartOrdinal` is on, 0 otherwise. A reserved range is skipped in one step.
 */
export function replicaOrdinals(replicas: number, start: number, reserved: ReservedOrdinals): number[] {
  const out: number[] = [];
  let o = start;
  while (out.length < replicas) {
    const covering = reserved.ranges.filter((r) => o >= r.start && o <= r.end);
    if (covering.length === 0) {
      out.push(o);
      o++;
    } else {
      o = Math.max(...covering.map((r) => r.end)) + 1;
    }
  }
  return out;
}
