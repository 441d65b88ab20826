/**
 * CloneSet defaulting, as OpenKruise v1.9's mutating webhook (`pkg/webhook/cloneset/mutating`,
 * `apis/apps/defaults.SetDefaultsCloneSet`):
 *
 * - `spec.replicas` 1, `spec.revisionHistoryLimit` 10;
 * - `spec.updateStrategy.type` `ReCreate` when empty; for `InPlaceIfPossible` / `InPlaceOnly` an empty
 *   `inPlaceUpdateStrategy: {}` when absent;
 * - `spec.updateStrategy.partition` 0, `maxUnavailable` `"20%"`, `maxSurge` 0;
 * - when template defaults are injected: the pod-spec defaults of {@link applyKruisePodSpecDefaults}, and
 *   `status.phase: Pending` on every volume claim template (core/v1 `SetDefaults_PersistentVolumeClaim`).
 *
 * Template defaults are injected on CREATE and on an UPDATE that changes `spec.template` (see
 * {@link defaultCloneSetForAdmission}), unless the feature gate `TemplateNoDefaults` is on. The `updateStrategy` and
 * `scaleStrategy` objects are always present afterwards (Go serializes these structs even when empty).
 *
 * Any JSON value is accepted and nothing throws: a member of the wrong JSON type is left as it is, and nothing
 * below it is defaulted; validation reports it with its path.
 */
import { cloneJson, isPlainObject, jsonEqual } from '@regatta/kube';
import { applyKruisePodSpecDefaults } from '../core/pod-defaults.js';
import { DEFAULT_CLONESET_MAX_UNAVAILABLE, DEFAULT_CLONESET_REVISION_HISTORY_LIMIT, type CloneSet } from './types.js';

type Obj = Record<string, unknown>;

/** The object at `key`, created empty when absent (null or undefined); undefined when it has another type. */
function objectMember(o: Obj, key: string): Obj | undefined {
  if (o[key] == null) o[key] = {};
  const v = o[key];
  return isPlainObject(v) ? v : undefined;
}

export interface CloneSetDefaultingOptions {
  /** Apply the pod-template and claim-template defaults (default true). */
  injectTemplateDefaults?: boolean;
}

/** A defaulted copy of a CloneSet (the input is not changed). */
export function defaultCloneSet<T extends CloneSet>(obj: T, options: CloneSetDefaultingOptions = {}): T {
  const out = cloneJson(obj);
  if (!isPlainObject(out)) return out;
  const spec = objectMember(out, 'spec');
  if (!spec) return out;
  spec['replicas'] ??= 1;
  spec['revisionHistoryLimit'] ??= DEFAULT_CLONESET_REVISION_HISTORY_LIMIT;

  if (options.injectTemplateDefaults ?? true) {
    const template = objectMember(spec, 'template');
    if (template) {
      if (template['spec'] == null) template['spec'] = { containers: [] };
      applyKruisePodSpecDefaults(template['spec']);
    }
    const claims = spec['volumeClaimTemplates'];
    for (const vct of Array.isArray(claims) ? claims.filter(isPlainObject) : []) {
      const status = objectMember(vct, 'status');
      if (status && !status['phase']) status['phase'] = 'Pending';
    }
  }

  objectMember(spec, 'scaleStrategy');
  const us = objectMember(spec, 'updateStrategy');
  if (!us) return out;
  if (!us['type']) us['type'] = 'ReCreate';
  else if ((us['type'] === 'InPlaceIfPossible' || us['type'] === 'InPlaceOnly') && us['inPlaceUpdateStrategy'] == null) {
    us['inPlaceUpdateStrategy'] = {};
  }
  us['partition'] ??= 0;
  us['maxUnavailable'] ??= DEFAULT_CLONESET_MAX_UNAVAILABLE;
  us['maxSurge'] ??= 0;
  return out;
}

export interface CloneSetAdmissionDefaultingOptions {
  /** Feature gate `TemplateNoDefaults`: never inject template defaults (default false). */
  templateNoDefaults?: boolean;
}

/**
 * The mutating webhook's decision: on CREATE (`old` undefined) template defaults are injected; on UPDATE only when
 * `spec.template` differs from the old object's.
 */
export function defaultCloneSetForAdmission<T extends CloneSet>(
  obj: T,
  old?: CloneSet,
  options: CloneSetAdmissionDefaultingOptions = {},
): T {
  const templateOf = (cs: unknown): unknown => {
    const spec = isPlainObject(cs) ? cs['spec'] : undefined;
    return isPlainObject(spec) ? spec['template'] : undefined;
  };
  const inject = !options.templateNoDefaults && (old === undefined || !jsonEqual(templateOf(obj), templateOf(old)));
  return defaultCloneSet(obj, { injectTemplateDefaults: inject });
}
