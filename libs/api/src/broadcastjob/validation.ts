/**
 * BroadcastJob validation, as OpenKruise's validating webhook
 * (`pkg/webhook/broadcastjob/validating/broadcastjob_create_update_handler.go`): the same rules and messages, with
 * the JSON paths of the fields. CREATE and UPDATE are checked alike (upstream has no immutable fields).
 *
 * Regatta also rejects (docs/adr/0073-broadcastjob.md) an unknown `completionPolicy.type` or `failurePolicy.type`,
 * a `parallelism` that is neither an integer ≥ 0 nor a percentage, and negative `restartLimit`,
 * `activeDeadlineSeconds` or `ttlSecondsAfterFinished` — values upstream's controller cannot act on.
 *
 * Any JSON value is accepted and nothing throws: the JSON types of the fields read are checked first.
 */
import {
  type FieldError,
  type FieldPath,
  cloneJson,
  fieldErrors,
  fieldPath,
  validatePositiveIntOrPercent,
} from '@regatta/kube';
import { validateObjectMeta } from '../core/meta-validation.js';
import { applyKruisePodSpecDefaults } from '../core/pod-defaults.js';
import { POD_TEMPLATE_SHAPE } from '../core/pod-template-shape.js';
import type { PodTemplateSpec } from '../core/pod-types.js';
import { validatePodTemplateSpecSubset } from '../core/pod-template-validation.js';
import { type Shape, shapeErrors, shapes as s, typeError, withoutNullMembers } from '../core/shape.js';
import { COMPLETION_POLICY_TYPES } from '../imagepulljob/types.js';
import {
  BroadcastJobLabels,
  DEFAULT_BROADCAST_JOB_RESTART_POLICY,
  FAILURE_POLICY_TYPES,
  type BroadcastJob,
  type BroadcastJobSpec,
} from './types.js';


const stringMap = s.map(s.string);

export const BROADCAST_JOB_SPEC_SHAPE: Shape = s.object({
  parallelism: s.intOrString,
  template: POD_TEMPLATE_SHAPE,
  completionPolicy: s.object({ type: s.string, activeDeadlineSeconds: s.int, ttlSecondsAfterFinished: s.int }),
  paused: s.bool,
  failurePolicy: s.object({ type: s.string, restartLimit: s.int }),
});

export const BROADCAST_JOB_SHAPE: Shape = s.object({
  apiVersion: s.string,
  kind: s.string,
  metadata: s.object({
    name: s.string,
    generateName: s.string,
    namespace: s.string,
    uid: s.string,
    labels: stringMap,
    annotations: stringMap,
    finalizers: s.array(s.string),
  }),
  spec: BROADCAST_JOB_SPEC_SHAPE,
});

/** Type errors of a whole BroadcastJob (the object itself must be a JSON object). */
export function broadcastJobShapeErrors(obj: unknown): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [typeError('<object>', obj, 'must be an object')];
  return shapeErrors(obj, BROADCAST_JOB_SHAPE, fieldPath());
}

export const BROADCAST_JOB_NAME_MAX_LENGTH = 63;
export const BROADCAST_JOB_NAME_MESSAGE =
  "BroadcastJob name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')";
export const ONLY_ALWAYS_TTL = 'ttlSecondsAfterFinished can just work with Always CompletionPolicyType';
export const ONLY_ALWAYS_DEADLINE = 'activeDeadlineSeconds can just work with Always CompletionPolicyType';
export const RESTART_POLICY_MESSAGE = 'pod restartPolicy can only be Never or OnFailure';
export const RESERVED_LABELS_MESSAGE = `"${BroadcastJobLabels.JobName}" and "${BroadcastJobLabels.ControllerUid}" are not allowed to preset in pod labels`;

const NAME_RE = /^[a-zA-Z0-9-]+$/;

/** Upstream's name rule replaces the DNS-subdomain one: alphanumerics or '-', at most 63 characters. */
function metadataErrors(meta: BroadcastJob['metadata'], path: FieldPath): FieldError[] {
  const namePath = `${path.child('name')}`;
  const errs = validateObjectMeta(meta, true, path).filter((e) => !(e.field === namePath && e.type === 'FieldValueInvalid'));
  const name = meta?.name;
  if (name) {
    if (!NAME_RE.test(name)) errs.push(fieldErrors.invalid(path.child('name'), name, BROADCAST_JOB_NAME_MESSAGE));
    if (name.length > BROADCAST_JOB_NAME_MAX_LENGTH) {
      errs.push(fieldErrors.invalid(path.child('name'), name, `must be no more than ${BROADCAST_JOB_NAME_MAX_LENGTH} characters`));
    }
  }
  return errs;
}

