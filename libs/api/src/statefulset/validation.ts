/**
 * Advanced StatefulSet validation, as OpenKruise v1.9's validating webhook
 * (`pkg/webhook/statefulset/validating/statefulset_validation.go`): the same rules and messages, with field paths.
 * Pure functions.
 *
 * The object is expected to be defaulted first (admission runs the mutating webhook before this one); a missing
 * `replicas`, `podManagementPolicy`, `updateStrategy.type`, `rollingUpdate` member or retention policy member is read
 * as its default, so a raw object does not report errors that defaulting would remove.
 *
 * Every entry point accepts any JSON value and never throws (docs/adr/0010): the JSON types of the fields read are
 * checked first (`shape.ts`); an object with type errors gets those errors only, with their paths.
 *
 * Regatta's own rules and deviations (docs/adr/0017-advanced-statefulset-api.md):
 * - `metadata.name` a DNS-1123 label (pod names and hostnames are `<name>-<ordinal>`) of at most 52 characters on
 *   CREATE (the revision label `<name>-<hash>` is a label value of at most 63);
 * - the pod template is checked with the same subset as CloneSet's (containers, volumes, mounts; claim templates
 *   count as volumes); upstream, like apps/v1, checks only its labels and annotations;
 * - no template label the controller sets itself with a meaning ({@link STATEFULSET_RESERVED_TEMPLATE_LABELS});
 * - `ordinals.start` ≥ 0 (apps/v1's rule; OpenKruise's webhook has none) and reserved ordinals within int32;
 * - `volumeClaimUpdateStrategy.type` one of its two values (upstream reads any other value as OnPodRollingUpdate);
 * - errors of `reserveOrdinals` name the item (`spec.reserveOrdinals[1]`), not `spec`;
 * - `podUpdatePolicy: Parallel` (a mistake some articles make) says where parallel updates are configured.
 */
import {
  type FieldError,
  type FieldPath,
  type IntOrString,
  compileLabelSelector,
  fieldErrors,
  fieldPath,
  isDns1123Label,
  isDns1123Subdomain,
  isSelectorEmpty,
  validateLabelSelector,
  validatePositiveIntOrPercent,
} from '@regatta/kube';
import { priorityStrategyProblem } from '../cloneset/validation.js';
import { validateObjectMeta } from '../core/meta-validation.js';
import { validateClaimTemplateQuantities } from '../core/container-rules.js';
import { validatePodTemplateSpecSubset } from '../core/pod-template-validation.js';
import type { PodTemplateSpec, Volume } from '../core/pod-types.js';
import { asObject, withoutNullMembers } from '../core/shape.js';
import { Labels, PodConditionTypes } from '../well-known-keys.js';
import { RESERVE_ORDINAL_RANGE_RE, parseOrdinalRange } from './reserve-ordinals.js';
import { statefulSetShapeErrors } from './shape.js';
import {
  DEFAULT_STATEFULSET_MAX_UNAVAILABLE,
  POD_MANAGEMENT_POLICIES,
  PVC_RETENTION_POLICY_TYPES,
  STATEFULSET_MAX_MIN_READY_SECONDS,
  VOLUME_CLAIM_UPDATE_STRATEGY_TYPES,
  type RollingUpdateStatefulSetStrategy,
  type StatefulSet,
  type StatefulSetSpec,
} from './types.js';

const MAX_INT32 = 2147483647;

/**
 * Longest StatefulSet name whose pods can carry their revision: the `controller-revision-hash` label is
 * `<name>-<hash>`, a label value of at most 63 characters, and the hash has up to 10 characters.
 */
export const STATEFULSET_NAME_MAX_LENGTH = 63 - 11;

/**
 * Pod labels the StatefulSet controller sets itself, with a meaning, that a pod template must not carry (an in-place
 * update would write the template's value over the controller's: a pod claiming a revision it is not at, an identity
 * label naming another pod, a lifecycle state the hooks never saw; any `specified-delete` value deletes every pod
 * created from the template, without end).
 */
