/**
 * Request bodies as Go's `encoding/json` writes strings: `<`, `>`, `&`, U+2028 and U+2029 escaped (`\u003c` …), the
 * rest as `JSON.stringify` writes them (which matches Go for control characters). The API server keeps some fields
 * as the exact bytes it received (a ControllerRevision's `data`) and compares them with what it re-encodes when a
 * patch touches the object; bytes that Go would have written differently make such a patch fail ("field is
 * immutable"). Escaping changes no value: `\u0026` is `&` to every JSON reader.
 */
const GO_ESCAPED = /[<>&\u2028\u2029]/g;

export function goEscapedJson(value: unknown): string {
  return JSON.stringify(value).replace(
    GO_ESCAPED,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
