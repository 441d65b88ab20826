// R5's search for a Secret's data in a bus value. Pure.

/**
 * Where a bus value gives a Secret's data away: each needle (a datum in clear or base64) found in it, and a mirrored
 * Secret that kept a `data` or `stringData` field (with any content). Empty when the value is clean.
 */
export function secretLeaks(value: string, needles: readonly string[]): string[] {
  const found = needles
    .filter((n) => n.length > 0 && value.includes(n))
    .map((n) => `holds "${n.slice(0, 24)}…"`);
  let obj: unknown;
  try {
    obj = JSON.parse(value);
  } catch {
    return found;
  }
  // a mirror value is the object, or an envelope holding it under `object`
  for (const o of [obj, (obj as { object?: unknown } | null)?.object]) {
    if (!o || typeof o !== 'object') continue;
    const s = o as { kind?: unknown; data?: unknown; stringData?: unknown };
    if (s.kind !== 'Secret') continue;
    for (const f of ['data', 'stringData'] as const)
      if (
        s[f] !== undefined &&
        !(typeof s[f] === 'object' && s[f] !== null && Object.keys(s[f]).length === 0)
      )
        found.push(`a Secret with ${f}`);
  }
  return found;
}
