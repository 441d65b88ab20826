/**
 * CloneSet validation, as OpenKruise v1.9's validating webhook (`pkg/webhook/cloneset/validating/validation.go`):
 * the same rules, field paths and messages. Pure functions: the pod look-ups of the `podsToDelete` rule come from
 * the caller (see {@link CloneSetValidationContext}).
 *
 * The object is expected to be defaulted first (admission runs the mutating webhook before this one); a missing
 * `replicas`, `partition`, `maxUnavailable` or `maxSurge` is read as its default so a raw object does not report
 * errors that defaulting would remove.
 *
 * Every entry point accepts any JSON value and never throws: the JSON types of the fields read are checked first
 * (`shape.ts`); an object with type errors gets those errors only, with their paths. Two rules are Regatta's own,
 * stricter than upstream (see docs/cloneset.md, "Validation"): a name of at most 52 characters on CREATE, and no
 * template label the controller sets itself with a meaning ({@link CLONESET_RESERVED_TEMPLATE_LABELS}).
 */
import {
  type FieldError,
  type FieldPath,
  type IntOrString,
  type KubeObject,
  compileLabelSelector,
  fieldErrors,
  fieldPath,
  isSelectorEmpty,
  validateLabelSelector,
} from '@regatta/kube';
import { validateObjectMeta } from '../core/meta-validation.js';
import { validateClaimTemplateQuantities } from '../core/container-rules.js';
import { validatePodTemplateSpecSubset } from '../core/pod-template-validation.js';
import { type Shape, asObject, shapeErrors, stringItems, withoutNullMembers } from '../core/shape.js';
import { reservedTemplateLabelErrors } from './reserved-labels.js';
import { PRIORITY_STRATEGY_SHAPE, SCATTER_STRATEGY_SHAPE, cloneSetShapeErrors } from './shape.js';
import type { PodTemplateSpec, Volume } from '../core/pod-types.js';
import type { UpdatePriorityStrategy } from '../schemas/update-priority.js';
import type { UpdateScatterStrategy } from '../schemas/scatter-strategy.js';
import { intOrStringText, kruiseScaledValue } from './intstr-validation.js';
import {
  CLONESET_UPDATE_STRATEGY_TYPES,
  DEFAULT_CLONESET_MAX_UNAVAILABLE,
  type CloneSet,
  type CloneSetScaleStrategy,
  type CloneSetSpec,
  type CloneSetUpdateStrategy,
} from './types.js';

const MAX_INT32 = 2147483647;

/**
 * Longest CloneSet name whose pods can carry their revision: the `controller-revision-hash` label is
 * `<name>-<hash>`, a label value of at most 63 characters, and the hash (`rand.SafeEncodeString` of a 32-bit FNV
 * sum) has up to 10 characters.
 */
export const CLONESET_NAME_MAX_LENGTH = 63 - 11;

/** What the `podsToDelete` rule needs to know about the namespace's pods. */
export interface CloneSetValidationContext {
  /**
   * The pod of that name in the CloneSet's namespace, `null` when it does not exist. When the function is not given
   * the pod checks of `podsToDelete` are skipped (duplicates are still reported).
   */
  getPod?: (name: string) => KubeObject | null | undefined;
}

const nonNegative = (path: FieldPath, v: number): FieldError[] =>
  v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];

const podsToDeleteOf = (cs: unknown): string[] =>
  stringItems(asObject(asObject(asObject(cs)?.['spec'])?.['scaleStrategy'])?.['podsToDelete']);

/** Names of `scaleStrategy.podsToDelete` the webhook must look up: those not in the old object, sorted. */
export function podsToDeleteToCheck(cs: unknown, old?: unknown): string[] {
  const names = new Set(podsToDeleteOf(cs));
  for (const n of podsToDeleteOf(old)) names.delete(n);
  return [...names].sort();
}

