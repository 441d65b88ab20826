/** JSON Merge Patch (RFC 7396): apply, and create from two versions of a document. */
import { cloneJson, isPlainObject, jsonEqual, ownValue, setMember } from './json.js';

/**
 * Applies a merge patch: objects merge recursively, `null` removes a member, anything else (arrays included)
 * replaces. Returns a new document; neither input is modified.
 */
export function applyMergePatch<T = unknown>(target: unknown, patch: unknown): T {
  return merge(cloneJson(target), patch) as T;
}

function merge(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return cloneJson(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? target : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    if (v === null) delete out[k];
    else setMember(out, k, merge(ownValue(out, k), v));
  }
  return out;
}

/**
 * The merge patch that turns `before` into `after` (`{}` when they are equal). Members missing from `after` become
 * `null`; changed arrays are sent whole. RFC 7396 cannot express "set to null": a member that is `null` in `after`
 * is removed instead, which Kubernetes treats the same for optional fields.
 */
export function createMergePatch(before: object, after: object): Record<string, unknown> {
  if (!isPlainObject(before) || !isPlainObject(after)) {
    throw new TypeError('createMergePatch needs two JSON objects; for other values send the new value itself');
  }
  return diff(before, after);
}

function diff(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [k, b] of Object.entries(before)) {
    const a = ownValue(after, k);
    if (b !== undefined && b !== null && (a === undefined || a === null)) setMember(patch, k, null);
  }
  for (const [k, a] of Object.entries(after)) {
    if (a === undefined || a === null) continue;
    const b = ownValue(before, k);
    if (isPlainObject(b) && isPlainObject(a)) {
      const sub = diff(b, a);
      if (Object.keys(sub).length > 0) setMember(patch, k, sub);
    } else if (b === undefined || b === null || !jsonEqual(b, a)) {
      setMember(patch, k, cloneJson(a));
    }
  }
  return patch;
}
