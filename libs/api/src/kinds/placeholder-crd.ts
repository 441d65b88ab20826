/**
 * The one shape of every PLACEHOLDER kind: group `apps.kruise.io`, `<Kind>List`, lower-case singular, spec/status
 * kept whole ({@link placeholderKindSchema}), the status subresource, and OpenKruise's versions and printer columns.
 */
import type { TSchema } from '@sinclair/typebox';
import { KRUISE_APPS_GROUP } from '../group.js';
import type { CrdDefinition, PrinterColumn, ScaleSubresource } from '../crd/definition.js';
import { placeholderKindSchema } from '../schemas/placeholder.js';

export interface PlaceholderKind {
  kind: string;
  plural: string;
  shortNames?: readonly string[];
  scope: 'Namespaced' | 'Cluster';
  /** Served versions, oldest first; the last one is stored (default `v1alpha1`, `v1beta1`). */
  versions?: readonly string[];
  printerColumns: readonly PrinterColumn[];
  /** Columns only one version shows, appended to {@link printerColumns} (e.g. ImagePullJob v1alpha1's MESSAGE). */
  extraColumns?: Readonly<Record<string, readonly PrinterColumn[]>>;
  /** The few typed fields the scale subresource or the printer columns need. */
  fields?: { spec?: Record<string, TSchema>; status?: Record<string, TSchema> };
  scale?: ScaleSubresource;
}

export function placeholderCrd(k: PlaceholderKind): CrdDefinition {
  const schema = placeholderKindSchema(k.fields);
  const names = k.versions ?? ['v1alpha1', 'v1beta1'];
  return {
    group: KRUISE_APPS_GROUP,
    kind: k.kind,
    listKind: `${k.kind}List`,
    plural: k.plural,
    singular: k.kind.toLowerCase(),
    ...(k.shortNames ? { shortNames: k.shortNames } : {}),
    scope: k.scope,
    placeholder: true,
    versions: names.map((name, i) => ({
      name,
      served: true,
      storage: i === names.length - 1,
      schema,
      subresources: k.scale ? { status: true, scale: k.scale } : { status: true },
      printerColumns: [...k.printerColumns, ...(k.extraColumns?.[name] ?? [])],
    })),
  };
}