/** The first type error of `value` as a problem text (`weightPriority[0].weight must be an integer`). */
function shapeProblem(value: unknown, shape: Shape): string | undefined {
  const first = shapeErrors(value, shape, fieldPath())[0];
  return first ? `${first.field || 'value'} ${first.detail}` : undefined;
}

/** `UpdatePriorityStrategy.FieldsValidation`: the first problem, or undefined. Any JSON value is accepted. */
export function priorityStrategyProblem(value: unknown): string | undefined {
  const typeProblem = shapeProblem(value, PRIORITY_STRATEGY_SHAPE);
  if (typeProblem !== undefined) return typeProblem;
  const s = withoutNullMembers(value) as UpdatePriorityStrategy | undefined;
  if (!s) return undefined;
  const weights = s.weightPriority ?? [];
  const orders = s.orderPriority ?? [];
  if (weights.length > 0 && orders.length > 0) return 'only one of weightPriority and orderPriority can be used';
  for (const w of weights) {
    if (w.weight < 0 || w.weight > 100) return 'weight must be valid number in the range 1-100';
    if (isSelectorEmpty(w.matchSelector)) return 'selector can not be empty';
    const errs = validateLabelSelector(w.matchSelector, 'matchSelector');
    const first = errs[0];
    if (first) return `invalid selector ${first.field}: ${first.detail}`;
  }
  for (const o of orders) if (!o.orderedKey) return 'order key can not be empty';
  return undefined;
}

/** `UpdateScatterStrategy.FieldsValidation`: the first problem, or undefined. Any JSON value is accepted. */
export function scatterStrategyProblem(value: unknown): string | undefined {
  const typeProblem = shapeProblem(value, SCATTER_STRATEGY_SHAPE);
  if (typeProblem !== undefined) return typeProblem;
  const s = withoutNullMembers(value) as UpdateScatterStrategy | undefined;
  const seen = new Set<string>();
  for (const term of s ?? []) {
    if (!term.key) return 'key should not be empty';
    const id = `${term.key}:${term.value}`;
    if (seen.has(id)) return `duplicated key=${term.key} value=${term.value}`;
    seen.add(id);
  }
  return undefined;
}

