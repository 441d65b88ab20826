/**
 * Pod identity and storage (OpenKruise `pkg/controller/statefulset/stateful_set_utils.go` `newStatefulSetPod`,
 * `initIdentity`, `updateIdentity`, `identityMatches`, `storageMatches`, `getPersistentVolumeClaims`,
 * `updateStorage`): pod `<set>-<ordinal>`, hostname = name, subdomain = serviceName, the pod-name and pod-index
 * labels, one claim `<template>-<set>-<ordinal>` per volumeClaimTemplate mounted as the template's volume.
 */
import { type KubeObject, type ObjectMeta, cloneJson, newControllerRef } from '@regatta/kube';
import {
  LifecycleState,
  type LifecycleStateType,
  type Pod,
  setPodLifecycle,
  withKruisePodReadinessGate,
} from '@regatta/lifecycle';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  type PodTemplate,
  type VolumeClaimTemplate,
} from '@regatta/revision';
import { STATEFULSET_GVK, type StatefulSetObject } from '../statefulset-object.js';
import { ordinalOf, parentAndOrdinal } from './ordinals.js';

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

export interface PersistentVolumeClaim extends KubeObject {
  spec?: { resources?: { requests?: Record<string, string> }; [k: string]: unknown };
  status?: { capacity?: Record<string, string>; [k: string]: unknown };
}

interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  [k: string]: unknown;
}

export function podName(setName: string, ordinal: number): string {
  return `${setName}-${ordinal}`;
}

export function claimName(templateName: string, setName: string, ordinal: number): string {
  return `${templateName}-${setName}-${ordinal}`;
}

/** `getPersistentVolumeClaims`: the pod's claims by template name; labels = template labels + selector matchLabels. */
export function claimsForPod(set: StatefulSetObject, ordinal: number): Map<string, PersistentVolumeClaim> {
  const out = new Map<string, PersistentVolumeClaim>();
  const setName = set.metadata?.name ?? '';
  const matchLabels = set.spec?.selector?.matchLabels ?? {};
  for (const t of set.spec?.volumeClaimTemplates ?? []) {
    const tname = t.metadata?.name ?? '';
    const claim = cloneJson(t) as PersistentVolumeClaim;
    claim.apiVersion = 'v1';
    claim.kind = 'PersistentVolumeClaim';
    const meta: ObjectMeta = { ...(claim.metadata ?? {}) };
    meta.name = claimName(tname, setName, ordinal);
    if (set.metadata?.namespace !== undefined) meta.namespace = set.metadata.namespace;
    meta.labels = { ...(meta.labels ?? {}), ...matchLabels };
    claim.metadata = meta;
    delete (claim as { status?: unknown }).status;
    out.set(tname, claim);
  }
  return out;
}

/** `updateStorage`: the claim volumes first, then the pod's other volumes (a same-named volume is replaced). */
function withClaimVolumes(
  set: StatefulSetObject,
  volumes: readonly Volume[] | undefined,
  ordinal: number,
): Volume[] {
  const claims = claimsForPod(set, ordinal);
  const out: Volume[] = [...claims].map(([name, claim]) => ({
    name,
    persistentVolumeClaim: { claimName: claim.metadata?.name ?? '' },
  }));
  for (const v of volumes ?? []) if (!claims.has(v.name)) out.push(v);
  return out;
}

/** `updateIdentity`: name, namespace, pod-name label and (gate PodIndexLabel) pod-index label. */
export function withIdentity(set: StatefulSetObject, pod: Pod, podIndexLabel: boolean): Pod {
  const ordinal = ordinalOf(pod);
  const name = podName(set.metadata?.name ?? '', ordinal);
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      name,
      ...(set.metadata?.namespace !== undefined ? { namespace: set.metadata.namespace } : {}),
      labels: {
        ...(pod.metadata?.labels ?? {}),
        [POD_NAME_LABEL]: name,
        ...(podIndexLabel ? { [POD_INDEX_LABEL]: String(ordinal) } : {}),
      },
    },
  };
}

