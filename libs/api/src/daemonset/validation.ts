/**
 * DaemonSet validation, as OpenKruise's validating webhook (`pkg/webhook/daemonset/validating/daemonset_validation.go`,
 * v1alpha1 and v1beta1): the same rules and messages, with the JSON paths of the fields.
 *
 * The object is expected to be defaulted first (admission runs the mutating webhook before this one); a missing
 * `updateStrategy.type`, `rollingUpdate`, `rollingUpdateType`, `maxUnavailable` / `maxSurge` is read as its default
 * so a raw object does not report errors that defaulting would remove. The pod template is checked as upstream
 * does, after the pod-spec defaults (upstream defaults a copy while converting it for validation, so a template
 * without `restartPolicy` is valid).
 *
 * Where upstream differs (docs/adr/0019-daemonset-versions-and-admission.md): paths name the JSON fields
 * (`rollingUpdate.rollingUpdateType`, `rollingUpdate.partition`, `updateStrategy.type`); a missing selector is
 * `Required`; maxUnavailable / maxSurge strings that are not percentages are rejected; `burstReplicas` and
 * `rollingUpdate.selector` are checked (upstream leaves them to fail in the controller).
 *
 * Every entry point accepts any JSON value and never throws: the JSON types of the fields read are checked first
 * (`shape.ts`); an object with type errors gets those errors only, with their paths.
 */
import {
  type FieldError,
  type FieldPath,
  type IntOrString,
  cloneJson,
  compileLabelSelector,
  fieldErrors,
  fieldPath,
  isSelectorEmpty,
  validateLabelSelector,
  validatePositiveIntOrPercent,
} from '@regatta/kube';
import { validateObjectMeta } from '../core/meta-validation.js';
import { applyKruisePodSpecDefaults } from '../core/pod-defaults.js';
import type { PodTemplateSpec } from '../core/pod-types.js';
import { validatePodTemplateSpecSubset } from '../core/pod-template-validation.js';
import { withoutNullMembers } from '../core/shape.js';
import { isZeroIntOrPercent, nonNegativeIntOrPercentUpTo100, positiveIntOrPercentUpTo100 } from './intstr-rules.js';
import { daemonSetShapeErrors } from './shape.js';
import {
  DAEMONSET_ROLLING_UPDATE_TYPES,
  DAEMONSET_UPDATE_STRATEGY_TYPES,
  DEFAULT_DAEMONSET_MAX_SURGE,
  DEFAULT_DAEMONSET_MAX_UNAVAILABLE,
  SURGING_DEFAULT_MAX_SURGE,
  SURGING_DEFAULT_MAX_UNAVAILABLE,
  type DaemonSet,
  type DaemonSetSpec,
  type RollingUpdateDaemonSet,
} from './types.js';
import { type DaemonSetVersion, daemonSetVersionOf } from './version.js';

export interface DaemonSetValidationOptions {
  /** The served version the object came in (admission: the request's resource version); default: its apiVersion. */
  version?: DaemonSetVersion;
}

const nonNegative = (path: FieldPath, v: number): FieldError[] =>
  v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];

/** The rolling-update types a version accepts, in upstream's order for the `supported values` text. */
function rollingUpdateTypes(version: DaemonSetVersion): readonly string[] {
  return version === 'v1alpha1' ? ['Standard', 'Surging', 'InPlaceIfPossible'] : DAEMONSET_ROLLING_UPDATE_TYPES;
}

