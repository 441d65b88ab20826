/**
 * AdvancedCronJob validation, as OpenKruise's validating webhook
 * (`pkg/webhook/advancedcronjob/validating/advancedcronjob_create_update_handler.go`): the same rules, with the
 * JSON paths of the fields (upstream reports a template's pod errors under `spec.template`; Regatta names the pod
 * template, e.g. `spec.template.jobTemplate.spec.template.spec.containers[0].image`).
 *
 * Regatta also rejects (docs/adr/0074-advancedcronjob.md) a pod `restartPolicy` other than Never or OnFailure in
 * either template (a Job allows only those; upstream accepts the cron job and every Job creation then fails) and an
 * unknown `concurrencyPolicy` (the CRD's enum says the same).
 *
 * Any JSON value is accepted and nothing throws: the JSON types of the fields read are checked first.
 */
import { type FieldError, type FieldPath, cloneJson, fieldErrors, fieldPath, jsonEqual } from '@regatta/kube';
import { validateObjectMeta } from '../core/meta-validation.js';
import { POD_TEMPLATE_SHAPE } from '../core/pod-template-shape.js';
import { validatePodTemplateSpecSubset } from '../core/pod-template-validation.js';
import type { PodTemplateSpec } from '../core/pod-types.js';
import { type Shape, shapeErrors, shapes as s, typeError, withoutNullMembers } from '../core/shape.js';
import { parseCronSchedule, timeZoneProblem } from './cron.js';
import { DEFAULT_CRON_JOB_RESTART_POLICY } from './defaults.js';
import { CONCURRENCY_POLICIES, type AdvancedCronJob, type AdvancedCronJobSpec } from './types.js';

const stringMap = s.map(s.string);
const templateMeta = s.object({ name: s.string, labels: stringMap, annotations: stringMap });

export const ADVANCED_CRON_JOB_SPEC_SHAPE: Shape = s.object({
  schedule: s.string,
  timeZone: s.string,
  startingDeadlineSeconds: s.int,
  concurrencyPolicy: s.string,
  paused: s.bool,
  successfulJobsHistoryLimit: s.int,
  failedJobsHistoryLimit: s.int,
  template: s.object({
    jobTemplate: s.object({ metadata: templateMeta, spec: s.object({ template: POD_TEMPLATE_SHAPE }) }),
    broadcastJobTemplate: s.object({ metadata: templateMeta, spec: s.object({ template: POD_TEMPLATE_SHAPE }) }),
  }),
});

export const ADVANCED_CRON_JOB_SHAPE: Shape = s.object({
  apiVersion: s.string,
  kind: s.string,
  metadata: s.object({ name: s.string, generateName: s.string, namespace: s.string, labels: stringMap, annotations: stringMap }),
  spec: ADVANCED_CRON_JOB_SPEC_SHAPE,
});

/** Type errors of a whole AdvancedCronJob (the object itself must be a JSON object). */
export function advancedCronJobShapeErrors(obj: unknown): FieldError[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [typeError('<object>', obj, 'must be an object')];
  return shapeErrors(obj, ADVANCED_CRON_JOB_SHAPE, fieldPath());
}

export const ADVANCED_CRON_JOB_NAME_MAX_LENGTH = 63;
export const ADVANCED_CRON_JOB_NAME_MESSAGE =
  "AdvancedCronJob name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')";
export const EMPTY_SCHEDULE_MESSAGE = 'schedule cannot be empty, please provide valid cron schedule.';
export const SCHEDULE_AND_TIME_ZONE_MESSAGE = 'cannot use both timeZone field and TZ or CRON_TZ in schedule';
export const NO_TEMPLATE_MESSAGE = 'spec must have one template, either JobTemplate or BroadcastJobTemplate should be provided';
export const TWO_TEMPLATES_MESSAGE =
  'spec can have only one template, either JobTemplate or BroadcastJobTemplate should be provided';
export const JOB_RESTART_POLICY_MESSAGE = 'pod restartPolicy can only be Never or OnFailure';
export const IMMUTABLE_SPEC_MESSAGE =
  "updates to advancedcronjob spec for fields other than 'schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'timeZone' and 'paused' are forbidden";

const NAME_RE = /^[a-zA-Z0-9-]+$/;

/** Upstream's name rule replaces the DNS-subdomain one: alphanumerics or '-', at most 63 characters. */
function metadataErrors(meta: AdvancedCronJob['metadata'], path: FieldPath): FieldError[] {
  const namePath = `${path.child('name')}`;
  const errs = validateObjectMeta(meta, true, path).filter((e) => !(e.field === namePath && e.type === 'FieldValueInvalid'));
  const name = meta?.name;
  if (name) {
    if (!NAME_RE.test(name)) errs.push(fieldErrors.invalid(path.child('name'), name, ADVANCED_CRON_JOB_NAME_MESSAGE));
    if (name.length > ADVANCED_CRON_JOB_NAME_MAX_LENGTH) {
      errs.push(fieldErrors.invalid(path.child('name'), name, `must be no more than ${ADVANCED_CRON_JOB_NAME_MAX_LENGTH} characters`));
    }
  }
  return errs;
}

const nonNegative = (path: FieldPath, v: number | undefined): FieldError[] =>
  v != null && v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];

