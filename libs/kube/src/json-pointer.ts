/** RFC 6901 JSON Pointers: `/metadata/annotations/apps.kruise.io~1inplace-update-state`. */

export class JsonPointerError extends Error {
  readonly code = 'REGATTA_KUBE_JSON_POINTER';

  constructor(
    readonly pointer: string,
    reason: string,
  ) {
    super(`invalid JSON pointer ${JSON.stringify(pointer)}: ${reason}; a pointer is '' or '/'-separated tokens with '~' written '~0' and '/' written '~1'`);
    this.name = 'JsonPointerError';
  }
}

/** Escapes one reference token: `~` → `~0`, `/` → `~1`. */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Reverses {@link escapePointerToken} (`~1` first, then `~0`, as RFC 6901 requires). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Builds a pointer from unescaped tokens; `[]` is the whole document `''`. */
export function formatPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}

/** Splits a pointer into unescaped tokens; throws {@link JsonPointerError}. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPointerError(pointer, "it must be empty or start with '/'");
  if (/~[^01]|~$/.test(pointer)) throw new JsonPointerError(pointer, "'~' must be followed by 0 or 1");
  return pointer.slice(1).split('/').map(unescapePointerToken);
}