export const STATEFULSET_RESERVED_TEMPLATE_LABELS: readonly string[] = [
  Labels.SpecifiedDelete,
  Labels.ControllerRevisionHash,
  Labels.StatefulSetPodName,
  Labels.PodIndex,
  Labels.LifecycleState,
];

const nonNegative = (path: FieldPath, v: number): FieldError[] =>
  v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];

/** apimachinery `GetValueFromIntOrPercent(v, 1, true)`: the value, or Go's error text. */
function k8sScaledOfOne(v: IntOrString): { value: number; error?: string } {
  if (typeof v === 'number') return { value: v };
  if (!v.endsWith('%')) return { value: 0, error: 'invalid value for IntOrString: invalid type: string is not a percentage' };
  const s = v.slice(0, -1);
  const n = /^[+-]?\d+$/.test(s) ? Number(s) : Number.NaN;
  if (!Number.isSafeInteger(n)) {
    return { value: 0, error: `invalid value for IntOrString: invalid value ${JSON.stringify(v)}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax` };
  }
  return { value: Math.ceil(n / 100) };
}

/**
 * `validateMaxUnavailableField` (rollingUpdate and scaleStrategy): a non-negative int or `<digits>%`; at least 1 once
 * scaled against one pod; any value other than the int 1 only with `podManagementPolicy: Parallel`.
 */
export function maxUnavailableErrors(v: IntOrString, parallel: boolean, path: FieldPath): FieldError[] {
  const errs = validatePositiveIntOrPercent(v, path);
  const scaled = k8sScaledOfOne(v);
  if (scaled.error !== undefined) {
    errs.push(fieldErrors.invalid(path, scaled.value, `getValueFromIntOrPercent error: ${scaled.error}`));
  } else if (scaled.value < 1) {
    errs.push(fieldErrors.invalid(path, scaled.value, 'should not be less than 1'));
  }
  if (!parallel && v !== 1) errs.push(fieldErrors.invalid(path, v, 'can only work with Parallel PodManagementPolicyType'));
  return errs;
}

