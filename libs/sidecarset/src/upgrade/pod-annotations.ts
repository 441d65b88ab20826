/**
 * The pod annotations the upgrade controller reads, from their raw values (OpenKruise
 * `pkg/control/sidecarcontrol/util.go`, `util_hotupgrade.go`). Pure; each result is frozen, because pod-state.ts
 * keeps it for the pod version it came from (./annotation-memo.ts) and hands the same value to every caller. With a
 * string table (libs/bus), equal hash entries and injected lists are one shared copy: most pods of a SidecarSet carry
 * the same ones, and they are kept as long as the pod version is cached.
 */
import type { StringTable } from '@regatta/bus';

/** One SidecarSet's entry in the pod's `kruise.io/sidecarset-hash` (and `…-without-image`) annotation. */
export interface SidecarSetUpgradeSpec {
  updateTimestamp?: string;
  hash?: string;
  sidecarSetName?: string;
  sidecarList?: string[];
  controllerRevision?: string;
}

/** One SidecarSet's entry in `kruise.io/sidecarset-inplace-update-state`. */
export interface SidecarInPlaceUpdateState {
  revision: string;
  updateTimestamp: string;
  lastContainerStatuses: Record<string, { imageID: string }> | null;
  /**
   * Sidecars resized in place through `pods/resize` (Regatta only, docs/adr/0087-in-place-resource-resize.md): the
   * pod is consistent once the kubelet reports their new resources.
   */
  resizedContainers?: string[];
}

export type HashEntries = Readonly<Record<string, Readonly<SidecarSetUpgradeSpec>>>;

const NONE: Readonly<Record<string, never>> = Object.freeze({});
const NO_NAMES: readonly string[] = Object.freeze([]);

function parseJsonMap(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The hash annotation as entries by SidecarSet name; the old `{name: hash}` format is read as entries with only a
 * hash; an unreadable value (or one that is not an object) as no entries.
 */
export function hashEntriesOf(raw: string | undefined, table?: StringTable): HashEntries {
  const map = parseJsonMap(raw);
  if (!map) return NONE;
  const out: Record<string, Readonly<SidecarSetUpgradeSpec>> = {};
  const held = (entry: SidecarSetUpgradeSpec) =>
    (table ? table.dedupe(entry) : Object.freeze(entry)) as Readonly<SidecarSetUpgradeSpec>;
  for (const [name, v] of Object.entries(map)) {
    if (typeof v === 'string') out[name] = held({ hash: v });
    else if (v && typeof v === 'object') out[name] = held(v as SidecarSetUpgradeSpec);
  }
  return Object.freeze(out);
}

/** `kruise.io/sidecarset-working-hotupgrade-container`: sidecar name → working twin (string values only). */
export function workingTwinsOf(raw: string | undefined): Readonly<Record<string, string>> {
  const map = parseJsonMap(raw);
  if (!map) return NONE;
  return Object.freeze(
    Object.fromEntries(Object.entries(map).filter((e): e is [string, string] => typeof e[1] === 'string')),
  );
}

/** `kruise.io/sidecarset-inplace-update-state`: undefined when absent, `'invalid'` when not a JSON object. */
export function updateStatesOf(
  raw: string | undefined,
): Readonly<Record<string, SidecarInPlaceUpdateState>> | 'invalid' | undefined {
  if (raw === undefined) return undefined;
  const map = parseJsonMap(raw);
  return map ? Object.freeze(map as Record<string, SidecarInPlaceUpdateState>) : 'invalid';
}

/** `kruise.io/sidecarset-injected-list`: the SidecarSet names, comma-separated. */
export function injectedListOf(raw: string | undefined, table?: StringTable): readonly string[] {
  if (raw === undefined || raw === '') return NO_NAMES;
  const names = raw.split(',');
  return (table ? table.dedupe(names) : Object.freeze(names)) as readonly string[];
}