/** `spec.schedule` and `spec.timeZone`: the schedule parses; a zone is given once, explicitly and known. */
export function scheduleErrors(spec: Pick<AdvancedCronJobSpec, 'schedule' | 'timeZone'>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = spec.schedule ?? '';
  if (schedule === '') errs.push(fieldErrors.invalid(path.child('schedule'), schedule, EMPTY_SCHEDULE_MESSAGE));
  const parsed = parseCronSchedule(schedule);
  if (!parsed.ok) errs.push(fieldErrors.invalid(path.child('schedule'), schedule, parsed.message));
  if (schedule.includes('TZ') && spec.timeZone != null) {
    errs.push(fieldErrors.invalid(path.child('schedule'), schedule, SCHEDULE_AND_TIME_ZONE_MESSAGE));
  }
  if (spec.timeZone != null) {
    const problem = timeZoneProblem(spec.timeZone);
    if (problem) errs.push(fieldErrors.invalid(path.child('timeZone'), spec.timeZone, problem));
  }
  return errs;
}

/** A job's pod template, checked as the webhook sees it: after the mutating webhook's defaults. */
function podTemplateErrors(value: PodTemplateSpec | undefined, path: FieldPath): FieldError[] {
  const template = cloneJson(value ?? {}) as PodTemplateSpec;
  if (template.spec == null) template.spec = { containers: [] };
  const restartPolicy = template.spec.restartPolicy || DEFAULT_CRON_JOB_RESTART_POLICY;
  const errs: FieldError[] = [];
  if (restartPolicy !== 'Never' && restartPolicy !== 'OnFailure') {
    errs.push(fieldErrors.invalid(path.child('spec', 'restartPolicy'), restartPolicy, JOB_RESTART_POLICY_MESSAGE));
  }
  errs.push(...validatePodTemplateSpecSubset(template, path));
  return errs;
}

function templateErrors(spec: AdvancedCronJobSpec, path: FieldPath): FieldError[] {
  const t = spec.template ?? {};
  const errs: FieldError[] = [];
  let count = 0;
  if (t.jobTemplate != null) {
    count++;
    errs.push(...podTemplateErrors(t.jobTemplate.spec?.template, path.child('jobTemplate', 'spec', 'template')));
  }
  if (t.broadcastJobTemplate != null) {
    count++;
    const bj = t.broadcastJobTemplate.spec?.template as PodTemplateSpec | undefined;
    errs.push(...podTemplateErrors(bj, path.child('broadcastJobTemplate', 'spec', 'template')));
  }
  if (count === 0) errs.push(fieldErrors.forbidden(path, NO_TEMPLATE_MESSAGE));
  if (count > 1) errs.push(fieldErrors.forbidden(path, TWO_TEMPLATES_MESSAGE));
  return errs;
}

function specErrors(spec: AdvancedCronJobSpec | undefined, path: FieldPath): FieldError[] {
  const sp = spec ?? ({} as AdvancedCronJobSpec);
  const errs = [...scheduleErrors(sp, path), ...templateErrors(sp, path.child('template'))];
  errs.push(...nonNegative(path.child('startingDeadlineSeconds'), sp.startingDeadlineSeconds));
  errs.push(...nonNegative(path.child('successfulJobsHistoryLimit'), sp.successfulJobsHistoryLimit));
  errs.push(...nonNegative(path.child('failedJobsHistoryLimit'), sp.failedJobsHistoryLimit));
  const policy = sp.concurrencyPolicy;
  if (policy && !(CONCURRENCY_POLICIES as readonly string[]).includes(policy)) {
    errs.push(fieldErrors.notSupported(path.child('concurrencyPolicy'), policy, CONCURRENCY_POLICIES));
  }
  return errs;
}

/** The webhook's CREATE rules: empty when valid. Any JSON value is accepted. */
export function validateAdvancedCronJob(obj: unknown): FieldError[] {
  const typeErrors = advancedCronJobShapeErrors(obj);
  if (typeErrors.length > 0) return typeErrors;
  const acj = withoutNullMembers(obj) as AdvancedCronJob;
  return [...metadataErrors(acj.metadata, fieldPath('metadata')), ...specErrors(acj.spec, fieldPath('spec'))];
}

/** The spec fields an UPDATE may change (everything else, the template included, is immutable). */
export const ADVANCED_CRON_JOB_MUTABLE_SPEC_FIELDS = [
  'schedule',
  'concurrencyPolicy',
  'successfulJobsHistoryLimit',
  'failedJobsHistoryLimit',
  'startingDeadlineSeconds',
  'paused',
  'timeZone',
] as const;

/** The webhook's UPDATE rules: the CREATE rules, and only the mutable spec fields changed. */
export function validateAdvancedCronJobUpdate(obj: unknown, oldObj: unknown): FieldError[] {
  const errs = validateAdvancedCronJob(obj);
  if (errs.length > 0 || advancedCronJobShapeErrors(oldObj).length > 0) return errs;
  const strip = (o: unknown): Record<string, unknown> => {
    const spec = { ...((withoutNullMembers(o) as AdvancedCronJob).spec ?? {}) } as Record<string, unknown>;
    for (const f of ADVANCED_CRON_JOB_MUTABLE_SPEC_FIELDS) delete spec[f];
    return spec;
  };
  if (!jsonEqual(strip(obj), strip(oldObj))) errs.push(fieldErrors.forbidden(fieldPath('spec'), IMMUTABLE_SPEC_MESSAGE));
  return errs;
}
