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
 */
import { cloneJson, jsonEqual } from '@regatta/kube';
import { applyKruisePodSpecDefaults } from '../core/pod-defaults.js';
import type { PodSpec } from '../core/pod-types.js';
import { DEFAULT_CLONESET_MAX_UNAVAILABLE, DEFAULT_CLONESET_REVISION_HISTORY_LIMIT, type CloneSet } from './types.js';

export interface CloneSetDefaultingOptions {
  /** Apply the pod-template and claim-template defaults (default true). */
  injectTemplateDefaults?: boolean;
}

/** A defaulted copy of a CloneSet (the input is not changed). */
export function defaultCloneSet<T extends CloneSet>(obj: T, options: CloneSetDefaultingOptions = {}): T {
  const out = cloneJson(obj);
  const spec = (out.spec ??= {} as T['spec']);
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= DEFAULT_CLONESET_REVISION_HISTORY_LIMIT;

  if (options.injectTemplateDefaults ?? true) {
    const template = (spec.template ??= {});
    applyKruisePodSpecDefaults((template.spec ??= { containers: [] }) as PodSpec);
    for (const vct of spec.volumeClaimTemplates ?? []) {
      const status = (vct.status ??= {});
      if (!status.phase) status.phase = 'Pending';
    }
  }

  spec.scaleStrategy ??= {};
  const us = (spec.updateStrategy ??= {});
  if (!us.type) us.type = 'ReCreate';
  else if ((us.type === 'InPlaceIfPossible' || us.type === 'InPlaceOnly') && us.inPlaceUpdateStrategy == null) {
    us.inPlaceUpdateStrategy = {};
  }
  us.partition ??= 0;
  us.maxUnavailable ??= DEFAULT_CLONESET_MAX_UNAVAILABLE;
  us.maxSurge ??= 0;
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
  const inject = !options.templateNoDefaults && (old === undefined || !jsonEqual(obj.spec?.template, old.spec?.template));
  return defaultCloneSet(obj, { injectTemplateDefaults: inject });
}
