/**
 * What a pod's annotation says, read once per pod version. The upgrade reconcile runs over every pod a SidecarSet
 * matches on every pod event (docs/sidecarset.md, "Performance"), and its JSON annotations (`kruise.io/sidecarset-hash`
 * and `-without-image`, the working hot-upgrade twins, the in-place update state) were parsed again each time: the
 * work of creating N selected pods grew as N². A cached pod is replaced whole when it changes (the bus cache decodes
 * each update into a new object, docs/adr/0060-pod-projection.md), so the value is kept beside the pod's annotations
 * object, in a WeakMap: it goes when the pod version does, and nothing has to be dropped by hand on delete.
 */

type Annotations = Readonly<Record<string, string>>;

/**
 * `derive` of the annotation `key`, computed once per annotations object and raw value: a hit also needs the raw
 * string to be the one the value came from, so an annotations object changed in place (a test, a planned pod) is read
 * again. The value is shared by every caller: `derive` should return it frozen.
 */
export function annotationMemo<T>(
  key: string,
  derive: (raw: string | undefined) => T,
): (annotations: Annotations | undefined) => T {
  const memo = new WeakMap<Annotations, { raw: string; value: T }>();
  return (annotations) => {
    const raw = annotations?.[key];
    if (annotations === undefined || raw === undefined) return derive(raw);
    const hit = memo.get(annotations);
    if (hit !== undefined && hit.raw === raw) return hit.value;
    const value = derive(raw);
    memo.set(annotations, { raw, value });
    return value;
  };
}
