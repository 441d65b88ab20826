/**
 * REST mapping of kinds to resources: plural name and scope, from the one kind table (kind-table.ts,
 * docs/adr/0071-one-typed-kind-registry.md); other kinds are resolved by discovery in {@link KubeClient}. Plural and
 * scope belong to the group and kind, not the version, so one entry serves every version of a kind.
 */
import type { KindRef } from './kind.js';
import { KIND_TABLE } from './kind-table.js';
import { splitApiVersion } from './meta.js';

/** How the client addresses a kind: a {@link KindRef} without its version. */
export type ResourceInfo = Omit<KindRef, 'version'>;

/** The static mapping: every kind of the kind table (kind-table.ts). */
export const KNOWN_RESOURCES: readonly ResourceInfo[] = Object.values(KIND_TABLE);

const byGroupKind = new Map(KNOWN_RESOURCES.map((r) => [`${r.group}/${r.kind}`, r]));

/** The static mapping for a kind, if it is one of {@link KNOWN_RESOURCES}. */
export function knownResource(apiVersion: string, kind: string): ResourceInfo | undefined {
  return byGroupKind.get(`${splitApiVersion(apiVersion).group}/${kind}`);
}

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function apiVersionPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

/**
 * The URL path of a collection, an object or a subresource. `namespace` is ignored for cluster-scoped resources;
 * a namespaced resource without one addresses all namespaces (valid for list only).
 */
export function resourcePath(
  info: ResourceInfo,
  apiVersion: string,
  namespace: string | undefined,
  name?: string,
  subresource?: string,
): string {
  let p = apiVersionPath(apiVersion);
  if (info.namespaced && namespace) p += `/namespaces/${encodeURIComponent(namespace)}`;
  p += `/${info.plural}`;
  if (name !== undefined) p += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined) p += `/${subresource}`;
  return p;
}

/**
 * A field selector string from a map, escaping `\`, `,` and `=` in values as apimachinery's `fields.EscapeValue`:
 * `{ 'spec.nodeName': 'n1' }` → `spec.nodeName=n1`.
 */
export function fieldSelectorToString(fields: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k}=${v.replace(/[\\,=]/g, (c) => `\\${c}`)}`)
    .join(',');
}
