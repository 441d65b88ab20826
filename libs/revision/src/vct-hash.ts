/**
 * The `kruise.io/cloneset-volumeclaimtemplate-hash` annotation (Kruise `volumeclaimtemplate.PatchVCTemplateHash`):
 * the templates reduced to `{metadata: {name}, spec}`, sorted by name, JSON-encoded from the Go structs, and hashed
 * with `DeepHashObject(fnv32a, jsonBytes)`; the decimal value is stored ("" when there are no templates).
 *
 * Go encodes structs in field order, not sorted, and emits some zero values (`creationTimestamp: null`, `status: {}`,
 * `resources: {}`); {@link volumeClaimTemplatesJson} reproduces that for the PVC fields Kubernetes 1.36 defines and
 * sorts unknown members after them. Literal hashes match Kruise's only as far as that reproduction goes; Regatta
 * relies on the hash being stable and changing with the templates, which it is.
 */
import { canonicalQuantity, isPlainObject } from '@regatta/kube';
import { goJson, goQuote } from './go-json.js';
import { deepHashJsonBytes } from './hash.js';
import { VCT_HASH_ANNOTATION } from './keys.js';
import type { ControllerRevision, VolumeClaimTemplate } from './types.js';

type Fields = readonly (readonly [name: string, mode: 'omitempty' | 'always' | 'nullable'])[];

const PVC_SPEC_FIELDS: Fields = [
  ['accessModes', 'omitempty'],
  ['selector', 'omitempty'],
  ['resources', 'always'],
  ['volumeName', 'omitempty'],
  ['storageClassName', 'omitempty'],
  ['volumeMode', 'omitempty'],
  ['dataSource', 'omitempty'],
  ['dataSourceRef', 'omitempty'],
  ['volumeAttributesClassName', 'omitempty'],
];
const RESOURCES_FIELDS: Fields = [
  ['limits', 'omitempty'],
  ['requests', 'omitempty'],
];
const SELECTOR_FIELDS: Fields = [
  ['matchLabels', 'omitempty'],
  ['matchExpressions', 'omitempty'],
];
const REQUIREMENT_FIELDS: Fields = [
  ['key', 'always'],
  ['operator', 'always'],
  ['values', 'omitempty'],
];
const DATA_SOURCE_FIELDS: Fields = [
  ['apiGroup', 'nullable'],
  ['kind', 'always'],
  ['name', 'always'],
];
const DATA_SOURCE_REF_FIELDS: Fields = [...DATA_SOURCE_FIELDS, ['namespace', 'omitempty']];

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === false || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.keys(v).length === 0;
}

function quantities(v: unknown): unknown {
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, q] of Object.entries(v))
    out[k] = typeof q === 'string' || typeof q === 'number' ? safeCanonical(q) : q;
  return out;
}

function safeCanonical(q: string | number): string {
  try {
    return canonicalQuantity(q);
  } catch {
    return String(q);
  }
}

function struct(value: unknown, fields: Fields, nested: Record<string, (v: unknown) => string> = {}): string {
  const obj = isPlainObject(value) ? value : {};
  const parts: string[] = [];
  for (const [name, mode] of fields) {
    const v = obj[name];
    if (mode === 'omitempty' && isEmpty(v)) continue;
    const render = nested[name];
    if (mode === 'nullable' && (v === undefined || v === null)) parts.push(`${goQuote(name)}:null`);
    else if (render) parts.push(`${goQuote(name)}:${render(v)}`);
    else parts.push(`${goQuote(name)}:${goJson(v ?? '')}`);
  }
  const known = new Set(fields.map(([n]) => n));
  for (const k of Object.keys(obj).sort()) {
    if (!known.has(k) && !isEmpty(obj[k])) parts.push(`${goQuote(k)}:${goJson(obj[k])}`);
  }
  return `{${parts.join(',')}}`;
}

function specJson(spec: unknown): string {
  return struct(spec, PVC_SPEC_FIELDS, {
    resources: (r) =>
      struct(r, RESOURCES_FIELDS, {
        limits: (v) => goJson(quantities(v)),
        requests: (v) => goJson(quantities(v)),
      }),
    selector: (s) =>
      struct(s, SELECTOR_FIELDS, {
        matchExpressions: (list) =>
          `[${(Array.isArray(list) ? list : []).map((r) => struct(r, REQUIREMENT_FIELDS)).join(',')}]`,
      }),
    dataSource: (d) => struct(d, DATA_SOURCE_FIELDS),
    dataSourceRef: (d) => struct(d, DATA_SOURCE_REF_FIELDS),
  });
}

/** The JSON Go writes for `[]PersistentVolumeClaim{{ObjectMeta{Name}, Spec}}` of the templates sorted by name. */
export function volumeClaimTemplatesJson(templates: readonly VolumeClaimTemplate[]): string {
  const sorted = templates
    .map((t, i) => ({ t, i, name: t.metadata?.name ?? '' }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.i - b.i));
  const items = sorted.map(
    ({ t, name }) =>
      `{"metadata":{${name ? `"name":${goQuote(name)},` : ''}"creationTimestamp":null},"spec":${specJson(t.spec)},"status":{}}`,
  );
  return `[${items.join(',')}]`;
}

/** The annotation value for these templates: the decimal hash, or "" when there are none. */
export function volumeClaimTemplatesHash(
  templates: readonly VolumeClaimTemplate[] | null | undefined,
): string {
  if (!templates || templates.length === 0) return '';
  return String(deepHashJsonBytes(volumeClaimTemplatesJson(templates)));
}

/** The VCT hash recorded on a revision, if the annotation exists. */
export function revisionVolumeClaimTemplatesHash(revision: ControllerRevision): string | undefined {
  return revision.metadata?.annotations?.[VCT_HASH_ANNOTATION];
}

/**
 * Kruise `CanVCTemplateInplaceUpdate`: true unless both revisions carry the annotation and the values differ (a
 * revision without it, written before the feature, never forces a recreate).
 */
export function canVolumeClaimTemplatesUpdateInPlace(
  oldRevision: ControllerRevision,
  newRevision: ControllerRevision,
): boolean {
  const oldHash = revisionVolumeClaimTemplatesHash(oldRevision);
  const newHash = revisionVolumeClaimTemplatesHash(newRevision);
  if (oldHash === undefined || newHash === undefined) return true;
  return oldHash === newHash;
}