function validateSelectorAndTemplate(spec: DaemonSetSpec, path: FieldPath, errs: FieldError[]): void {
  const selector = spec.selector;
  const selPath = path.child('selector');
  let selectorOk = true;
  if (selector == null) {
    errs.push(fieldErrors.required(selPath, ''));
  } else {
    const selectorErrors = validateLabelSelector(selector, selPath);
    errs.push(...selectorErrors);
    selectorOk = selectorErrors.length === 0;
  }
  const labels = spec.template?.metadata?.labels;
  // a missing selector selects nothing, so it never matches the template either (as upstream)
  if (selectorOk) {
    const compiled = compileLabelSelector(selector);
    if (!compiled.everything && !compiled.matches(labels)) {
      errs.push(fieldErrors.invalid(path.child('template', 'metadata', 'labels'), labels ?? null, '`selector` does not match template `labels`'));
    }
  }
  if (selector != null && isSelectorEmpty(selector)) {
    errs.push(fieldErrors.invalid(selPath, selector, 'empty selector is invalid for daemonset'));
  }

  // upstream validates the template after the pod-spec defaults (restartPolicy Always, dnsPolicy ClusterFirst, …)
  const template = cloneJson(spec.template ?? {}) as PodTemplateSpec;
  if (template.spec == null) template.spec = { containers: [] };
  applyKruisePodSpecDefaults(template.spec);
  const templatePath = path.child('template');
  errs.push(...validatePodTemplateSpecSubset(template, templatePath));
  const podSpec = template.spec;
  if (podSpec.restartPolicy !== 'Always') {
    errs.push(fieldErrors.notSupported(templatePath.child('spec', 'restartPolicy'), podSpec.restartPolicy ?? '', ['Always']));
  }
  if (podSpec.activeDeadlineSeconds != null) {
    errs.push(fieldErrors.forbidden(templatePath.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in DaemonSet is not Supported'));
  }
}

/** rollingUpdate as defaulting leaves it (Surging keeps its name here: its own rule reads it). */
function effectiveRollingUpdate(ru: RollingUpdateDaemonSet | undefined, version: DaemonSetVersion): RollingUpdateDaemonSet {
  const out: RollingUpdateDaemonSet = { ...(ru ?? {}) };
  if (version === 'v1alpha1' && out.rollingUpdateType === 'Surging') {
    out.maxSurge ??= SURGING_DEFAULT_MAX_SURGE;
    out.maxUnavailable ??= SURGING_DEFAULT_MAX_UNAVAILABLE;
  }
  if (out.maxUnavailable == null && out.maxSurge == null) {
    out.maxUnavailable = DEFAULT_DAEMONSET_MAX_UNAVAILABLE;
    out.maxSurge = DEFAULT_DAEMONSET_MAX_SURGE;
  }
  return out;
}

function validateRollingUpdate(raw: RollingUpdateDaemonSet | undefined, version: DaemonSetVersion, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ru = effectiveRollingUpdate(raw, version);
  const set = (v: IntOrString | undefined): v is IntOrString => v != null && !isZeroIntOrPercent(v);
  const hasUnavailable = set(ru.maxUnavailable);
  const hasSurge = set(ru.maxSurge);
  if (hasUnavailable) errs.push(...positiveIntOrPercentUpTo100(ru.maxUnavailable as IntOrString, path.child('maxUnavailable')));
  if (hasSurge) errs.push(...positiveIntOrPercentUpTo100(ru.maxSurge as IntOrString, path.child('maxSurge')));
  if (hasUnavailable && hasSurge) {
    errs.push(fieldErrors.invalid(path.child('maxSurge'), ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(fieldErrors.required(path.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  }

  const type = ru.rollingUpdateType ?? '';
  if (type === 'InPlaceIfPossible') {
    if (hasSurge) errs.push(fieldErrors.required(path.child('maxSurge'), 'must be 0 for InPlaceIfPossible type'));
  } else if (type === 'Surging' && version === 'v1alpha1') {
    if (hasUnavailable) errs.push(fieldErrors.required(path.child('maxUnavailable'), 'must be 0 for Surging type'));
  } else if (type !== '' && type !== 'Standard') {
    errs.push(fieldErrors.notSupported(path.child('rollingUpdateType'), type, rollingUpdateTypes(version)));
  }

  if (ru.partition != null) errs.push(...nonNegativeIntOrPercentUpTo100(ru.partition, path.child('partition')));
  if (ru.selector != null) errs.push(...validateLabelSelector(ru.selector, path.child('selector')));
  return errs;
}

function validateUpdateStrategy(strategy: DaemonSetSpec['updateStrategy'], version: DaemonSetVersion, path: FieldPath): FieldError[] {
  // an empty type is what defaulting turns into RollingUpdate
  const type = strategy?.type || 'RollingUpdate';
  if (type === 'OnDelete') return [];
  if (type === 'RollingUpdate') return validateRollingUpdate(strategy?.rollingUpdate, version, path.child('rollingUpdate'));
  return [fieldErrors.notSupported(path.child('type'), type, DAEMONSET_UPDATE_STRATEGY_TYPES)];
}

function validateSpec(spec: DaemonSetSpec | undefined, version: DaemonSetVersion, path: FieldPath): FieldError[] {
  const s = spec ?? ({} as DaemonSetSpec);
  const errs: FieldError[] = [];
  validateSelectorAndTemplate(s, path, errs);
  errs.push(...nonNegative(path.child('minReadySeconds'), s.minReadySeconds ?? 0));
  errs.push(...validateUpdateStrategy(s.updateStrategy, version, path.child('updateStrategy')));
  if (s.revisionHistoryLimit != null) errs.push(...nonNegative(path.child('revisionHistoryLimit'), s.revisionHistoryLimit));
  if (s.lifecycle?.inPlaceUpdate != null) {
    errs.push(fieldErrors.forbidden(path.child('lifecycle', 'inPlaceUpdate'), 'inPlaceUpdate hook has not supported yet'));
  }
  if (s.burstReplicas != null) errs.push(...validatePositiveIntOrPercent(s.burstReplicas, path.child('burstReplicas')));
  return errs;
}

/**
 * The webhook's `validateDaemonSet` (CREATE): type checks, then metadata and spec rules; empty when the DaemonSet is
 * valid. Any JSON value is accepted.
 */
export function validateDaemonSet(ds: unknown, options: DaemonSetValidationOptions = {}): FieldError[] {
  const typeErrors = daemonSetShapeErrors(ds);
  if (typeErrors.length > 0) return typeErrors;
  const version = options.version ?? daemonSetVersionOf(ds);
  const obj = withoutNullMembers(ds) as DaemonSet;
  return [...validateObjectMeta(obj.metadata, true, fieldPath('metadata')), ...validateSpec(obj.spec, version, fieldPath('spec'))];
}
