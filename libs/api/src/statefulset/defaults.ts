/**
 * Advanced StatefulSet defaulting, as OpenKruise v1.9's mutating webhook (`pkg/webhook/statefulset/mutating`,
 * `apis/apps/defaults/v1beta1.go` `SetDefaultsStatefulSet`):
 *
 * - `spec.podManagementPolicy` `OrderedReady`; `spec.updateStrategy.type` `RollingUpdate`;
 * - for `RollingUpdate`: `rollingUpdate` created when absent, with `partition` 0, `maxUnavailable` 1,
 *   `podUpdatePolicy` `ReCreate`, `minReadySeconds` 0 (an `OnDelete` strategy gets none of these);
 * - gate `StatefulSetAutoDeletePVC` (default on): `persistentVolumeClaimRetentionPolicy` with `whenDeleted` and
 *   `whenScaled` `Retain`;
 * - gate `StatefulSetAutoResizePVCGate` (default off): `volumeClaimUpdateStrategy.type` `OnDelete`;
 * - `spec.replicas` 1, `spec.revisionHistoryLimit` 10;
 * - when template defaults are injected: the pod-spec defaults of {@link applyKruisePodSpecDefaults}, and
 *   `status.phase: Pending` on every volume claim template (core/v1 `SetDefaults_PersistentVolumeClaim`).
 *
 * Template defaults are injected on CREATE and on an UPDATE that changes `spec.template`
 * ({@link defaultStatefulSetForAdmission}), unless the gate `TemplateNoDefaults` is on. The `updateStrategy` object is
 * always present afterwards (Go serializes the struct even when empty). The webhook answers with the JSON patch from
 * the input to the returned object (the runtime's WebhookServer computes it), as for CloneSet.
 *
 * Any JSON value is accepted and nothing throws: a member of the wrong JSON type is left as it is, and nothing
 * below it is defaulted; validation reports it with its path.
 */
import { cloneJson, isPlainObject, jsonEqual } from '@regatta/kube';
import { applyKruisePodSpecDefaults } from '../core/pod-defaults.js';
import {
  DEFAULT_STATEFULSET_MAX_UNAVAILABLE,
  DEFAULT_STATEFULSET_REVISION_HISTORY_LIMIT,
  type StatefulSet,
} from './types.js';

type Obj = Record<string, unknown>;

/** The object at `key`, created empty when absent (null or undefined); undefined when it has another type. */
function objectMember(o: Obj, key: string): Obj | undefined {
  if (o[key] == null) o[key] = {};
  const v = o[key];
  return isPlainObject(v) ? v : undefined;
}

/** Feature gates read by the defaults (OpenKruise defaults when omitted). */
export interface StatefulSetDefaultingGates {
  /** `StatefulSetAutoDeletePVC` (default true): default the PVC retention policy to Retain/Retain. */
  autoDeletePVC?: boolean;
  /** `StatefulSetAutoResizePVCGate` (default false): default `volumeClaimUpdateStrategy.type` to OnDelete. */
  autoResizePVC?: boolean;
}

export interface StatefulSetDefaultingOptions extends StatefulSetDefaultingGates {
  /** Apply the pod-template and claim-template defaults (default true). */
  injectTemplateDefaults?: boolean;
}

function defaultRollingUpdate(us: Obj): void {
  if (!us['type']) us['type'] = 'RollingUpdate';
  if (us['type'] !== 'RollingUpdate') return;
  const ru = objectMember(us, 'rollingUpdate');
  if (!ru) return;
  ru['partition'] ??= 0;
  ru['maxUnavailable'] ??= DEFAULT_STATEFULSET_MAX_UNAVAILABLE;
  if (!ru['podUpdatePolicy']) ru['podUpdatePolicy'] = 'ReCreate';
  ru['minReadySeconds'] ??= 0;
}

function defaultTemplates(spec: Obj): void {
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

/** A defaulted copy of a StatefulSet (the input is not changed). */
export function defaultStatefulSet<T extends StatefulSet>(obj: T, options: StatefulSetDefaultingOptions = {}): T {
  const out = cloneJson(obj);
  if (!isPlainObject(out)) return out;
  const spec = objectMember(out, 'spec');
  if (!spec) return out;
  if (!spec['podManagementPolicy']) spec['podManagementPolicy'] = 'OrderedReady';
  const us = objectMember(spec, 'updateStrategy');
  if (us) defaultRollingUpdate(us);

  if (options.autoDeletePVC ?? true) {
    const policy = objectMember(spec, 'persistentVolumeClaimRetentionPolicy');
    if (policy) {
      if (!policy['whenDeleted']) policy['whenDeleted'] = 'Retain';
      if (!policy['whenScaled']) policy['whenScaled'] = 'Retain';
    }
  }
  if (options.autoResizePVC ?? false) {
    const vcus = objectMember(spec, 'volumeClaimUpdateStrategy');
    if (vcus && !vcus['type']) vcus['type'] = 'OnDelete';
  }

  spec['replicas'] ??= 1;
  spec['revisionHistoryLimit'] ??= DEFAULT_STATEFULSET_REVISION_HISTORY_LIMIT;
  if (options.injectTemplateDefaults ?? true) defaultTemplates(spec);
  return out;
}

export interface StatefulSetAdmissionDefaultingOptions extends StatefulSetDefaultingGates {
  /** Feature gate `TemplateNoDefaults`: never inject template defaults (default false). */
  templateNoDefaults?: boolean;
}

/**
 * The mutating webhook's decision: on CREATE (`old` undefined) template defaults are injected; on UPDATE only when
 * `spec.template` differs from the old object's.
 */
export function defaultStatefulSetForAdmission<T extends StatefulSet>(
  obj: T,
  old?: StatefulSet,
  options: StatefulSetAdmissionDefaultingOptions = {},
): T {
  const templateOf = (sts: unknown): unknown => {
    const spec = isPlainObject(sts) ? sts['spec'] : undefined;
    return isPlainObject(spec) ? spec['template'] : undefined;
  };
  const inject = !options.templateNoDefaults && (old === undefined || !jsonEqual(templateOf(obj), templateOf(old)));
  const { templateNoDefaults: _unused, ...gates } = options;
  return defaultStatefulSet(obj, { ...gates, injectTemplateDefaults: inject });
}
