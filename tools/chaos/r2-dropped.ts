// R2's second half: the fields of a fuzzed object that the API server did not keep when it stored it. A SidecarSet
// sent as v1alpha1 is stored as v1beta1 without a conversion webhook, and v1beta1 has no `spec.namespace`, so that
// field is dropped (docs/reliability.md finding 22). The webhook judged the object as sent; the program reads it as
// stored. An object whose mutations name a dropped field is not the object the webhook refused, so it is not judged.

/** The value at a dotted path (numeric keys index arrays), or undefined when some step is missing. */
function valueAt(o: unknown, path: string): unknown {
  let cur: unknown = o;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(k in cur)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** The path a mutation description names (`spec.namespace = "-ns"`), or undefined for a named mutation. */
function mutatedPath(mutation: string): string | undefined {
  const i = mutation.indexOf(' = ');
  return i > 0 ? mutation.slice(0, i) : undefined;
}

/** The mutated paths the sent object has and the stored one does not. */
export function droppedOnStore(sent: unknown, stored: unknown, mutations: readonly string[]): string[] {
  return mutations
    .map(mutatedPath)
    .filter(
      (p): p is string =>
        p !== undefined && valueAt(sent, p) !== undefined && valueAt(stored, p) === undefined,
    );
}
