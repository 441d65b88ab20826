/**
 * Plain-JSON helpers shared by the patch functions. Values are compared and copied with JSON semantics: an object
 * key whose value is `undefined` is the same as a missing key, and `undefined` in an array is `null`.
 */

export type JsonPrimitive = null | boolean | number | string;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };

/** A non-null, non-array object. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep equality with JSON semantics. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    for (const k of ka) if (!Object.hasOwn(b, k) || !jsonEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** A deep copy with JSON semantics (undefined object members dropped; no Dates, Maps or class instances expected). */
export function cloneJson<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x: unknown) => (x === undefined ? null : cloneJson(x))) as T;
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) setMember(out, k, cloneJson(x));
    return out as T;
  }
  return v;
}

/**
 * Sets `record[key] = value` as an own member, the way JSON.parse does. Plain assignment of the key `__proto__`
 * would replace the object's prototype instead, so a copy of `{"__proto__": []}` would read Array's members
 * (docs/reliability.md finding 26).
 */
export function setMember(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/**
 * `record[key]` when `record` has it as its own property, else undefined. A map decoded from JSON is a plain object,
 * so a key a user chose that names a member of Object.prototype (an image called `constructor`) would otherwise read
 * that member (docs/reliability.md finding 24).
 */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
