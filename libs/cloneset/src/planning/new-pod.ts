/** The pods and claims a CloneSet creates (`newVersionedPods`, `GetPodFromTemplate`, `UpdateStorage`, `pkg/controller/cloneset/sync/cloneset_scale.go`, `core/cloneset_core.go`). */
import {
  type GroupVersionKind,
  type KubeObject,
  type ObjectMeta,
  cloneJson,
  newControllerRef,
} from '@regatta/kube';
import { injectInPlaceUpdateReadinessGate } from '@regatta/inplace-update';
import { LifecycleState, type Pod, setPodLifecycle, withKruisePodReadinessGate } from '@regatta/lifecycle';
import { CLONESET_KIND, type PodTemplate, type VolumeClaimTemplate, revisionLabels } from '@regatta/revision';
import { INSTANCE_ID_LABEL, podNameFor } from './instance-id.js';
import { type PersistentVolumeClaim, type Volume, claimsForInstance, volumesWithClaims } from './pvc.js';

export interface NewPodInput {
  /** The CloneSet (name, namespace, uid; apiVersion/kind when present). */
  cloneSet: KubeObject;
  /** Owner kind for objects read from a list (default `apps.kruise.io/v1alpha1 CloneSet`). */
  gvk?: GroupVersionKind;
  /** The template of the revision the pod is created at (current or update). */
  template: PodTemplate;
  /** That revision's name. */
  revision: string;
  volumeClaimTemplates?: readonly VolumeClaimTemplate[] | null;
  id: string;
  now: Date;
  /** Gate `CloneSetShortHash`. */
  shortHash?: boolean;
}

/**
 * A new CloneSet pod: the template's labels, annotations, finalizers and spec; name `<set>-<id>`, generateName
 * `<set>-`; revision labels, instance id, lifecycle `PreparingNormal` (+ timestamp); controller owner reference;
 * the `InPlaceUpdateReady` readiness gate, then `KruisePodReady` (upstream's pod webhook adds it at CREATE,
 * `pkg/webhook/pod/mutating/pod_readiness.go`); claim volumes in place of template volumes of the same name.
 */
export function newCloneSetPod(input: NewPodInput): Pod {
  const name = input.cloneSet.metadata?.name ?? '';
  const ref = newControllerRef(input.cloneSet, {
    apiVersion: input.cloneSet.apiVersion ?? (input.gvk ?? CLONESET_KIND).apiVersion,
    kind: input.cloneSet.kind ?? (input.gvk ?? CLONESET_KIND).kind,
  });
  const meta = input.template.metadata;
  const metadata: ObjectMeta = {
    name: podNameFor(name, input.id),
    generateName: `${name}-`,
    ...(input.cloneSet.metadata?.namespace !== undefined
      ? { namespace: input.cloneSet.metadata.namespace }
      : {}),
    labels: {
      ...(meta?.labels ?? {}),
      ...revisionLabels(input.revision, { shortHash: input.shortHash ?? false }),
      [INSTANCE_ID_LABEL]: input.id,
    },
    ...(meta?.annotations && Object.keys(meta.annotations).length > 0
      ? { annotations: { ...meta.annotations } }
      : {}),
    ...(meta?.finalizers && meta.finalizers.length > 0 ? { finalizers: [...meta.finalizers] } : {}),
    ownerReferences: [ref],
  };
  const spec = cloneJson(input.template.spec ?? {});
  if ((input.volumeClaimTemplates ?? []).length > 0) {
    spec['volumes'] = volumesWithClaims(
      spec['volumes'] as Volume[] | undefined,
      input.volumeClaimTemplates,
      name,
      input.id,
    );
  }
  const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata, spec };
  const gated = withKruisePodReadinessGate(injectInPlaceUpdateReadinessGate(pod));
  return setPodLifecycle(gated, LifecycleState.PreparingNormal, input.now);
}

/** The claims of a new pod, ready to create (owner = the CloneSet, labels = template labels + selector matchLabels + instance id). */
export function newCloneSetClaims(
  cloneSet: KubeObject & { spec?: { selector?: { matchLabels?: Record<string, string> } | null } },
  volumeClaimTemplates: readonly VolumeClaimTemplate[] | null | undefined,
  id: string,
  gvk: GroupVersionKind = CLONESET_KIND,
): PersistentVolumeClaim[] {
  const ref = newControllerRef(cloneSet, {
    apiVersion: cloneSet.apiVersion ?? gvk.apiVersion,
    kind: cloneSet.kind ?? gvk.kind,
  });
  return claimsForInstance(
    volumeClaimTemplates,
    {
      name: cloneSet.metadata?.name ?? '',
      ...(cloneSet.metadata?.namespace !== undefined ? { namespace: cloneSet.metadata.namespace } : {}),
      controllerRef: ref,
      matchLabels: cloneSet.spec?.selector?.matchLabels ?? null,
    },
    id,
  ).map((claim) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...claim }));
}
