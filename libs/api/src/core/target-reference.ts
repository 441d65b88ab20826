/**
 * A reference to a workload by apiVersion, kind and name (a PodUnavailableBudget's and a WorkloadSpread's
 * `targetRef`), compared as upstream's `IsReferenceEqual` does: by group, kind and name, whatever the version.
 */

/** Whether `apiVersion` is `group/version` or a core `version`, as Go's `schema.ParseGroupVersion` takes it. */
export function isGroupVersion(apiVersion: string | undefined): boolean {
  if (!apiVersion) return false;
  const parts = apiVersion.split('/');
  return parts.length === 1 || (parts.length === 2 && parts[0] !== '' && parts[1] !== '');
}

/** The group of an apiVersion: `apps/v1` → `apps`, `v1` → `` (the core group). */
export function groupOf(apiVersion: string | undefined): string {
  const v = apiVersion ?? '';
  const slash = v.indexOf('/');
  return slash < 0 ? '' : v.slice(0, slash);
}

/** Two references name the same workload: same group, kind and name (the version may differ). */
export function sameTarget(
  a: { apiVersion?: string; kind?: string; name?: string } | undefined,
  b: { apiVersion?: string; kind?: string; name?: string } | undefined,
): boolean {
  return (
    !!a &&
    !!b &&
    isGroupVersion(a.apiVersion) &&
    groupOf(a.apiVersion) === groupOf(b.apiVersion) &&
    a.kind === b.kind &&
    a.name === b.name
  );
}
