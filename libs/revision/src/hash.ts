/**
 * The hashes Kubernetes and Kruise use for revisions: FNV-1 / FNV-1a 32-bit, `rand.SafeEncodeString`, and
 * `hashutil.DeepHashObject` applied to a JSON byte slice (which spew prints as `([]uint8)[123 34 …]`).
 */
const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
const encoder = new TextEncoder();

function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? encoder.encode(data) : data;
}

/** Incremental FNV-1 (`fnv.New32`, multiply then xor) or FNV-1a (`fnv.New32a`, xor then multiply) over UTF-8 bytes. */
export class Fnv32 {
  #h = FNV32_OFFSET;

  constructor(readonly variant: 'fnv1' | 'fnv1a') {}

  /** Feeds bytes (a string is written as UTF-8). */
  write(data: string | Uint8Array): this {
    let h = this.#h;
    for (const b of bytesOf(data)) {
      if (this.variant === 'fnv1') h = Math.imul(h, FNV32_PRIME) ^ b;
      else h = Math.imul(h ^ b, FNV32_PRIME);
    }
    this.#h = h >>> 0;
    return this;
  }

  /** The unsigned 32-bit sum. */
  sum32(): number {
    return this.#h >>> 0;
  }
}

/** FNV-1 32-bit of the bytes. */
export function fnv1_32(data: string | Uint8Array): number {
  return new Fnv32('fnv1').write(data).sum32();
}

/** FNV-1a 32-bit of the bytes. */
export function fnv1a_32(data: string | Uint8Array): number {
  return new Fnv32('fnv1a').write(data).sum32();
}

/** apimachinery `rand` alphabet: no vowels (no words) and no look-alike characters. */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** apimachinery `rand.SafeEncodeString`: every character mapped to `SAFE_ALPHABET[code % 27]`. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += SAFE_ALPHABET[(ch.codePointAt(0) ?? 0) % SAFE_ALPHABET.length];
  return out;
}

/**
 * `hashutil.DeepHashObject(fnv.New32a(), jsonBytes)` as Kruise calls it for env-from-metadata and
 * volumeClaimTemplates hashes: spew prints a `[]byte` as `([]uint8)[b0 b1 …]` in decimal, and that text is hashed.
 */
export function deepHashJsonBytes(json: string): number {
  return fnv1a_32(`([]uint8)[${Array.from(encoder.encode(json)).join(' ')}]`);
}
