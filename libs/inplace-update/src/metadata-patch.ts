/**
 * The strategic merge patch of pod metadata that an in-place update carries (`metaDataPatch`): created from the old
 * and new template metadata as `strategicpatch.CreateTwoWayMergePatch` does for `ObjectMeta`, and applied to a pod
 * as the API server would. The subset covers what ObjectMeta needs: maps (labels, annotations) merge with `null`
 * deletions, `finalizers` is a merge list of scalars (`$deleteFromPrimitiveList/`, `$setElementOrder/`), every other
 * field is replaced whole.
 */
import { cloneJson, isPlainObject, jsonEqual } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { goJson } from '@regatta/revision';
import { MetadataPatchError } from './errors.js';

/** ObjectMeta lists with the `merge` patch strategy and scalar items. */
const MERGE_SCALAR_LISTS = new Set(['finalizers']);
const DELETE_PREFIX = '$deleteFromPrimitiveList/';
const ORDER_PREFIX = '$setElementOrder/';

type Obj = Record<string, unknown>;

/** Go `omitempty` on ObjectMeta: zero values are absent. */
function normalize(meta: unknown): Obj {
  const out: Obj = {};
  if (!isPlainObject(meta)) return out;
  for (const [k, v] of Object.entries(meta)) {
    if (v === undefined || v === null || v === '' || v === 0 || v === false) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isPlainObject(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

function diffScalarList(key: string, before: unknown[], after: unknown[], patch: Obj): void {
  const str = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const beforeSet = new Set(before.map(str));
  const afterSet = new Set(after.map(str));
  const added = after.filter((v) => !beforeSet.has(str(v)));
  const deleted = [...new Set(before.filter((v) => !afterSet.has(str(v))).map(str))].sort();
  if (added.length > 0) patch[key] = cloneJson(added);
  if (deleted.length > 0) patch[`${DELETE_PREFIX}${key}`] = deleted;
  patch[`${ORDER_PREFIX}${key}`] = cloneJson(after);
}

function diffMaps(before: Obj, after: Obj, top: boolean): Obj {
  const patch: Obj = {};
  for (const k of Object.keys(before)) if (after[k] === undefined || after[k] === null) patch[k] = null;
  for (const [k, a] of Object.entries(after)) {
    if (a === undefined || a === null) continue;
    const b = before[k];
    if (b === undefined || b === null) patch[k] = cloneJson(a);
    else if (isPlainObject(b) && isPlainObject(a)) {
      const sub = diffMaps(b, a, false);
      if (Object.keys(sub).length > 0) patch[k] = sub;
    } else if (top && MERGE_SCALAR_LISTS.has(k) && Array.isArray(b) && Array.isArray(a)) {
      if (!jsonEqual(b, a)) diffScalarList(k, b, a, patch);
    } else if (!jsonEqual(b, a)) patch[k] = cloneJson(a);
  }
  return patch;
}

/**
 * The patch turning pod metadata `before` into `after`, as the JSON Kruise stores (`{"metadata":{…}}` with sorted
 * keys, or `{}` when they are equal).
 */
export function createMetadataPatch(before: unknown, after: unknown): string {
  const diff = diffMaps(normalize(before), normalize(after), true);
  return goJson(Object.keys(diff).length === 0 ? {} : { metadata: diff });
}

function serverMergeOrder(merged: unknown[], order: unknown[], server: unknown[]): unknown[] {
  const key = (v: unknown) => JSON.stringify(v);
  const orderKeys = order.map(key);
  const right = merged
    .filter((v) => orderKeys.includes(key(v)))
    .sort((a, b) => orderKeys.indexOf(key(a)) - orderKeys.indexOf(key(b)));
  const left = merged.filter((v) => !orderKeys.includes(key(v)));
  const serverKeys = server.map(key);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]);
    else if (i >= left.length) out.push(right[j++]);
    else {
      const li = serverKeys.indexOf(key(left[i]));
      const ri = serverKeys.indexOf(key(right[j]));
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function applyToMap(target: Obj, patch: Obj, top: boolean): Obj {
  const out = cloneJson(target);
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith(DELETE_PREFIX)) continue;
    const list = k.slice(DELETE_PREFIX.length);
    if (!top || !MERGE_SCALAR_LISTS.has(list) || !Array.isArray(v))
      throw new MetadataPatchError(`unsupported directive ${k} in a metadata patch`);
    const drop = new Set(v.map((x) => JSON.stringify(x)));
    if (Array.isArray(out[list])) out[list] = out[list].filter((x) => !drop.has(JSON.stringify(x)));
  }
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith(DELETE_PREFIX) || k.startsWith(ORDER_PREFIX)) continue;
    if (k.startsWith('$')) throw new MetadataPatchError(`unsupported directive ${k} in a metadata patch`);
    if (v === null) delete out[k];
    else if (isPlainObject(v)) out[k] = applyToMap(isPlainObject(out[k]) ? out[k] : {}, v, false);
    else if (top && MERGE_SCALAR_LISTS.has(k) && Array.isArray(v)) {
      const existing = Array.isArray(out[k]) ? out[k] : [];
      const seen = new Set<string>();
      out[k] = [...existing, ...v].filter((x) => {
        const s = JSON.stringify(x);
        if (seen.has(s)) return false;
        seen.add(s);
        return true;
      });
    } else out[k] = cloneJson(v);
  }
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith(ORDER_PREFIX)) continue;
    const list = k.slice(ORDER_PREFIX.length);
    if (!top || !MERGE_SCALAR_LISTS.has(list) || !Array.isArray(v))
      throw new MetadataPatchError(`unsupported directive ${k} in a metadata patch`);
    if (Array.isArray(out[list]))
      out[list] = serverMergeOrder(out[list], v, Array.isArray(target[list]) ? target[list] : []);
  }
  return out;
}

/**
 * The pod with a metadata patch applied (throws {@link MetadataPatchError} for patches that touch anything but
 * `metadata` or use other directives); the input is not modified.
 */
export function applyMetadataPatch(pod: Pod, patchJson: string): Pod {
  let patch: unknown;
  try {
    patch = JSON.parse(patchJson);
  } catch (e) {
    throw new MetadataPatchError(`the metadata patch is not JSON: ${(e as Error).message}`);
  }
  if (!isPlainObject(patch)) throw new MetadataPatchError('the metadata patch must be a JSON object');
  const extra = Object.keys(patch).filter((k) => k !== 'metadata');
  if (extra.length > 0)
    throw new MetadataPatchError(`the metadata patch may only change metadata, found ${extra.join(', ')}`);
  const meta = patch['metadata'];
  if (meta === undefined) return pod;
  if (!isPlainObject(meta)) throw new MetadataPatchError('metadata in the patch must be an object');
  return { ...pod, metadata: applyToMap((pod.metadata ?? {}) as Obj, meta, true) };
}
