/**
 * SidecarSet defaulting, as OpenKruise's mutating webhook (`pkg/webhook/sidecarset/mutating`,
 * `apis/apps/defaults/v1beta1.go` SetDefaultsSidecarSetV1beta1; v1alpha1's is the same):
 *
 * - `spec.updateStrategy`: `type: RollingUpdate`, `maxUnavailable: 1`, `partition: 0` where unset;
 * - every container: `podInjectPolicy` `BeforeAppContainer` (containers) / `AfterAppContainer` (initContainers),
 *   `upgradeStrategy.upgradeType: ColdUpgrade`, `shareVolumePolicy.type: disabled`, then core/v1 container defaults
 *   (`imagePullPolicy` by tag, termination message path / policy, port protocol, env and `transferEnv`
 *   `fieldRef.apiVersion: v1`, probe and handler defaults); `resourcesPolicy.targetContainersNameRegex: ".*"` (a CRD
 *   default upstream);
 * - `spec.volumes`: core/v1 volume defaults;
 * - `spec.revisionHistoryLimit: 10`; `patchPodMetadata[].patchPolicy: Retain`;
 *   `injectionStrategy.revision.policy: Always` when a revision is set.
 *
 * `updateStrategy` and `injectionStrategy` are always present afterwards (Go serializes the structs even when empty).
 * The SidecarSet webhook does not read the `TemplateNoDefaults` gate: it always defaults its containers and volumes.
 *
 * Any JSON value is accepted and nothing throws: a member of the wrong JSON type is left as it is, and nothing
 * below it is defaulted; validation reports it with its path.
 */
import { cloneJson, isPlainObject } from '@regatta/kube';
import { applyKruisePodSpecDefaults } from '../core/pod-defaults.js';
import {
  DEFAULT_SIDECARSET_MAX_UNAVAILABLE,
  DEFAULT_SIDECARSET_PARTITION,
  DEFAULT_SIDECARSET_REVISION_HISTORY_LIMIT,
  DEFAULT_TARGET_CONTAINERS_NAME_REGEX,
} from './types.js';

type Obj = Record<string, unknown>;

/** The object at `key`, created empty when absent (null or undefined); undefined when it has another type. */
function objectMember(o: Obj, key: string): Obj | undefined {
  if (o[key] == null) o[key] = {};
  const v = o[key];
  return isPlainObject(v) ? v : undefined;
}

const objectsAt = (o: Obj, key: string): Obj[] => {
  const v = o[key];
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
};

function defaultSidecarFields(c: Obj, injectPolicy: 'BeforeAppContainer' | 'AfterAppContainer'): void {
  if (!c['podInjectPolicy']) c['podInjectPolicy'] = injectPolicy;
  const upgrade = objectMember(c, 'upgradeStrategy');
  if (upgrade && !upgrade['upgradeType']) upgrade['upgradeType'] = 'ColdUpgrade';
  const share = objectMember(c, 'shareVolumePolicy');
  if (share && !share['type']) share['type'] = 'disabled';
  for (const t of objectsAt(c, 'transferEnv')) {
    const from = t['sourceContainerNameFrom'];
    const ref = isPlainObject(from) ? from['fieldRef'] : undefined;
    if (isPlainObject(ref) && !ref['apiVersion']) ref['apiVersion'] = 'v1';
  }
  const policy = c['resourcesPolicy'];
  if (isPlainObject(policy) && policy['targetContainersNameRegex'] == null) {
    policy['targetContainersNameRegex'] = DEFAULT_TARGET_CONTAINERS_NAME_REGEX;
  }
}

/** Applies the defaults above to a spec in place (the caller owns it). */
export function applySidecarSetSpecDefaults(spec: Obj): void {
  const us = objectMember(spec, 'updateStrategy');
  if (us) {
    if (!us['type']) us['type'] = 'RollingUpdate';
    us['maxUnavailable'] ??= DEFAULT_SIDECARSET_MAX_UNAVAILABLE;
    us['partition'] ??= DEFAULT_SIDECARSET_PARTITION;
  }
  const inits = objectsAt(spec, 'initContainers');
  const containers = objectsAt(spec, 'containers');
  for (const c of inits) defaultSidecarFields(c, 'AfterAppContainer');
  for (const c of containers) defaultSidecarFields(c, 'BeforeAppContainer');
  // core/v1 SetDefaults_Container (pull policy by tag: the init-container rule of the pod defaults) and volumes
  const volumes = Array.isArray(spec['volumes']) ? spec['volumes'] : undefined;
  applyKruisePodSpecDefaults({ initContainers: [...inits, ...containers], ...(volumes ? { volumes } : {}) });

  spec['revisionHistoryLimit'] ??= DEFAULT_SIDECARSET_REVISION_HISTORY_LIMIT;
  for (const p of objectsAt(spec, 'patchPodMetadata')) if (!p['patchPolicy']) p['patchPolicy'] = 'Retain';
  const injection = objectMember(spec, 'injectionStrategy');
  const revision = injection?.['revision'];
  if (isPlainObject(revision) && !revision['policy']) revision['policy'] = 'Always';
}

/** A defaulted copy of a SidecarSet (either version; the input is not changed). */
export function defaultSidecarSet<T>(obj: T): T {
  const out = cloneJson(obj);
  if (!isPlainObject(out)) return out;
  const spec = objectMember(out, 'spec');
  if (spec) applySidecarSetSpecDefaults(spec);
  return out;
}
