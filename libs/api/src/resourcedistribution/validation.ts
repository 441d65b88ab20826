/**
 * ResourceDistribution validation, as OpenKruise's webhook
 * (`pkg/webhook/resourcedistribution/validating/resourcedistribution_create_update_handler.go`), pure: metadata,
 * the embedded resource (decodable, a Secret or a ConfigMap, apiVersion/kind/name immutable on update) and the
 * targets. The server-side dry-run create of the resource is the webhook's (it needs the API server); see
 * {@link dryRunErrors}. Paths name the request version's fields.
 */
import {
  type FieldError,
  FieldPath,
  fieldErrors,
  isDns1123Label,
  isPlainObject,
  validateLabelSelector,
  type LabelSelector,
} from '@regatta/kube';
import { validateObjectMeta } from '../core/meta-validation.js';
import { RESOURCE_DISTRIBUTION_SUPPORTED_KINDS } from './types.js';
import { selectorFieldOf, type ResourceDistributionVersion } from './version.js';

type Obj = Record<string, unknown>;

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');
/** Go's `%v` of the supported GroupKinds (`GroupKind.String()`: the kind, then `.group` when there is one). */
const SUPPORTED = `[${RESOURCE_DISTRIBUTION_SUPPORTED_KINDS.map((gk) => (gk.group ? `${gk.kind}.${gk.group}` : gk.kind)).join(' ')}]`;

export const EMPTY_RESOURCE = 'empty resource is not allowed';
export const UNSUPPORTED_RESOURCE = `unknown or unsupported resource GroupKind, only support ${SUPPORTED}`;
export const IMMUTABLE_RESOURCE = 'resource apiVersion, kind, and name are immutable';

