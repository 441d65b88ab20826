/**
 * Projection of cached objects (docs/adr/0060-pod-projection.md): a program declares, with the kinds it registers,
 * the fields its controllers read; its cache keeps only those (client-go's `SetTransform`, as a `Cache` option), and
 * shares repeated strings through a bounded table. The projected object and each nested object it trimmed carry the
 * `PROJECTED` marker of `@regatta/kube`, so a PUT of it is refused and a patch cannot write a trimmed part whole.
 */
import { type KubeObject, markProjected } from '@regatta/kube';
import type { UnionOfFieldSets } from './projection-types.js';

/**
 * What to keep of one value: `true` the value as it is; `'shared'` the value as it is, with every string in it
 * taken from the string table (values that repeat across objects: images, node names, label values, condition
 * reasons); `'deduped'` the value held once for every object where it is equal (a container's env and resources,
 * owner references: one frozen copy, its strings shared); a {@link FieldSet} only the fields it names (for an
 * array, of each element).
 */
export type FieldRule = true | 'shared' | 'deduped' | FieldSet;

/**
 * The fields to keep of an object, each with what to keep of its value; `'*'` is the rule of every field not named
 * (`{ '*': true, labels: 'shared' }` keeps every field and shares the labels' strings).
 */
export interface FieldSet {
  readonly [field: string]: FieldRule;
}

/** Default bound of a {@link StringTable}: distinct strings it holds before it starts over. */
export const DEFAULT_SHARED_STRINGS = 16_384;
/** Longer strings are never shared (they rarely repeat; JSON held in annotations, say). */
export const MAX_SHARED_STRING_LENGTH = 256;

/** Default bound of the deduplicated values a {@link StringTable} holds. */
export const DEFAULT_DEDUPED_VALUES = 4096;

/**
 * One copy of each repeated string, and of each repeated `'deduped'` value. Bounded: once it holds `max` strings (or
 * `maxValues` values) that part is emptied and fills again, so a churn of unique values (names, IPs, timestamps)
 * cannot grow it without end; the objects keep what they hold.
 */
export class StringTable {
  readonly #strings = new Map<string, string>();
  readonly #values = new Map<string, unknown>();

  constructor(
    readonly max = DEFAULT_SHARED_STRINGS,
    readonly maxLength = MAX_SHARED_STRING_LENGTH,
    readonly maxValues = DEFAULT_DEDUPED_VALUES,
  ) {}

  /**
   * The table's copy of a value equal to `v` (by its JSON), or `v` itself — its strings shared, deeply frozen, so
   * that no holder can change what others hold — the first time. `v` must be the caller's own (a decoded object).
   */
  dedupe(v: unknown): unknown {
    if (typeof v !== 'object' || v === null) return typeof v === 'string' ? this.share(v) : v;
    const key = JSON.stringify(v);
    const known = this.#values.get(key);
    if (known !== undefined) return known;
    if (this.#values.size >= this.maxValues) this.#values.clear();
    const held = deepFreeze(share(v, this));
    this.#values.set(key, held);
    return held;
  }

  /** Distinct deduplicated values held. */
  get values(): number {
    return this.#values.size;
  }

  /** The table's copy of `s` (`s` itself the first time). */
  share(s: string): string {
    if (s.length > this.maxLength) return s;
    const known = this.#strings.get(s);
    if (known !== undefined) return known;
    if (this.#strings.size >= this.max) this.#strings.clear();
    this.#strings.set(s, s);
    return s;
  }

  get size(): number {
    return this.#strings.size;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every string in `v` taken from the table; objects and arrays are changed in place (they are the cache's own). */
function share(v: unknown, table: StringTable): unknown {
  if (typeof v === 'string') return table.share(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = share(v[i], table);
  } else if (isObject(v)) {
    for (const k of Object.keys(v)) v[k] = share(v[k], table);
  }
  return v;
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

function projectValue(v: unknown, rule: FieldRule, table: StringTable): unknown {
  if (rule === true) return v;
  if (rule === 'shared') return share(v, table);
  if (rule === 'deduped') return table.dedupe(v);
  if (Array.isArray(v)) return v.map((e) => projectValue(e, rule, table));
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  let trimmed = false;
  for (const k of Object.keys(v)) {
    const r = rule[k] ?? rule['*'];
    if (r === undefined) trimmed = true;
    else out[k] = projectValue(v[k], r, table);
  }
  return trimmed ? markProjected(out) : out;
}

/**
 * `obj` reduced to `fields` (a new object; kept values are reused, not copied), marked projected. Fields absent from
 * `obj` stay absent.
 */
export function projectObject<T extends KubeObject>(obj: T, fields: FieldSet, table: StringTable): T {
  return markProjected(projectValue(obj, fields, table) as T);
}

/** A `Cache` transform keeping `fields` of each object, with one string table for the cache. */
export function projection(fields: FieldSet, table = new StringTable()): (obj: KubeObject) => KubeObject {
  return (obj) => projectObject(obj, fields, table);
}

function unionRule(a: FieldRule, b: FieldRule): FieldRule {
  if (typeof a === 'object' && typeof b === 'object') return unionFieldSets(a, b);
  // one keeps the whole value; sharing its strings, or the value, changes no value
  if (a === 'deduped' || b === 'deduped') return 'deduped';
  return a === 'shared' || b === 'shared' ? 'shared' : true;
}

/** The fields either set keeps (the projection of a reader several controllers of one program declare). */
export function unionFieldSets<A extends FieldSet, B extends FieldSet>(a: A, b: B): UnionOfFieldSets<A, B>;
export function unionFieldSets(a: FieldSet, b: FieldSet): FieldSet {
  const out: Record<string, FieldRule> = { ...a };
  for (const [k, r] of Object.entries(b)) out[k] = out[k] === undefined ? r : unionRule(out[k], r);
  return out;
}
