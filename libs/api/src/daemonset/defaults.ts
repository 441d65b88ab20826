/**
 * DaemonSet defaulting, as OpenKruise's mutating webhook (`pkg/webhook/daemonset/mutating`,
 * `apis/apps/defaults` SetDefaultsDaemonSetV1beta1 / SetDefaultsDaemonSet):
 *
 * - `spec.burstReplicas` 250, `spec.revisionHistoryLimit` 10;
 * - `spec.updateStrategy.type` `RollingUpdate` when empty; then for RollingUpdate an empty `rollingUpdate: {}` when
 *   absent, `rollingUpdateType` `Standard` when empty, and when both `maxUnavailable` and `maxSurge` are unset
 *   `maxUnavailable: 1, maxSurge: 0`;
 * - v1alpha1 only: the deprecated `rollingUpdateType: Surging` becomes `Standard`, with `maxSurge` 1 and
 *   `maxUnavailable` 0 where unset (so it keeps its surge behaviour).
 *
 * The pod template is never defaulted (the DaemonSet webhook does not read the `TemplateNoDefaults` gate: it never
 * injects template defaults). `updateStrategy` is always present afterwards (Go serializes the struct even when
 * empty).
 *
 * Any JSON value is accepted and nothing throws: a member of the wrong JSON type is left as it is, and nothing
 * below it is defaulted; validation reports it with its path.
 */
import { cloneJson, isPlainObject } from '@regatta/kube';
import {
  DEFAULT_DAEMONSET_BURST_REPLICAS,
  DEFAULT_DAEMONSET_MAX_SURGE,
  DEFAULT_DAEMONSET_MAX_UNAVAILABLE,
  DEFAULT_DAEMONSET_REVISION_HISTORY_LIMIT,
  SURGING_DEFAULT_MAX_SURGE,
  SURGING_DEFAULT_MAX_UNAVAILABLE,
} from './types.js';
import { type DaemonSetVersion, daemonSetVersionOf } from './version.js';

type Obj = Record<string, unknown>;

/** The object at `key`, created empty when absent (null or undefined); undefined when it has another type. */
function objectMember(o: Obj, key: string): Obj | undefined {
  if (o[key] == null) o[key] = {};
  const v = o[key];
  return isPlainObject(v) ? v : undefined;
}

/**
 * A defaulted copy of a DaemonSet (the input is not changed). `version` defaults to the one the object's
 * apiVersion names (v1beta1 when it names none).
 */
export function defaultDaemonSet<T>(obj: T, version: DaemonSetVersion = daemonSetVersionOf(obj)): T {
  const out = cloneJson(obj);
  if (!isPlainObject(out)) return out;
  const spec = objectMember(out, 'spec');
  if (!spec) return out;
  spec['burstReplicas'] ??= DEFAULT_DAEMONSET_BURST_REPLICAS;
  spec['revisionHistoryLimit'] ??= DEFAULT_DAEMONSET_REVISION_HISTORY_LIMIT;

  const us = objectMember(spec, 'updateStrategy');
  if (!us) return out;
  if (!us['type']) us['type'] = 'RollingUpdate';
  if (us['type'] !== 'RollingUpdate') return out;
  const ru = objectMember(us, 'rollingUpdate');
  if (!ru) return out;
  if (version === 'v1alpha1' && ru['rollingUpdateType'] === 'Surging') {
    ru['maxSurge'] ??= SURGING_DEFAULT_MAX_SURGE;
    ru['maxUnavailable'] ??= SURGING_DEFAULT_MAX_UNAVAILABLE;
    ru['rollingUpdateType'] = 'Standard';
  }
  if (!ru['rollingUpdateType']) ru['rollingUpdateType'] = 'Standard';
  if (ru['maxUnavailable'] == null && ru['maxSurge'] == null) {
    ru['maxUnavailable'] = DEFAULT_DAEMONSET_MAX_UNAVAILABLE;
    ru['maxSurge'] = DEFAULT_DAEMONSET_MAX_SURGE;
  }
  return out;
}
