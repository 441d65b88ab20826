/**
 * TypeBox schema → apiextensions.k8s.io/v1 structural schema, and a checker for the structural-schema rules the
 * API server enforces (KEP 1002 / "Specifying a structural schema"):
 *
 * - every node has a non-empty `type`, except nodes with `x-kubernetes-int-or-string: true` (which must have none)
 *   or `x-kubernetes-preserve-unknown-fields: true`;
 * - `properties` and `additionalProperties` are not used together; maps are `additionalProperties`;
 * - inside `anyOf` / `allOf` / `oneOf` / `not` there are no types, properties, items or descriptions of structure
 *   (only the int-or-string `anyOf` of integer and string is written by us);
 * - no `$ref`, `definitions`, `patternProperties`, `const`, `id`, `$schema`, `dependencies`, `additionalItems`;
 * - `metadata` at the root says only `type: object`.
 */
import type { TSchema } from '@sinclair/typebox';
import { CrdSchemaError } from '../errors.js';
import type { JsonSchemaProps } from './definition.js';

const ALLOWED_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'properties',
  'additionalProperties',
  'nullable',
  'example',
  'externalDocs',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);

const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);
/** TypeBox's key for `Type.Record(Type.String(), V)`. */
const ANY_KEY_PATTERN = '^(.*)$';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sorted keys at every level (controller-gen's order, and a stable file), arrays kept in order. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
  return out;
}

function convert(node: unknown, at: string): JsonSchemaProps {
  if (!isRecord(node)) throw new CrdSchemaError(at, 'a schema node must be an object');
  const out: JsonSchemaProps = {};
  for (const [k, v] of Object.entries(node)) {
    switch (k) {
      case 'properties': {
        if (!isRecord(v)) throw new CrdSchemaError(at, '`properties` must be an object');
        const props: Record<string, JsonSchemaProps> = {};
        for (const [name, sub] of Object.entries(v)) props[name] = convert(sub, `${at}/properties/${name}`);
        if (Object.keys(props).length > 0) out['properties'] = props;
        break;
      }
      case 'patternProperties': {
        if (!isRecord(v)) throw new CrdSchemaError(at, '`patternProperties` must be an object');
        const keys = Object.keys(v);
        if (keys.length !== 1 || keys[0] !== ANY_KEY_PATTERN) {
          throw new CrdSchemaError(at, 'only maps with any string key (Type.Record(Type.String(), …)) can be written to a CRD');
        }
        out['additionalProperties'] = convert(v[ANY_KEY_PATTERN], `${at}/patternProperties`);
        break;
      }
      case 'additionalProperties':
        if (v === false) break; // the default for a structural schema with properties
        out[k] = typeof v === 'boolean' ? v : convert(v, `${at}/additionalProperties`);
        break;
      case 'items':
        if (Array.isArray(v)) throw new CrdSchemaError(at, 'tuple `items` cannot be written to a CRD');
        out[k] = convert(v, `${at}/items`);
        break;
      case 'anyOf':
      case 'allOf':
      case 'oneOf':
        if (!Array.isArray(v)) throw new CrdSchemaError(at, `\`${k}\` must be an array`);
        out[k] = v.map((sub, i) => convert(sub, `${at}/${k}/${i}`));
        break;
      case 'not':
        out[k] = convert(v, `${at}/not`);
        break;
      case 'required':
        if (!Array.isArray(v)) throw new CrdSchemaError(at, '`required` must be an array');
        if (v.length > 0) out[k] = [...(v as string[])].sort();
        break;
      default:
        if (!ALLOWED_KEYWORDS.has(k)) {
          throw new CrdSchemaError(at, `keyword ${JSON.stringify(k)} is not allowed in a CRD schema`);
        }
        out[k] = v;
    }
  }
  return out;
}

/**
 * Converts a TypeBox schema to a structural `openAPIV3Schema` (plain JSON, keys sorted). Throws
 * {@link CrdSchemaError} for anything that cannot be written, or when the result breaks a structural rule.
 */
export function toStructuralSchema(schema: TSchema): JsonSchemaProps {
  const plain = JSON.parse(JSON.stringify(schema)) as unknown;
  const out = sortKeys(convert(plain, '')) as JsonSchemaProps;
  const violations = structuralSchemaViolations(out);
  if (violations.length > 0) throw new CrdSchemaError('', `not a structural schema: ${violations.join('; ')}`);
  return out;
}