/** The embedded resource, or the errors that make it unusable (empty, not an object with apiVersion and kind). */
export function decodeResource(resource: unknown, path: FieldPath): { resource?: Obj; errors: FieldError[] } {
  if (resource == null || (isPlainObject(resource) && Object.keys(resource).length === 0)) {
    return { errors: [fieldErrors.invalid(path, null, EMPTY_RESOURCE)] };
  }
  if (!isPlainObject(resource)) {
    return { errors: [internal(path, 'failed to deserialize resource, please check your spec.resource, err: not an object')] };
  }
  const missing = ['apiVersion', 'kind'].filter((k) => typeof resource[k] !== 'string' || resource[k] === '');
  if (missing.length > 0) {
    return {
      errors: [
        internal(
          path,
          `failed to deserialize resource, please check your spec.resource, err Object '${missing.map(cap).join("', '")}' is missing`,
        ),
      ],
    };
  }
  return { resource, errors: [] };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const internal = (path: FieldPath, detail: string): FieldError => ({ type: 'InternalError', field: `${path}`, detail });

/** Whether the resource's GroupKind is one OpenKruise distributes. */
export function isSupportedResource(resource: Obj): boolean {
  const group = groupOf(String(resource['apiVersion'] ?? ''));
  return RESOURCE_DISTRIBUTION_SUPPORTED_KINDS.some((gk) => gk.group === group && gk.kind === resource['kind']);
}

const nameOf = (r: Obj): unknown => (isPlainObject(r['metadata']) ? r['metadata']['name'] : undefined);

/** `spec.resource` rules (all but the dry-run). */
export function resourceErrors(resource: unknown, oldResource: unknown, path: FieldPath): FieldError[] {
  const decoded = decodeResource(resource, path);
  if (!decoded.resource) return decoded.errors;
  const errs: FieldError[] = [];
  let old: Obj | undefined;
  if (oldResource !== undefined) {
    const o = decodeResource(oldResource, path);
    errs.push(...o.errors);
    old = o.resource;
  }
  const r = decoded.resource;
  if (!isSupportedResource(r)) {
    const gk = `${String(r['kind'])}${groupOf(String(r['apiVersion'])) ? `.${groupOf(String(r['apiVersion']))}` : ''}`;
    return [...errs, fieldErrors.invalid(path, gk, UNSUPPORTED_RESOURCE)];
  }
  if (old && (old['apiVersion'] !== r['apiVersion'] || old['kind'] !== r['kind'] || nameOf(old) !== nameOf(r))) {
    return [...errs, fieldErrors.invalid(path, null, IMMUTABLE_RESOURCE)];
  }
  return errs;
}

interface NamespaceList {
  list?: { name?: string }[];
}

const names = (l: unknown): string[] =>
  isPlainObject(l) && Array.isArray(l['list'])
    ? (l['list'] as unknown[]).map((n) => (isPlainObject(n) && typeof n['name'] === 'string' ? n['name'] : ''))
    : [];

/** `validateResourceDistributionTargets`: namespace names, included ∩ excluded, the selector. */
export function targetsErrors(targets: unknown, version: ResourceDistributionVersion, path: FieldPath): FieldError[] {
  const t = (isPlainObject(targets) ? targets : {}) as Obj & {
    includedNamespaces?: NamespaceList;
    excludedNamespaces?: NamespaceList;
  };
  const errs: FieldError[] = [];
  const included = names(t.includedNamespaces);
  for (const n of included) {
    for (const msg of isDns1123Label(n)) errs.push(fieldErrors.invalid(path.child('includedNamespaces'), n, msg));
  }
  const conflicted: string[] = [];
  for (const n of names(t.excludedNamespaces)) {
    for (const msg of isDns1123Label(n)) errs.push(fieldErrors.invalid(path.child('excludedNamespaces'), n, msg));
    if (included.includes(n)) conflicted.push(n);
  }
  if (conflicted.length > 0) {
    errs.push(
      fieldErrors.invalid(
        path,
        targets,
        `ambiguous targets because namespace [${conflicted.join(' ')}] is in both IncludedNamespaces.List and ExcludedNamespaces.List`,
      ),
    );
  }
  const field = selectorFieldOf(version);
  const selector = t[field];
  if (selector != null) {
    const selectorErrs = isPlainObject(selector)
      ? validateLabelSelector(selector as LabelSelector, path.child(field))
      : [fieldErrors.invalid(path.child(field), selector, 'must be a label selector')];
    if (selectorErrs.length > 0) {
      const detail = selectorErrs.map((e) => `${e.field}: ${e.detail}`).join('; ');
      errs.push(fieldErrors.invalid(path.child(field), selector, `labelSelectorAsSelector error: ${detail}`));
    }
  }
  return errs;
}

/**
 * Every rule of a CREATE (`oldObj` undefined) or UPDATE, except the dry-run; empty when allowed.
 * `version` is the request's (`request.resource.version`).
 */
export function validateResourceDistribution(
  obj: unknown,
  version: ResourceDistributionVersion,
  oldObj?: unknown,
): FieldError[] {
  const o = (isPlainObject(obj) ? obj : {}) as Obj;
  const errs = validateObjectMeta(o['metadata'] ?? {}, false, FieldPath.root('metadata'));
  const spec = FieldPath.root('spec');
  const s = isPlainObject(o['spec']) ? o['spec'] : {};
  const old = isPlainObject(oldObj) && isPlainObject(oldObj['spec']) ? oldObj['spec'] : undefined;
  const resource = resourceErrors(s['resource'], old ? old['resource'] : undefined, spec.child('resource'));
  errs.push(...resource);
  // upstream stops at an undecodable resource; the targets are checked otherwise
  if (decodeResource(s['resource'], spec.child('resource')).resource) {
    errs.push(...targetsErrors(s['targets'], version, spec.child('targets')));
  }
  return errs;
}

/** How the dry-run create of the resource failed, as upstream maps it (Invalid/BadRequest, Forbidden, other). */
export type DryRunFailure = { kind: 'invalid' | 'forbidden' | 'other'; message: string } | undefined;

export function dryRunErrors(failure: DryRunFailure, path: FieldPath = FieldPath.root('spec', 'resource')): FieldError[] {
  if (!failure) return [];
  if (failure.kind === 'invalid') return [fieldErrors.invalid(path, null, `spec.resource is invalid: ${failure.message}`)];
  if (failure.kind === 'forbidden') return [fieldErrors.forbidden(path, `spec.resource is forbidden: ${failure.message}`)];
  return [internal(path, `failed to dry-run validate spec.resource: ${failure.message}`)];
}
