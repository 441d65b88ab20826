/**
 * `patchPodMetadata` (OpenKruise `pkg/control/sidecarcontrol/util.go` `PatchPodMetadata`): Retain sets missing keys,
 * Overwrite sets them, MergePatchJson JSON-merge-patches the existing value (RFC 7386).
 */
import type { SidecarSetPatchPodMetadata } from '@regatta/api';
import { deepEqual } from '@regatta/runtime';
import { InjectionError } from './errors.js';

/** RFC 7386 JSON merge patch. */
export function jsonMergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = jsonMergePatch(out[k], v);
  }
  return out;
}

function parseJson(key: string, value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch (err) {
    throw new InjectionError(`annotation ${key}: ${(err as Error).message}`);
  }
}

/** Sorted-key JSON, as Go's encoding/json writes maps. */
function goJson(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : val,
  );
}

/** Applies the patches to `annotations` (in place); returns `skip` = nothing changed. */
export function patchPodMetadata(
  annotations: Record<string, string>,
  patches: readonly SidecarSetPatchPodMetadata[] | undefined,
): { skip: boolean } {
  const before = { ...annotations };
  for (const patch of patches ?? []) {
    for (const [key, value] of Object.entries(patch.annotations ?? {})) {
      switch (patch.patchPolicy ?? 'Retain') {
        case 'Overwrite':
          annotations[key] = value;
          break;
        case 'MergePatchJson': {
          const origin = annotations[key];
          annotations[key] = origin
            ? goJson(jsonMergePatch(parseJson(key, origin), parseJson(key, value)))
            : value;
          break;
        }
        default:
          if (!(key in annotations)) annotations[key] = value;
      }
    }
  }
  return { skip: deepEqual(before, annotations) };
}