function checkJunctor(node: JsonSchemaProps, at: string, out: string[]): void {
  for (const k of ['type', 'properties', 'additionalProperties', 'items', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'description', 'default', 'nullable']) {
    if (k in node) out.push(`${at}: ${JSON.stringify(k)} is not allowed inside anyOf/allOf/oneOf/not`);
  }
}

function walk(node: unknown, at: string, out: string[], root: boolean): void {
  if (!isRecord(node)) {
    out.push(`${at}: a schema node must be an object`);
    return;
  }
  for (const k of Object.keys(node)) {
    if (!ALLOWED_KEYWORDS.has(k)) out.push(`${at}: keyword ${JSON.stringify(k)} is not allowed`);
  }
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const type = node['type'];
  if (intOrString) {
    if (type !== undefined) out.push(`${at}: must not have a type with x-kubernetes-int-or-string`);
    const anyOf = node['anyOf'];
    if (anyOf !== undefined) {
      const ok =
        Array.isArray(anyOf) &&
        anyOf.length === 2 &&
        isRecord(anyOf[0]) &&
        isRecord(anyOf[1]) &&
        anyOf[0]['type'] === 'integer' &&
        anyOf[1]['type'] === 'string' &&
        Object.keys(anyOf[0]).length === 1 &&
        Object.keys(anyOf[1]).length === 1;
      if (!ok) out.push(`${at}: the anyOf of an int-or-string node must be [{type: integer}, {type: string}]`);
    }
  } else {
    if (type === undefined) {
      if (!preserve || root) out.push(`${at}: must have a type`);
    } else if (typeof type !== 'string' || !TYPES.has(type)) {
      out.push(`${at}: type ${JSON.stringify(type)} is not one of ${[...TYPES].join(', ')}`);
    }
    for (const k of ['anyOf', 'allOf', 'oneOf']) {
      const list = node[k];
      if (Array.isArray(list)) list.forEach((sub, i) => isRecord(sub) && checkJunctor(sub, `${at}/${k}/${i}`, out));
    }
    if (isRecord(node['not'])) checkJunctor(node['not'], `${at}/not`, out);
  }
  if (root && type !== 'object') out.push(`${at || '/'}: the root must be of type object`);
  if (node['properties'] !== undefined && node['additionalProperties'] !== undefined) {
    out.push(`${at}: properties and additionalProperties are mutually exclusive`);
  }
  if (node['x-kubernetes-embedded-resource'] === true) {
    if (type !== 'object') out.push(`${at}: an embedded resource must be of type object`);
    if (node['properties'] === undefined && !preserve) {
      out.push(`${at}: an embedded resource needs properties or x-kubernetes-preserve-unknown-fields`);
    }
  }
  if (node['items'] !== undefined && type !== 'array') out.push(`${at}: items on a non-array`);
  if (type === 'array' && node['items'] === undefined) out.push(`${at}: an array must have items`);
  if (node['required'] !== undefined && isRecord(node['properties'])) {
    for (const r of node['required'] as string[]) {
      if (!(r in node['properties'])) out.push(`${at}: required property ${JSON.stringify(r)} is not in properties`);
    }
  }
  const props = node['properties'];
  if (isRecord(props)) {
    if (type !== 'object') out.push(`${at}: properties on a non-object`);
    for (const [name, sub] of Object.entries(props)) {
      if (root && name === 'metadata') {
        if (!isRecord(sub) || sub['type'] !== 'object' || Object.keys(sub).some((k) => k !== 'type' && k !== 'description')) {
          out.push(`${at}/properties/metadata: at the root metadata may only be {type: object}`);
        }
        continue;
      }
      walk(sub, `${at}/properties/${name}`, out, false);
    }
  }
  if (isRecord(node['additionalProperties'])) walk(node['additionalProperties'], `${at}/additionalProperties`, out, false);
  if (isRecord(node['items'])) walk(node['items'], `${at}/items`, out, false);
}

/** The structural-schema rules a schema breaks (empty when the API server would accept it as structural). */
export function structuralSchemaViolations(schema: JsonSchemaProps): string[] {
  const out: string[] = [];
  walk(schema, '', out, true);
  return out;
}
