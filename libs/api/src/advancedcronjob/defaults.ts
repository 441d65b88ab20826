/**
 * AdvancedCronJob defaulting, as OpenKruise's mutating webhook (`pkg/webhook/advancedcronjob/mutating`,
 * `apis/apps/defaults` SetDefaultsAdvancedCronJob): `concurrencyPolicy` Allow, `paused` false,
 * `successfulJobsHistoryLimit` 3, `failedJobsHistoryLimit` 1, the pod-spec defaults in the job's pod template on
 * CREATE or when an UPDATE changes `spec.template` (unless the gate `TemplateNoDefaults` is on).
 *
 * One difference (docs/adr/0074-advancedcronjob.md): an empty pod `restartPolicy` in the template becomes `Never`
 * before the pod-spec defaults run (upstream's `Always` makes every Job creation fail, a Job allows only Never and
 * OnFailure).
 *
 * Any JSON value is accepted and nothing throws: a member of the wrong JSON type is left as it is.
 */
import { cloneJson, isPlainObject, jsonEqual } from '@regatta/kube';
import { applyKruisePodSpecDefaults } from '../core/pod-defaults.js';
import {
  DEFAULT_CONCURRENCY_POLICY,
  DEFAULT_FAILED_JOBS_HISTORY_LIMIT,
  DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT,
} from './types.js';

type Obj = Record<string, unknown>;

/** The pod `restartPolicy` a template without one gets. */
export const DEFAULT_CRON_JOB_RESTART_POLICY = 'Never';

const member = (o: Obj | undefined, key: string): Obj | undefined => {
  const v = o?.[key];
  return isPlainObject(v) ? v : undefined;
};

/** The pod spec of a job template (`jobTemplate.spec.template.spec` or `broadcastJobTemplate.spec.template.spec`). */
function podSpecsOf(template: Obj | undefined): Obj[] {
  const out: Obj[] = [];
  for (const key of ['jobTemplate', 'broadcastJobTemplate']) {
    const pod = member(member(member(member(template, key), 'spec'), 'template'), 'spec');
    if (pod) out.push(pod);
  }
  return out;
}

export interface AdvancedCronJobDefaultingOptions {
  /** Inject the pod-spec defaults into the template (default true). */
  injectTemplateDefaults?: boolean;
}

/** A defaulted copy of an AdvancedCronJob (the input is not changed). */
export function defaultAdvancedCronJob<T>(obj: T, options: AdvancedCronJobDefaultingOptions = {}): T {
  const out = cloneJson(obj);
  if (!isPlainObject(out)) return out;
  const spec = member(out, 'spec');
  if (!spec) return out;
  if (options.injectTemplateDefaults ?? true) {
    for (const pod of podSpecsOf(member(spec, 'template'))) {
      if (!pod['restartPolicy']) pod['restartPolicy'] = DEFAULT_CRON_JOB_RESTART_POLICY;
      applyKruisePodSpecDefaults(pod);
    }
  }
  if (!spec['concurrencyPolicy']) spec['concurrencyPolicy'] = DEFAULT_CONCURRENCY_POLICY;
  spec['paused'] ??= false;
  spec['successfulJobsHistoryLimit'] ??= DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT;
  spec['failedJobsHistoryLimit'] ??= DEFAULT_FAILED_JOBS_HISTORY_LIMIT;
  return out;
}

export interface AdvancedCronJobAdmissionDefaultingOptions {
  /** Feature gate `TemplateNoDefaults`: never inject template defaults (default false). */
  templateNoDefaults?: boolean;
}

const templateOf = (o: unknown): unknown => member(member(isPlainObject(o) ? o : undefined, 'spec'), 'template');

/**
 * The mutating webhook: template defaults on CREATE (`old` undefined) and on an UPDATE that changes
 * `spec.template`. (Upstream also resets the status; with the status subresource the API server ignores it anyway.)
 */
export function defaultAdvancedCronJobForAdmission<T>(
  obj: T,
  old?: unknown,
  options: AdvancedCronJobAdmissionDefaultingOptions = {},
): T {
  const inject = !options.templateNoDefaults && (old === undefined || !jsonEqual(templateOf(obj), templateOf(old)));
  return defaultAdvancedCronJob(obj, { injectTemplateDefaults: inject });
}
