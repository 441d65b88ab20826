/**
 * More of core `ValidatePodSpec` (Kubernetes 1.32, `pkg/apis/core/validation/validation.go`), as OpenKruise's
 * webhooks run it on a workload's template (`webhookutil.DefaultPodValidationOptions`, so environment variable
 * names are checked strictly, not with `RelaxedEnvironmentVariableValidation`):
 *
 * - env names: `IsEnvVarName` (`ValidateEnv`);
 * - container resources: resource names (`validateContainerResourceName`), quantities that parse, are not negative
 *   and whole for integer resources (`ValidateResourceQuantityValue`), requests ≤ limits, and equal to them for
 *   resources that cannot be overcommitted (`validateResourceRequirements`);
 * - node affinity: a required node selector has at least one term, each requirement's operator and values agree,
 *   preferred terms weigh 1–100 (`validateNodeAffinity`);
 * - `activeDeadlineSeconds` in 1..2³¹−1.
 *
 * A quantity that does not parse is a JSON decoding error in OpenKruise (a 400 without a field path); here it is an
 * `Invalid` error at its field, with apimachinery's message. Inputs are the typed template after the shape check
 * (`pod-template-shape.ts`), so only values declared `any` there (quantities) need a type test.
 */
import { type FieldError, type FieldPath, fieldErrors, isQualifiedName, parseQuantity, type Quantity, QuantityParseError } from '@regatta/kube';
import type { Container } from './pod-types.js';

const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME_RE = new RegExp(`^${ENV_VAR_NAME_FMT}$`);

/** apimachinery `IsEnvVarName`. */
export function envVarNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_NAME_RE.test(name)) {
    errs.push(
      "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start " +
        `with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '${ENV_VAR_NAME_FMT}')`,
    );
  }
  if (name === '.') errs.push("must not be '.'");
  else if (name === '..') errs.push("must not be '..'");
  else if (name.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** `ValidateEnv`: every variable has a valid name. */
export function validateEnvNames(env: Container['env'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (env ?? []).forEach((e, i) => {
    const p = path.index(i).child('name');
    if (!e.name) errs.push(fieldErrors.required(p, ''));
    else for (const msg of envVarNameErrors(e.name)) errs.push(fieldErrors.invalid(p, e.name, msg));
  });
  return errs;
}

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
/** core `standardResources` (`IsStandardResourceName`), the unprefixed names a quota or a container may use. */
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'storage', 'requests.storage', 'services.nodeports',
  'services.loadbalancers',
]);
const isHugePages = (name: string) => name.startsWith('hugepages-');
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
const isExtended = (name: string) => !isNative(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
/** `IsOvercommitAllowed`: native resources but hugepages. */
const overcommitAllowed = (name: string) => isNative(name) && !isHugePages(name);
/** `IsIntegerResourceName`: extended resources (and object counts, which a container cannot ask for). */
const isIntegerResource = (name: string) => isExtended(name);

/** `validateContainerResourceName`. */
function resourceNameErrors(name: string, p: FieldPath): FieldError[] {
  const syntax = isQualifiedName(name).map((msg) => fieldErrors.invalid(p, name, msg));
  if (syntax.length > 0) return syntax;
  if (!name.includes('/')) {
    if (!STANDARD_RESOURCES.has(name) && !isHugePages(name)) return [fieldErrors.invalid(p, name, 'must be a standard resource type or fully qualified')];
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) return [fieldErrors.invalid(p, name, 'must be a standard resource for containers')];
  } else if (!isNative(name) && !isExtended(name)) {
    return [fieldErrors.invalid(p, name, "doesn't follow extended resource name standard")];
  }
  return [];
}

