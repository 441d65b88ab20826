/**
 * Deterministic JSON the way Go's `encoding/json` writes a `map[string]interface{}`: object keys sorted (by UTF-16
 * code unit, which equals Go's byte order for the ASCII keys Kubernetes uses), no whitespace, and the HTML-safe
 * escapes `<` `>` `&` → `\u003c` `\u003e` `\u0026`, plus U+2028/U+2029 → `\u2028`/`\u2029`. Lone surrogates become
 * U+FFFD as Go's UTF-8 validation would make them. `undefined` object members are dropped, `undefined` in arrays is
 * `null`. This is what ControllerRevision data and the hashes over it are computed from.
 */

/** A value that cannot be written as JSON (a function, a symbol, a bigint, a non-finite number). */
export class GoJsonError extends Error {
  readonly code = 'REGATTA_REVISION_UNSERIALIZABLE';

  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${message} at ${path || '(root)'}; only plain JSON values can be hashed or stored in a revision`);
    this.name = 'GoJsonError';
  }
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

// control characters, the HTML-unsafe ones, the two line separators, and any surrogate (checked for pairing below)
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be found
const NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;

function isJsonObject(v: object): v is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function hex4(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A JSON string literal with Go's escaping. */
export function goQuote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] ?? '';
    const code = s.charCodeAt(i);
    const esc = ESCAPES[ch];
    if (esc !== undefined) out += esc;
    else if (code < 0x20) out += hex4(code);
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += ch + (s[i + 1] ?? '');
        i++;
      } else out += '\ufffd';
    } else if (code >= 0xdc00 && code <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

function write(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return goQuote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new GoJsonError(path, `the number ${value} has no JSON form`);
      // JS and Go both print the shortest round-tripping form, switching to exponent form below 1e-6 and from 1e21
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new GoJsonError(path, `a ${typeof value} has no JSON form`);
  }
  if (Array.isArray(value)) {
    return `[${value.map((v, i) => (v === undefined ? 'null' : write(v, `${path}/${i}`))).join(',')}]`;
  }
  if (!isJsonObject(value)) throw new GoJsonError(path, 'only plain objects have a JSON form');
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${goQuote(k)}:${write(value[k], `${path}/${k}`)}`).join(',')}}`;
}

/** Go `json.Marshal` of the value decoded into `interface{}`: sorted keys, compact, Go escaping. */
export function goJson(value: unknown): string {
  return write(value, '');
}
