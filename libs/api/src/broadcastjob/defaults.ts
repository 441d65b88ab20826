/**
 * BroadcastJob defaulting, as OpenKruise's mutating webhook (`pkg/webhook/broadcastjob/mutating`,
 * `apis/apps/defaults` SetDefaultsBroadcastJob): `completionPolicy.type` Always, `parallelism` 2^31-1 (no limit),
 * `failurePolicy.type` FailFast, and the pod-spec defaults in the template on CREATE or when an UPDATE changes the
 * template (unless the gate `TemplateNoDefaults` is on).
 *
 * One difference (docs/adr/0073-broadcastjob.md): an empty template `restartPolicy` becomes `Never` before the
 * pod-spec defaults run (upstream's `Always` would then be rejected by its own validation).
 *
 * Any JSON value is accepted and nothing throws: a member of the wrong JSON type is left as it is.
 */
import { cloneJson, isPlainObject, jsonEqual } from '@regatta/kube';
import { applyKruisePodSpecDefaults } from '../core/pod-defaults.js';
import {
  DEFAULT_BROADCAST_JOB_COMPLETION_POLICY,
  DEFAULT_BROADCAST_JOB_FAILURE_POLICY,
  DEFAULT_BROADCAST_JOB_PARALLELISM,
  DEFAULT_BROADCAST_JOB_RESTART_POLICY,
} from './types.js';

type Obj = Record<string, unknown>;

function objectMember(o: Obj, key: string): Obj | undefined {
  if (o[key] == null) o[key] = {};
  const v = o[key];
  return isPlainObject(v) ? v : undefined;
}

export interface BroadcastJobDefaultingOptions {
  /** Inject the pod-spec defaults into the template (default true). */
  injectTemplateDefaults?: boolean;
}

/** A defaulted copy of a BroadcastJob (the input is not changed). */
export function defaultBroadcastJob<T>(obj: T, options: BroadcastJobDefaultingOptions = {}): T {
  const out = cloneJson(obj);
  if (!isPlainObject(out)) return out;
  const spec = objectMember(out, 'spec');
  if (!spec) return out;
  const template = isPlainObject(spec['template']) ? spec['template'] : undefined;
  const podSpec = template && isPlainObject(template['spec']) ? template['spec'] : undefined;
  if (podSpec && !podSpec['restartPolicy']) podSpec['restartPolicy'] = DEFAULT_BROADCAST_JOB_RESTART_POLICY;
  if ((options.injectTemplateDefaults ?? true) && podSpec) applyKruisePodSpecDefaults(podSpec);
  const completion = objectMember(spec, 'completionPolicy');
  if (completion && !completion['type']) completion['type'] = DEFAULT_BROADCAST_JOB_COMPLETION_POLICY;
  spec['parallelism'] ??= DEFAULT_BROADCAST_JOB_PARALLELISM;
  const failure = objectMember(spec, 'failurePolicy');
  if (failure && !failure['type']) failure['type'] = DEFAULT_BROADCAST_JOB_FAILURE_POLICY;
  return out;
}

export interface BroadcastJobAdmissionDefaultingOptions {
  /** Feature gate `TemplateNoDefaults`: never inject template defaults (default false). */
  templateNoDefaults?: boolean;
}

const templateOf = (o: unknown): unknown => {
  const spec = isPlainObject(o) ? o['spec'] : undefined;
  return isPlainObject(spec) ? spec['template'] : undefined;
};

/**
 * The mutating webhook's decision: template defaults on CREATE (`old` undefined), and on UPDATE only when
 * `spec.template` differs from the old object's.
 */
export function defaultBroadcastJobForAdmission<T>(
  obj: T,
  old?: unknown,
  options: BroadcastJobAdmissionDefaultingOptions = {},
): T {
  const inject = !options.templateNoDefaults && (old === undefined || !jsonEqual(templateOf(obj), templateOf(old)));
  return defaultBroadcastJob(obj, { injectTemplateDefaults: inject });
}