/** The pod with its identity and storage made to match the set (`UpdateStatefulPod`'s fix-ups). */
export function withIdentityAndStorage(set: StatefulSetObject, pod: Pod, podIndexLabel: boolean): Pod {
  const out = withIdentity(set, pod, podIndexLabel);
  return {
    ...out,
    spec: {
      ...out.spec,
      volumes: withClaimVolumes(set, out.spec?.['volumes'] as Volume[] | undefined, ordinalOf(pod)),
    },
  };
}

export interface NewPodInput {
  set: StatefulSetObject;
  /** The template of the revision the pod is created at. */
  template: PodTemplate;
  revision: string;
  ordinal: number;
  /** Normal, or PreparingNormal while a preNormal hook is not all-hooked. */
  state: LifecycleStateType;
  podIndexLabel: boolean;
  now: Date;
}

/**
 * `newVersionedStatefulSetPod`: the template's metadata and spec, name `<set>-<ordinal>`, controller reference,
 * `controller-revision-hash` = revision name, identity labels, hostname/subdomain, claim volumes, lifecycle state.
 * No readiness gate is added (the user puts `InPlaceUpdateReady` in the template for in-place updates).
 */
export function newStatefulSetPod(input: NewPodInput): Pod {
  const { set } = input;
  const setName = set.metadata?.name ?? '';
  const name = podName(setName, input.ordinal);
  const meta = input.template.metadata;
  const ref = newControllerRef(set, {
    apiVersion: set.apiVersion ?? STATEFULSET_GVK.apiVersion,
    kind: set.kind ?? STATEFULSET_GVK.kind,
  });
  const metadata: ObjectMeta = {
    name,
    ...(set.metadata?.namespace !== undefined ? { namespace: set.metadata.namespace } : {}),
    labels: { ...(meta?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: input.revision },
    ...(meta?.annotations && Object.keys(meta.annotations).length > 0
      ? { annotations: { ...meta.annotations } }
      : {}),
    ...(meta?.finalizers && meta.finalizers.length > 0 ? { finalizers: [...meta.finalizers] } : {}),
    ownerReferences: [ref],
  };
  const spec = cloneJson(input.template.spec ?? {});
  spec['hostname'] = name;
  const serviceName = set.spec?.serviceName;
  if (serviceName) spec['subdomain'] = serviceName;
  let pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata, spec };
  pod = withIdentityAndStorage(set, pod, input.podIndexLabel);
  // upstream's pod webhook adds the KruisePodReady gate at CREATE (pkg/webhook/pod/mutating/pod_readiness.go)
  return setPodLifecycle(withKruisePodReadinessGate(pod), input.state, input.now);
}

/** `identityMatches`: a valid ordinal, the set's name, namespace and pod-name label. */
export function identityMatches(set: StatefulSetObject, pod: Pod): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod.metadata?.name ?? '');
  const labels = pod.metadata?.labels ?? {};
  return (
    ordinal >= 0 &&
    parent === set.metadata?.name &&
    pod.metadata?.namespace === set.metadata?.namespace &&
    labels[POD_NAME_LABEL] === pod.metadata?.name
  );
}

/** `storageMatches`: every volumeClaimTemplate is mounted from the pod's own claim. */
export function storageMatches(set: StatefulSetObject, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map(((pod.spec?.['volumes'] as Volume[] | undefined) ?? []).map((v) => [v.name, v]));
  for (const t of set.spec?.volumeClaimTemplates ?? []) {
    const tname = t.metadata?.name ?? '';
    const v = volumes.get(tname);
    if (v?.persistentVolumeClaim?.claimName !== claimName(tname, set.metadata?.name ?? '', ordinal))
      return false;
  }
  return true;
}

/** The lifecycle state a new pod is created in: Normal unless a preNormal hook is set and not all-hooked. */
export function initialState(hooked: boolean, hasPreNormal: boolean): LifecycleStateType {
  return !hasPreNormal || hooked ? LifecycleState.Normal : LifecycleState.PreparingNormal;
}

export type { VolumeClaimTemplate };