/** `validateReserveOrdinals`: integers ≥ 0, strings `a-b` with a ≤ b (Regatta: both within int32). */
export function reserveOrdinalsErrors(list: readonly IntOrString[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (list ?? []).forEach((item, i) => {
    const p = path.index(i);
    if (typeof item === 'number') {
      if (item < 0) errs.push(fieldErrors.invalid(p, item, `${i} th reserve ordinal is negative: ${item}`));
      else if (item > MAX_INT32) errs.push(fieldErrors.invalid(p, item, `${i} th reserve ordinal is more than ${MAX_INT32}`));
      return;
    }
    if (!RESERVE_ORDINAL_RANGE_RE.test(item)) {
      errs.push(fieldErrors.invalid(p, item, `${i} th reserve ordinal is not a valid range: ${item}`));
      return;
    }
    const r = parseOrdinalRange(item);
    if ('problem' in r) errs.push(fieldErrors.invalid(p, item, `${i} th reserve ordinal is invalid: ${item}, err = ${r.problem}`));
    else if (r.end > MAX_INT32) errs.push(fieldErrors.invalid(p, item, `${i} th reserve ordinal is more than ${MAX_INT32}: ${item}`));
  });
  return errs;
}

function podUpdatePolicyErrors(spec: StatefulSetSpec, ru: RollingUpdateStatefulSetStrategy, path: FieldPath): FieldError[] {
  const policy = ru.podUpdatePolicy || 'ReCreate';
  const p = path.child('updateStrategy', 'rollingUpdate', 'podUpdatePolicy');
  switch (policy) {
    case 'ReCreate':
      return [];
    case 'InPlaceIfPossible':
    case 'InPlaceOnly': {
      const gates = spec.template?.spec?.readinessGates ?? [];
      if (gates.some((g) => g.conditionType === PodConditionTypes.InPlaceUpdateReady)) return [];
      return [
        fieldErrors.invalid(
          path.child('template', 'spec', 'readinessGates'),
          gates,
          `must contains ${PodConditionTypes.InPlaceUpdateReady} when podUpdatePolicy is ${policy}`,
        ),
      ];
    }
    case 'Parallel':
      return [
        fieldErrors.invalid(
          p,
          policy,
          "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'; podUpdatePolicy chooses how a pod is updated, not how " +
            'many at once: parallel updates are `spec.podManagementPolicy: Parallel` with `rollingUpdate.maxUnavailable`',
        ),
      ];
    default:
      return [fieldErrors.invalid(p, policy, "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'")];
  }
}

function rollingUpdateErrors(spec: StatefulSetSpec, ru: RollingUpdateStatefulSetStrategy, parallel: boolean, path: FieldPath): FieldError[] {
  const rp = path.child('updateStrategy', 'rollingUpdate');
  const errs: FieldError[] = [];
  errs.push(...nonNegative(rp.child('partition'), ru.partition ?? 0));
  const minReady = ru.minReadySeconds ?? 0;
  errs.push(...nonNegative(rp.child('minReadySeconds'), minReady));
  if (minReady > STATEFULSET_MAX_MIN_READY_SECONDS) {
    errs.push(fieldErrors.invalid(rp.child('minReadySeconds'), minReady, `must be no more than ${STATEFULSET_MAX_MIN_READY_SECONDS} seconds`));
  }
  errs.push(...maxUnavailableErrors(ru.maxUnavailable ?? DEFAULT_STATEFULSET_MAX_UNAVAILABLE, parallel, rp.child('maxUnavailable')));
  errs.push(...podUpdatePolicyErrors(spec, ru, path));
  if (ru.unorderedUpdate) {
    if (!parallel) {
      errs.push(fieldErrors.required(rp.child('unorderedUpdate'), 'unorderedUpdate can only work with Parallel PodManagementPolicyType'));
    }
    const problem = priorityStrategyProblem(ru.unorderedUpdate.priorityStrategy);
    if (problem !== undefined) errs.push(fieldErrors.required(rp.child('unorderedUpdate', 'priorityStrategy'), problem));
  }
  return errs;
}

function updateStrategyErrors(spec: StatefulSetSpec, parallel: boolean, path: FieldPath): FieldError[] {
  const us = spec.updateStrategy ?? {};
  const type = us.type || 'RollingUpdate';
  if (type === 'OnDelete') {
    if (!us.rollingUpdate) return [];
    return [fieldErrors.invalid(path.child('updateStrategy', 'rollingUpdate'), us.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'")];
  }
  if (type !== 'RollingUpdate') {
    return [fieldErrors.invalid(path.child('updateStrategy', 'type'), type, "must be 'RollingUpdate' or 'OnDelete'")];
  }
  return rollingUpdateErrors(spec, us.rollingUpdate ?? {}, parallel, path);
}

function retentionPolicyErrors(spec: StatefulSetSpec, path: FieldPath): FieldError[] {
  const policy = spec.persistentVolumeClaimRetentionPolicy;
  if (!policy) return [];
  const errs: FieldError[] = [];
  for (const key of ['whenDeleted', 'whenScaled'] as const) {
    const v = policy[key] || 'Retain';
    if (!(PVC_RETENTION_POLICY_TYPES as readonly string[]).includes(v)) {
      errs.push(fieldErrors.notSupported(path.child('persistentVolumeClaimRetentionPolicy', key), v, PVC_RETENTION_POLICY_TYPES));
    }
  }
  return errs;
}

/** Claim templates need a name (their claims are `<template>-<set>-<ordinal>`), unique in the list. */
function claimTemplateErrors(spec: StatefulSetSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (spec.volumeClaimTemplates ?? []).forEach((vct, i) => {
    const p = path.child('volumeClaimTemplates').index(i).child('metadata', 'name');
    const name = vct.metadata?.name;
    if (!name) errs.push(fieldErrors.required(p, ''));
    else if (seen.has(name)) errs.push(fieldErrors.duplicate(p, name));
    else {
      seen.add(name);
      for (const msg of isDns1123Subdomain(name)) errs.push(fieldErrors.invalid(p, name, msg));
    }
  });
  errs.push(...validateClaimTemplateQuantities(spec.volumeClaimTemplates, path.child('volumeClaimTemplates')));
  return errs;
}

/**
 * The template as the pods get it: each named claim template is added as a PVC volume of the same name (unless the
 * template has a volume of that name, which the controller replaces), so mounts may name claim templates.
 */
function withClaimVolumes(template: PodTemplateSpec | undefined, spec: StatefulSetSpec): PodTemplateSpec | undefined {
  const names = (spec.volumeClaimTemplates ?? []).map((c) => c.metadata?.name).filter((n): n is string => !!n);
  if (names.length === 0 || !template) return template;
  const podSpec = template.spec ?? { containers: [] };
  const own = (podSpec.volumes ?? []).filter((v) => !names.includes(v.name));
  const volumes: Volume[] = [...own, ...[...new Set(names)].map((name) => ({ name, persistentVolumeClaim: { claimName: name } }))];
  return { ...template, spec: { ...podSpec, volumes } };
}

function selectorAndTemplateErrors(spec: StatefulSetSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const selector = spec.selector;
  const selPath = path.child('selector');
  if (selector == null) {
    errs.push(fieldErrors.required(selPath, ''));
  } else {
    const selectorErrors = validateLabelSelector(selector, selPath);
    errs.push(...selectorErrors);
    if (isSelectorEmpty(selector)) errs.push(fieldErrors.invalid(selPath, selector, 'empty selector is invalid for statefulset'));
    if (selectorErrors.length > 0) {
      errs.push(fieldErrors.invalid(selPath, selector, ''));
      return errs;
    }
  }
  const template = spec.template;
  const labels = template?.metadata?.labels;
  const compiled = compileLabelSelector(selector);
  if (selector != null && !isSelectorEmpty(selector) && !compiled.matches(labels)) {
    errs.push(fieldErrors.invalid(path.child('template', 'metadata', 'labels'), labels ?? null, '`selector` does not match template `labels`'));
  }
  if (template == null) errs.push(fieldErrors.required(path.child('template'), ''));
  else errs.push(...validatePodTemplateSpecSubset(withClaimVolumes(template, spec), path.child('template')));
  return errs;
}

function reservedTemplateLabelErrors(spec: StatefulSetSpec, oldSpec: StatefulSetSpec | undefined, path: FieldPath): FieldError[] {
  const labels = spec.template?.metadata?.labels;
  const oldLabels = asObject(asObject(asObject(oldSpec?.template)?.['metadata'])?.['labels']);
  const errs: FieldError[] = [];
  for (const key of STATEFULSET_RESERVED_TEMPLATE_LABELS) {
    if (!labels || !Object.hasOwn(labels, key)) continue;
    // ratcheted: an object stored with the label can still be edited
    if (oldLabels && Object.hasOwn(oldLabels, key) && oldLabels[key] === labels[key]) continue;
    errs.push(fieldErrors.forbidden(path.key(key), 'is set by the StatefulSet controller on its pods; remove it from the template'));
  }
  return errs;
}

function specErrors(spec: StatefulSetSpec | undefined, oldSpec: StatefulSetSpec | undefined, path: FieldPath): FieldError[] {
  const s = spec ?? ({} as StatefulSetSpec);
  const errs: FieldError[] = [];
  const pmp = s.podManagementPolicy || 'OrderedReady';
  if (!(POD_MANAGEMENT_POLICIES as readonly string[]).includes(pmp)) {
    errs.push(fieldErrors.invalid(path.child('podManagementPolicy'), pmp, "must be 'OrderedReady' or 'Parallel'"));
  }
  const parallel = pmp === 'Parallel';
  errs.push(...reserveOrdinalsErrors(s.reserveOrdinals, path.child('reserveOrdinals')));
  if (s.scaleStrategy?.maxUnavailable != null) {
    errs.push(...maxUnavailableErrors(s.scaleStrategy.maxUnavailable, parallel, path.child('scaleStrategy', 'maxUnavailable')));
  }
  errs.push(...updateStrategyErrors(s, parallel, path));
  errs.push(...retentionPolicyErrors(s, path));
  errs.push(...nonNegative(path.child('replicas'), s.replicas ?? 1));
  errs.push(...selectorAndTemplateErrors(s, path));
  const podSpec = s.template?.spec;
  if (podSpec?.restartPolicy && podSpec.restartPolicy !== 'Always') {
    errs.push(fieldErrors.notSupported(path.child('template', 'spec', 'restartPolicy'), podSpec.restartPolicy, ['Always']));
  }
  if (podSpec?.activeDeadlineSeconds != null) {
    errs.push(fieldErrors.forbidden(path.child('template', 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in StatefulSet is not Supported'));
  }
  if (s.ordinals?.start != null) errs.push(...nonNegative(path.child('ordinals', 'start'), s.ordinals.start));
  const vcus = s.volumeClaimUpdateStrategy?.type;
  if (vcus && !(VOLUME_CLAIM_UPDATE_STRATEGY_TYPES as readonly string[]).includes(vcus)) {
    errs.push(fieldErrors.notSupported(path.child('volumeClaimUpdateStrategy', 'type'), vcus, VOLUME_CLAIM_UPDATE_STRATEGY_TYPES));
  }
  errs.push(...claimTemplateErrors(s, path));
  errs.push(...reservedTemplateLabelErrors(s, oldSpec, path.child('template', 'metadata', 'labels')));
  return errs;
}

/** `metadata.name`: a DNS-1123 label (CREATE and UPDATE) of at most {@link STATEFULSET_NAME_MAX_LENGTH} (CREATE). */
function nameErrors(name: string | undefined, create: boolean): FieldError[] {
  if (!name) return [];
  const p = fieldPath('metadata', 'name');
  // a subdomain problem is already reported by validateObjectMeta
  if (isDns1123Subdomain(name).length > 0) return [];
  const errs = isDns1123Label(name).map((msg) => fieldErrors.invalid(p, name, msg));
  if (create && errs.length === 0 && name.length > STATEFULSET_NAME_MAX_LENGTH) {
    errs.push(fieldErrors.invalid(p, name, `must be no more than ${STATEFULSET_NAME_MAX_LENGTH} characters`));
  }
  return errs;
}

/**
 * The webhook's `validateStatefulSet`: type checks, then metadata and spec rules. `old` (UPDATE) skips the
 * name-length rule and exempts reserved template labels the old object already had; use {@link validateStatefulSet}
 * (CREATE) or `validateStatefulSetUpdate` (UPDATE).
 */
export function validateStatefulSetObject(sts: unknown, old: unknown): FieldError[] {
  const typeErrors = statefulSetShapeErrors(sts);
  if (typeErrors.length > 0) return typeErrors;
  const obj = withoutNullMembers(sts) as StatefulSet;
  const oldSpec = asObject(asObject(old)?.['spec']) as StatefulSetSpec | undefined;
  return [
    ...validateObjectMeta(obj.metadata, true, fieldPath('metadata')),
    ...nameErrors(obj.metadata?.name, old === undefined),
    ...specErrors(obj.spec, oldSpec, fieldPath('spec')),
  ];
}

/** CREATE: every rule of the webhook; empty when the StatefulSet is valid. Any JSON value is accepted. */
export function validateStatefulSet(sts: unknown): FieldError[] {
  return validateStatefulSetObject(sts, undefined);
}
