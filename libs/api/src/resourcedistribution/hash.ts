/**
 * The `kruise.io/resourcedistribution.resource.hashcode` of a ResourceDistribution: hex SHA-256 of the raw bytes of
 * `spec.resource` (`pkg/controller/resourcedistribution/utils.go` hashResource). Upstream hashes the bytes the API
 * server sent, which Go's JSON encoder wrote: keys sorted, no spaces, `<`, `>`, `&`, U+2028 and U+2029 escaped. The
 * same encoding here gives the same hash for the same resource.
 */
import { createHash } from 'node:crypto';

/** JSON as Go's `encoding/json` writes a decoded object: sorted keys, compact, HTML-safe escapes. */
export function goJson(value: unknown): string {
  return encode(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function encode(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(encode).join(',')}]`;
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${encode(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** hex SHA-256 of the resource as the API server serves it. */
export function resourceHashCode(resource: unknown): string {
  return createHash('sha256').update(goJson(resource)).digest('hex');
}
