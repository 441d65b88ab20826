/**
 * The two SidecarSet hashes (OpenKruise `pkg/control/sidecarcontrol/hash.go`): `kruise.io/sidecarset-hash` over the
 * sidecar containers, and `kruise.io/sidecarset-hash-without-image` over the same with every image blanked — equal
 * without-image hashes mean an update changed images only, so pods can be upgraded in place.
 *
 * What is hashed, as upstream: `{"containers": spec.containers}`, plus `"initContainers": spec.initContainers` (all of
 * them) when at least one init container is a native sidecar (`restartPolicy: Always`). The digest is SHA-256 in hex,
 * passed through apimachinery's `rand.SafeEncodeString` (64 characters of `bcdfghjklmnpqrstvwxz2456789`).
 *
 * Difference: upstream hashes Go's `json.Marshal` of its structs (struct field order, Go's omitempty); Regatta hashes a
 * canonical JSON (object keys sorted, null members dropped). The values therefore differ from upstream's bytes but
 * keep the properties that matter: a pure function of the containers, equal for equal containers, and the
 * without-image hash unchanged by an image-only change.
 */
import { createHash } from 'node:crypto';
import type { SidecarContainer, SidecarSetSpec } from './types.js';

/** apimachinery `rand` alphabet (no vowels, no look-alikes). */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** apimachinery `rand.SafeEncodeString`: every character mapped to `SAFE_ALPHABET[code % 27]`. */
function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += SAFE_ALPHABET[(ch.codePointAt(0) ?? 0) % SAFE_ALPHABET.length];
  return out;
}

/** JSON with object keys sorted and null / undefined members dropped (array elements kept as they are). */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : canonicalJson(x))).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined && x !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** A native sidecar: an init container with `restartPolicy: Always` (Kubernetes ≥ 1.28). */
export function isNativeSidecar(c: { restartPolicy?: unknown }): boolean {
  return c.restartPolicy === 'Always';
}

type HashedSpec = Pick<SidecarSetSpec, 'containers' | 'initContainers'>;

function hashedDocument(spec: HashedSpec, withoutImage: boolean): Record<string, unknown> {
  const strip = (cs: readonly SidecarContainer[]): unknown[] =>
    cs.map((c) => (withoutImage ? { ...c, image: undefined } : c));
  const doc: Record<string, unknown> = { containers: strip(spec.containers ?? []) };
  const inits = spec.initContainers ?? [];
  if (inits.some(isNativeSidecar)) doc['initContainers'] = strip(inits);
  return doc;
}

function encodedSha256(doc: unknown): string {
  return safeEncodeString(createHash('sha256').update(canonicalJson(doc)).digest('hex'));
}

/** `kruise.io/sidecarset-hash` of a (defaulted) SidecarSet spec. */
export function sidecarSetHash(spec: HashedSpec): string {
  return encodedSha256(hashedDocument(spec, false));
}

/** `kruise.io/sidecarset-hash-without-image` of a (defaulted) SidecarSet spec. */
export function sidecarSetHashWithoutImage(spec: HashedSpec): string {
  return encodedSha256(hashedDocument(spec, true));
}

/** Both hash annotations, as the mutating webhook writes them on the SidecarSet. */
export function sidecarSetHashAnnotations(spec: HashedSpec): Record<string, string> {
  return {
    'kruise.io/sidecarset-hash': sidecarSetHash(spec),
    'kruise.io/sidecarset-hash-without-image': sidecarSetHashWithoutImage(spec),
  };
}
