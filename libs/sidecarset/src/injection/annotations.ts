/**
 * The pod annotations injection writes (OpenKruise `pkg/webhook/pod/mutating/sidecarset.go` `buildSidecars`):
 * `kruise.io/sidecarset-hash`, `-hash-without-image` (JSON maps by SidecarSet name; the older `map[string]string`
 * form is still read) and `kruise.io/sidecarset-injected-list`.
 */
import { SidecarSetAnnotations } from '@regatta/api';
import { InjectionError } from './errors.js';
import type { SidecarSetUpgradeSpec } from './types.js';

/** Parses a hash annotation, accepting the old `{name: hash}` form. */
export function parseHashAnnotation(
  key: string,
  value: string | undefined,
): Record<string, SidecarSetUpgradeSpec> {
  if (!value) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    throw new InjectionError(`invalid annotations[${key}] value ${value}: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InjectionError(`invalid annotations[${key}] value ${value}`);
  }
  const out: Record<string, SidecarSetUpgradeSpec> = {};
  for (const [name, v] of Object.entries(parsed)) {
    out[name] = typeof v === 'string' ? { hash: v, sidecarSetName: name } : (v as SidecarSetUpgradeSpec);
  }
  return out;
}

/** Go's json.Marshal of the map: keys sorted, fields in struct order, `controllerRevision` omitted when empty. */
export function formatHashAnnotation(entries: Record<string, SidecarSetUpgradeSpec>): string {
  const sorted = Object.keys(entries).sort();
  return JSON.stringify(
    Object.fromEntries(
      sorted.map((name) => {
        const e = entries[name] as SidecarSetUpgradeSpec;
        return [
          name,
          {
            updateTimestamp: e.updateTimestamp ?? null,
            hash: e.hash,
            sidecarSetName: e.sidecarSetName,
            sidecarList: e.sidecarList ?? null,
            ...(e.controllerRevision ? { controllerRevision: e.controllerRevision } : {}),
          },
        ];
      }),
    ),
  );
}

/** The injected-list: the names already there and the new ones, sorted, comma-joined. */
export function injectedList(existing: string | undefined, names: readonly string[]): string {
  const all = new Set([...(existing ? existing.split(',') : []), ...names].filter(Boolean));
  return [...all].sort().join(',');
}

export const HASH_KEY = SidecarSetAnnotations.Hash;
export const HASH_WITHOUT_IMAGE_KEY = SidecarSetAnnotations.HashWithoutImage;