const nonNegative = (path: FieldPath, v: number | undefined): FieldError[] =>
  v != null && v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];

function templateErrors(spec: BroadcastJobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  // checked as the webhook sees it: after the mutating webhook's defaults
  const template = cloneJson(spec.template ?? {}) as PodTemplateSpec;
  if (template.spec == null) template.spec = { containers: [] };
  if (!template.spec.restartPolicy) template.spec.restartPolicy = DEFAULT_BROADCAST_JOB_RESTART_POLICY;
  applyKruisePodSpecDefaults(template.spec);
  const restartPolicy = template.spec.restartPolicy;
  if (restartPolicy !== 'Never' && restartPolicy !== 'OnFailure') {
    errs.push(fieldErrors.invalid(path.child('spec', 'restartPolicy'), restartPolicy, RESTART_POLICY_MESSAGE));
  }
  const labels = template.metadata?.labels;
  if (labels && (labels[BroadcastJobLabels.JobName] || labels[BroadcastJobLabels.ControllerUid])) {
    errs.push(fieldErrors.invalid(path.child('metadata', 'labels'), labels, RESERVED_LABELS_MESSAGE));
  }
  errs.push(...validatePodTemplateSpecSubset(template, path));
  return errs;
}

function specErrors(spec: BroadcastJobSpec | undefined, path: FieldPath): FieldError[] {
  const s = spec ?? ({} as BroadcastJobSpec);
  const errs: FieldError[] = [];
  const cp = s.completionPolicy ?? {};
  const cpPath = path.child('completionPolicy');
  const cpType = cp.type ?? '';
  if (cpType === 'Never') {
    if (cp.ttlSecondsAfterFinished != null) {
      errs.push(fieldErrors.invalid(cpPath.child('ttlSecondsAfterFinished'), cp.ttlSecondsAfterFinished, ONLY_ALWAYS_TTL));
    }
    if (cp.activeDeadlineSeconds != null) {
      errs.push(fieldErrors.invalid(cpPath.child('activeDeadlineSeconds'), cp.activeDeadlineSeconds, ONLY_ALWAYS_DEADLINE));
    }
  } else if (cpType !== '' && !(COMPLETION_POLICY_TYPES as readonly string[]).includes(cpType)) {
    errs.push(fieldErrors.notSupported(cpPath.child('type'), cpType, COMPLETION_POLICY_TYPES));
  }
  errs.push(...nonNegative(cpPath.child('activeDeadlineSeconds'), cp.activeDeadlineSeconds));
  errs.push(...nonNegative(cpPath.child('ttlSecondsAfterFinished'), cp.ttlSecondsAfterFinished));

  if (s.parallelism != null) errs.push(...validatePositiveIntOrPercent(s.parallelism, path.child('parallelism')));
  const fp = s.failurePolicy ?? {};
  const fpType = fp.type ?? '';
  if (fpType !== '' && !(FAILURE_POLICY_TYPES as readonly string[]).includes(fpType)) {
    errs.push(fieldErrors.notSupported(path.child('failurePolicy', 'type'), fpType, FAILURE_POLICY_TYPES));
  }
  errs.push(...nonNegative(path.child('failurePolicy', 'restartLimit'), fp.restartLimit));
  errs.push(...templateErrors(s, path.child('template')));
  return errs;
}

/** The webhook's `validateBroadcastJob` (CREATE and UPDATE): empty when valid. Any JSON value is accepted. */
export function validateBroadcastJob(obj: unknown): FieldError[] {
  const typeErrors = broadcastJobShapeErrors(obj);
  if (typeErrors.length > 0) return typeErrors;
  const bj = withoutNullMembers(obj) as BroadcastJob;
  return [...metadataErrors(bj.metadata, fieldPath('metadata')), ...specErrors(bj.spec, fieldPath('spec'))];
}