function validateSelectorAndTemplate(spec: CloneSetSpec, path: FieldPath, errs: FieldError[]): void {
  const selector = spec.selector;
  const selPath = path.child('selector');
  let selectorErrors: FieldError[] = [];
  if (selector == null) {
    errs.push(fieldErrors.required(selPath, ''));
  } else {
    selectorErrors = validateLabelSelector(selector, selPath);
    errs.push(...selectorErrors);
    if (isSelectorEmpty(selector)) errs.push(fieldErrors.invalid(selPath, selector, 'empty selector is invalid for cloneset'));
  }
  if (selectorErrors.length > 0) {
    // the selector does not parse: upstream reports it once more and skips the template checks
    errs.push(fieldErrors.invalid(selPath, selector, ''));
    return;
  }
  const compiled = compileLabelSelector(selector);
  const template: PodTemplateSpec | undefined = spec.template;
  const labels = template?.metadata?.labels;
  // a missing selector selects nothing, so it never matches the template either (as upstream)
  if (!compiled.everything && !compiled.matches(labels)) {
    errs.push(fieldErrors.invalid(path.child('template', 'metadata', 'labels'), labels ?? null, '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpecSubset(withClaimVolumes(template, spec.volumeClaimTemplates), path.child('template')));
  errs.push(...validateClaimTemplateQuantities(spec.volumeClaimTemplates, path.child('volumeClaimTemplates')));
}

/**
 * The template as upstream validates it: each volume claim template is added as a PVC volume of the same name, so
 * mounts may name claim templates (and a template volume with a claim template's name is a duplicate).
 */
function withClaimVolumes(template: PodTemplateSpec | undefined, claims: CloneSetSpec['volumeClaimTemplates']): PodTemplateSpec | undefined {
  if (!claims || claims.length === 0 || !template) return template;
  const spec = template.spec ?? { containers: [] };
  const volumes: Volume[] = [
    ...(spec.volumes ?? []),
    ...claims.map((c) => {
      const name = c.metadata?.name ?? '';
      return { name, persistentVolumeClaim: { claimName: name, readOnly: false } };
    }),
  ];
  return { ...template, spec: { ...spec, volumes } };
}

function validateScaleStrategy(
  strategy: CloneSetScaleStrategy | undefined,
  newNames: string[],
  uid: string | undefined,
  ctx: CloneSetValidationContext,
  path: FieldPath,
): FieldError[] {
  const list = strategy?.podsToDelete ?? [];
  const seen = new Set<string>();
  const dups: string[] = [];
  for (const n of list) {
    if (seen.has(n)) dups.push(n);
    else seen.add(n);
  }
  const p = path.child('podsToDelete');
  if (dups.length > 0) return [fieldErrors.invalid(p, list, `duplicated items [${dups.join(' ')}]`)];
  if (!ctx.getPod) return [];
  const errs: FieldError[] = [];
  for (const name of newNames) {
    const pod = ctx.getPod(name);
    if (!pod) {
      errs.push(fieldErrors.invalid(p, name, `find pod ${name} failed: pods ${JSON.stringify(name)} not found`));
    } else if (pod.metadata?.deletionTimestamp) {
      errs.push(fieldErrors.invalid(p, name, `find pod ${name} already terminating`));
    } else {
      const owner = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
      if (!owner || owner.uid !== uid) errs.push(fieldErrors.invalid(p, name, `find pod ${name} owner is not this CloneSet`));
    }
  }
  return errs;
}

function validateUpdateStrategy(strategy: CloneSetUpdateStrategy | undefined, replicas: number, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const s = strategy ?? {};
  // an empty type is what defaulting turns into ReCreate
  const type = s.type || 'ReCreate';
  if (!(CLONESET_UPDATE_STRATEGY_TYPES as readonly string[]).includes(type)) {
    errs.push(fieldErrors.invalid(path.child('type'), type, "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"));
  }

  const partitionValue: IntOrString = s.partition ?? 0;
  const partition = kruiseScaledValue(partitionValue, replicas, true);
  if (partition.error !== undefined) {
    errs.push(
      fieldErrors.invalid(path.child('partition'), intOrStringText(partitionValue), `failed GetScaledValueFromIntOrPercent for partition: ${partition.error}`),
    );
  }
  errs.push(...nonNegative(path.child('partition'), partition.value));

  const priority = priorityStrategyProblem(s.priorityStrategy);
  if (priority !== undefined) errs.push(fieldErrors.required(path.child('priorityStrategy'), priority));
  const scatter = scatterStrategyProblem(s.scatterStrategy);
  if (scatter !== undefined) errs.push(fieldErrors.required(path.child('scatterStrategy'), scatter));

  const maxUnavailableValue: IntOrString = s.maxUnavailable ?? DEFAULT_CLONESET_MAX_UNAVAILABLE;
  const maxUnavailable = kruiseScaledValue(maxUnavailableValue, replicas, true);
  if (maxUnavailable.error !== undefined) {
    errs.push(
      fieldErrors.invalid(
        path.child('maxUnavailable'),
        intOrStringText(maxUnavailableValue),
        `failed GetScaledValueFromIntOrPercent for maxUnavailable: ${maxUnavailable.error}`,
      ),
    );
  }

  const maxSurgeValue: IntOrString = s.maxSurge ?? 0;
  const maxSurge = kruiseScaledValue(maxSurgeValue, replicas, true);
  if (maxSurge.error !== undefined) {
    errs.push(
      fieldErrors.invalid(path.child('maxSurge'), intOrStringText(maxSurgeValue), `failed GetScaledValueFromIntOrPercent for maxSurge: ${maxSurge.error}`),
    );
  }
  if (type === 'InPlaceOnly' && maxSurge.value > 0) {
    errs.push(fieldErrors.invalid(path.child('maxSurge'), intOrStringText(maxSurgeValue), 'can not use maxSurge with strategy type InPlaceOnly'));
  }

  if (replicas > 0 && maxUnavailable.value < 1 && maxSurge.value < 1) {
    errs.push(fieldErrors.invalid(path.child('maxUnavailable'), maxUnavailableValue, 'maxUnavailable and maxSurge should not both be less than 1'));
  }
  return errs;
}

function validateSpec(
  spec: CloneSetSpec | undefined,
  old: CloneSet | undefined,
  meta: CloneSet['metadata'],
  ctx: CloneSetValidationContext,
  path: FieldPath,
): FieldError[] {
  const s = spec ?? ({} as CloneSetSpec);
  const errs: FieldError[] = [];
  const replicas = s.replicas ?? 1;
  errs.push(...nonNegative(path.child('replicas'), replicas));
  validateSelectorAndTemplate(s, path, errs);

  const podSpec = s.template?.spec;
  if (podSpec?.restartPolicy && podSpec.restartPolicy !== 'Always') {
    errs.push(fieldErrors.notSupported(path.child('template', 'spec', 'restartPolicy'), podSpec.restartPolicy, ['Always']));
  }
  if (podSpec?.activeDeadlineSeconds != null) {
    errs.push(fieldErrors.forbidden(path.child('template', 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in cloneset is not Supported'));
  }

  const newNames = podsToDeleteToCheck({ spec: s } as CloneSet, old);
  errs.push(...validateScaleStrategy(s.scaleStrategy, newNames, meta?.uid, ctx, path.child('scaleStrategy')));
  errs.push(...validateUpdateStrategy(s.updateStrategy, replicas, path.child('updateStrategy')));

  const pds = s.progressDeadlineSeconds;
  if (pds != null) {
    errs.push(...nonNegative(path.child('progressDeadlineSeconds'), pds));
    if (pds !== MAX_INT32 && pds <= (s.minReadySeconds ?? 0)) {
      errs.push(fieldErrors.invalid(path.child('progressDeadlineSeconds'), pds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

/** `metadata.name` short enough for the revision label of its pods (CREATE only: a name cannot change). */
function nameLengthErrors(name: string | undefined): FieldError[] {
  if (name === undefined || name.length <= CLONESET_NAME_MAX_LENGTH) return [];
  return [fieldErrors.invalid(fieldPath('metadata', 'name'), name, `must be no more than ${CLONESET_NAME_MAX_LENGTH} characters`)];
}

/**
 * The webhook's `validateCloneSet(cs, old)`: type checks, then metadata and spec rules. `old` (UPDATE) narrows the
 * `podsToDelete` look-ups to newly added names, skips the name-length rule and reports only reserved template labels
 * the old object did not have; use {@link validateCloneSet} (CREATE) or `validateCloneSetUpdate` (UPDATE).
 */
export function validateCloneSetObject(cs: unknown, old: unknown, ctx: CloneSetValidationContext): FieldError[] {
  const typeErrors = cloneSetShapeErrors(cs);
  if (typeErrors.length > 0) return typeErrors;
  const obj = withoutNullMembers(cs) as CloneSet;
  const oldObj = asObject(old) as CloneSet | undefined;
  const oldLabels = asObject(asObject(asObject(asObject(oldObj?.spec)?.['template'])?.['metadata'])?.['labels']);
  return [
    ...validateObjectMeta(obj.metadata, true, fieldPath('metadata')),
    ...(old === undefined ? nameLengthErrors(obj.metadata?.name) : []),
    ...validateSpec(obj.spec, oldObj, obj.metadata, ctx, fieldPath('spec')),
    ...reservedTemplateLabelErrors(obj.spec?.template?.metadata?.labels, oldLabels, fieldPath('spec', 'template', 'metadata', 'labels')),
  ];
}

/** CREATE: every rule of the webhook; empty when the CloneSet is valid. Any JSON value is accepted. */
export function validateCloneSet(cs: unknown, ctx: CloneSetValidationContext = {}): FieldError[] {
  return validateCloneSetObject(cs, undefined, ctx);
}