/** apimachinery's `ErrFormatWrong` text, the reason a quantity does not parse. */
const QUANTITY_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** A quantity, or the error of a value that is none (a JSON string or number in the apimachinery syntax). */
function quantityAt(value: unknown, p: FieldPath): Quantity | FieldError {
  if (typeof value !== 'string' && typeof value !== 'number') {
    return { type: 'FieldValueTypeInvalid', field: `${p}`, badValue: JSON.stringify(value) ?? String(value), detail: 'must be a string or a number' };
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return fieldErrors.invalid(p, value, QUANTITY_FORMAT);
  try {
    return parseQuantity(value);
  } catch (err) {
    if (err instanceof QuantityParseError) return fieldErrors.invalid(p, value, QUANTITY_FORMAT);
    throw err;
  }
}

const isError = (q: Quantity | FieldError): q is FieldError => 'type' in q && 'field' in q;
const ZERO = parseQuantity('0');

/** `ValidateResourceQuantityValue`: not negative; whole for integer resources. */
function quantityValueErrors(name: string, q: Quantity, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (q.cmp(ZERO) < 0) errs.push(fieldErrors.invalid(p, q.toString(), 'must be greater than or equal to 0'));
  if (isIntegerResource(name) && q.nanos % 1_000_000_000n !== 0n) errs.push(fieldErrors.invalid(p, q.toString(), 'must be an integer'));
  return errs;
}

/** `ValidateContainerResourceRequirements` without resource claims; `path` is the container's `resources`. */
export function validateContainerResources(resources: Container['resources'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const limits = new Map<string, Quantity>();
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  for (const [name, value] of Object.entries(resources?.limits ?? {})) {
    const p = limPath.key(name);
    errs.push(...resourceNameErrors(name, p));
    const q = quantityAt(value, p);
    if (isError(q)) errs.push(q);
    else {
      errs.push(...quantityValueErrors(name, q, p));
      limits.set(name, q);
    }
  }
  for (const [name, value] of Object.entries(resources?.requests ?? {})) {
    const p = reqPath.key(name);
    errs.push(...resourceNameErrors(name, p));
    const q = quantityAt(value, p);
    if (isError(q)) {
      errs.push(q);
      continue;
    }
    errs.push(...quantityValueErrors(name, q, p));
    const limit = limits.get(name);
    if (limit) {
      if (q.cmp(limit) !== 0 && !overcommitAllowed(name)) {
        errs.push(fieldErrors.invalid(reqPath, q.toString(), `must be equal to ${name} limit of ${limit.toString()}`));
      } else if (q.cmp(limit) > 0) {
        errs.push(fieldErrors.invalid(reqPath, q.toString(), `must be less than or equal to ${name} limit of ${limit.toString()}`));
      }
    } else if (!overcommitAllowed(name) && !Object.hasOwn(resources?.limits ?? {}, name)) {
      errs.push(fieldErrors.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  return errs;
}

interface Requirement {
  key?: string;
  operator?: string;
  values?: string[];
}
interface Term {
  matchExpressions?: Requirement[];
  matchFields?: Requirement[];
}
export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: Term[] };
  preferredDuringSchedulingIgnoredDuringExecution?: { weight?: number; preference?: Term }[];
}

/** `ValidateNodeSelectorRequirement` (label values are not checked: Kubernetes allows any in node affinity). */
function requirementErrors(r: Requirement, p: FieldPath, labelKey: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const n = (r.values ?? []).length;
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (n === 0) errs.push(fieldErrors.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (n > 0) errs.push(fieldErrors.forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (n !== 1) errs.push(fieldErrors.required(p.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldErrors.invalid(p.child('operator'), r.operator ?? '', 'not a valid selector operator'));
  }
  if (labelKey) for (const msg of isQualifiedName(r.key ?? '')) errs.push(fieldErrors.invalid(p.child('key'), r.key ?? '', msg));
  return errs;
}

function termErrors(t: Term, p: FieldPath): FieldError[] {
  return [
    ...(t.matchExpressions ?? []).flatMap((r, i) => requirementErrors(r, p.child('matchExpressions').index(i), true)),
    // matchFields: only `metadata.name` with In/NotIn and one value is meaningful; the operator checks are shared
    ...(t.matchFields ?? []).flatMap((r, i) => requirementErrors(r, p.child('matchFields').index(i), false)),
  ];
}

/** `validateNodeAffinity`; `path` is `….affinity.nodeAffinity`. */
export function validateNodeAffinity(na: NodeAffinity | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const required = na?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required) {
    const termsPath = path.child('requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
    const terms = required.nodeSelectorTerms ?? [];
    if (terms.length === 0) errs.push(fieldErrors.required(termsPath, 'must have at least one node selector term'));
    terms.forEach((t, i) => errs.push(...termErrors(t, termsPath.index(i))));
  }
  (na?.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
    const p = path.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
    const w = t.weight ?? 0;
    if (w <= 0 || w > 100) errs.push(fieldErrors.invalid(p.child('weight'), w, 'must be in the range 1-100'));
    errs.push(...termErrors(t.preference ?? {}, p.child('preference')));
  });
  return errs;
}

/** `activeDeadlineSeconds`, when set, in 1..2³¹−1. */
export function activeDeadlineErrors(v: number | undefined, p: FieldPath): FieldError[] {
  if (v === undefined || (v >= 1 && v <= 2147483647)) return [];
  return [fieldErrors.invalid(p, v, 'must be between 1 and 2147483647, inclusive')];
}

/**
 * The quantities of volume claim templates (`spec.resources.requests` / `limits` of each): they parse and are not
 * negative. OpenKruise decodes them into `resource.Quantity` (a decoding error otherwise) before
 * `ValidatePersistentVolumeClaimSpec`; the controller would have its claim creates refused forever. `path` is the
 * list's path (`spec.volumeClaimTemplates`). Any JSON value is accepted: members of another type are skipped (the
 * kind's shape reports them).
 */
export function validateClaimTemplateQuantities(claims: unknown, path: FieldPath): FieldError[] {
  if (!Array.isArray(claims)) return [];
  const errs: FieldError[] = [];
  claims.forEach((c: unknown, i) => {
    const resources = (c as { spec?: { resources?: unknown } } | null)?.spec?.resources;
    if (resources == null || typeof resources !== 'object') return;
    for (const part of ['requests', 'limits'] as const) {
      const m = (resources as Record<string, unknown>)[part];
      if (m == null || typeof m !== 'object' || Array.isArray(m)) continue;
      for (const [name, value] of Object.entries(m)) {
        const p = path.index(i).child('spec', 'resources', part).key(name);
        const q = quantityAt(value, p);
        if (isError(q)) errs.push(q);
        else if (q.cmp(ZERO) < 0) errs.push(fieldErrors.invalid(p, q.toString(), 'must be greater than or equal to 0'));
      }
    }
  });
  return errs;
}
