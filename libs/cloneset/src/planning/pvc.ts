/**
 * CloneSet PVCs (`pkg/controller/cloneset/sync/cloneset_scale.go`): one claim per `volumeClaimTemplates` entry and instance id, named
 * `<template>-<cloneset>-<id>` (= `<template>-<pod name>`), mounted in place of the template volume of that name;
 * reuse of claims whose pod is gone, and the clean-up when reuse is disabled.
 */
import {
  type KubeObject,
  type ObjectMeta,
  type OwnerReference,
  cloneJson,
  newControllerRef,
} from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { VolumeClaimTemplate } from '@regatta/revision';
import { INSTANCE_ID_LABEL, instanceIdOf } from './instance-id.js';

/** A PersistentVolumeClaim (open shape). */
export interface PersistentVolumeClaim extends KubeObject {
  metadata?: ObjectMeta;
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A pod volume (open shape). */
export interface Volume {
  name: string;
  [key: string]: unknown;
}

/** `<template>-<cloneset>-<id>`. */
export function claimName(templateName: string, cloneSetName: string, id: string): string {
  return `${templateName}-${cloneSetName}-${id}`;
}

export interface ClaimOwner {
  name: string;
  namespace?: string;
  /** The CloneSet's controller reference, as put on its pods. */
  controllerRef: OwnerReference;
  /** `spec.selector.matchLabels`, copied onto the claims. */
  matchLabels?: Readonly<Record<string, string>> | null;
}

/** `GetPersistentVolumeClaims`: the claims of instance `id`, in template order. */
export function claimsForInstance(
  templates: readonly VolumeClaimTemplate[] | null | undefined,
  owner: ClaimOwner,
  id: string,
): PersistentVolumeClaim[] {
  return (templates ?? []).map((t) => {
    const claim = cloneJson(t) as PersistentVolumeClaim;
    const templateName = t.metadata?.name ?? '';
    claim.metadata = {
      ...(claim.metadata as ObjectMeta | undefined),
      name: claimName(templateName, owner.name, id),
      ...(owner.namespace !== undefined ? { namespace: owner.namespace } : {}),
      labels: { ...(t.metadata?.labels ?? {}), ...(owner.matchLabels ?? {}), [INSTANCE_ID_LABEL]: id },
      ownerReferences: [
        ...((t.metadata?.['ownerReferences'] as OwnerReference[] | undefined) ?? []),
        owner.controllerRef,
      ],
    };
    delete claim.metadata['creationTimestamp'];
    return claim;
  });
}

/**
 * `UpdateStorage`: one `persistentVolumeClaim` volume per template (named after it), then the pod's other volumes;
 * a template volume with the same name is replaced.
 */
export function volumesWithClaims(
  volumes: readonly Volume[] | null | undefined,
  templates: readonly VolumeClaimTemplate[] | null | undefined,
  cloneSetName: string,
  id: string,
): Volume[] {
  const names = new Set((templates ?? []).map((t) => t.metadata?.name ?? ''));
  const claims = (templates ?? []).map((t) => ({
    name: t.metadata?.name ?? '',
    persistentVolumeClaim: { claimName: claimName(t.metadata?.name ?? '', cloneSetName, id) },
  }));
  return [...claims, ...(volumes ?? []).filter((v) => !names.has(v.name))];
}

/** The claims to create for a new pod: those whose name does not exist yet. */
export function claimsToCreate(
  claims: readonly PersistentVolumeClaim[],
  existing: readonly KubeObject[],
): PersistentVolumeClaim[] {
  const names = new Set(existing.map((c) => c.metadata?.name ?? ''));
  return claims.filter((c) => !names.has(c.metadata?.name ?? ''));
}

/** The claims sharing the pod's instance id (deleted with the pod by the controller). */
export function claimsOfPod(
  pod: KubeObject,
  pvcs: readonly PersistentVolumeClaim[],
): PersistentVolumeClaim[] {
  const id = instanceIdOf(pod);
  return pvcs.filter((c) => instanceIdOf(c) === id);
}

/** What `cleanupPVCs` does when PVC reuse is disabled. */
export interface PvcCleanup {
  /** Claims of active pods: keep (they are the claims to use from now on). */
  active: PersistentVolumeClaim[];
  /** Claims of terminated/terminating pods: hand ownership from the CloneSet to the pod (`claimOwnedByPod`). */
  handOver: { pvc: PersistentVolumeClaim; pod: Pod }[];
  /** Claims of no pod at all: delete. */
  remove: PersistentVolumeClaim[];
}

/** `cleanupPVCs`: splits the CloneSet's claims by whether their instance id has an active pod, an inactive pod, or none. */
export function planPvcCleanup(
  activePods: readonly Pod[],
  inactivePods: readonly Pod[],
  pvcs: readonly PersistentVolumeClaim[],
): PvcCleanup {
  const active = new Set(activePods.map(instanceIdOf).filter((id) => id !== ''));
  const inactive = new Map<string, Pod>();
  for (const p of inactivePods) if (instanceIdOf(p) !== '') inactive.set(instanceIdOf(p), p);
  const out: PvcCleanup = { active: [], handOver: [], remove: [] };
  for (const pvc of pvcs) {
    const id = instanceIdOf(pvc);
    const pod = inactive.get(id);
    if (active.has(id)) out.active.push(pvc);
    else if (pod) out.handOver.push({ pvc, pod });
    else out.remove.push(pvc);
  }
  return out;
}

/** `updateClaimOwnerRefToPod`: the claim without the CloneSet's owner reference and controlled by the pod (for an UPDATE). */
export function claimOwnedByPod(
  pvc: PersistentVolumeClaim,
  cloneSetUid: string,
  pod: Pod,
): PersistentVolumeClaim {
  const podUid = pod.metadata?.uid;
  const refs = (pvc.metadata?.ownerReferences ?? []).filter((r) => r.uid !== cloneSetUid);
  if (!refs.some((r) => r.uid === podUid))
    refs.push(newControllerRef(pod, { apiVersion: 'v1', kind: 'Pod' }));
  return { ...pvc, metadata: { ...pvc.metadata, ownerReferences: refs } };
}
