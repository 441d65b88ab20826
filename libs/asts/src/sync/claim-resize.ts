/**
 * Claim resize writes on rolling update (gate `StatefulSetAutoResizePVCGate`, `volumeClaimUpdateStrategy.type:
 * OnPodRollingUpdate`; OpenKruise `pkg/controller/statefulset/statefulset_resize_pvc.go` `TryPatchPVC`): the view of
 * the pods' claims the rolling update plans with, and the patch raising a claim's request to its template's, after
 * checking that its storage class allows expansion. The resize itself is the storage system's (the node simulator
 * stands in for it in tests and the sandbox: libs/node-simulator/src/volume-resize.ts).
 */
import { type KubeObject, isNotFound } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { ClaimResizeError } from '../errors.js';
import { errText, messages } from '../events.js';
import {
  type ClaimsView,
  OWNED_BY_ASTS_ANNOTATION,
  type PersistentVolumeClaim,
  type PodClaims,
  claimName,
  claimNeedsExpand,
  livePodClaims,
  ordinalOf,
  podClaimsReady,
  podClaimsResizeCompleted,
  podClaimsState,
} from '../planning/index.js';
import { nameOf } from '../statefulset-object.js';
import { type AstsSync, PVC } from './context.js';

const STORAGE_CLASS = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass' } as const;

/** Whether claims follow their templates on rolling update (the gate and `OnPodRollingUpdate`). */
export function resizesClaimsOnRollingUpdate(s: AstsSync): boolean {
  return (
    s.gates.StatefulSetAutoResizePVCGate && s.spec.volumeClaimUpdateStrategy?.type === 'OnPodRollingUpdate'
  );
}

/** A pod's claims (from the cache) with their templates. */
export function podClaims(s: AstsSync, pod: Pod): PodClaims {
  const ns = s.set.metadata?.namespace;
  const ordinal = ordinalOf(pod);
  return livePodClaims(
    (s.spec.volumeClaimTemplates ?? []) as PersistentVolumeClaim[],
    (template) =>
      s.d.pvcs.get(ns, claimName(template, nameOf(s.set), ordinal)) as PersistentVolumeClaim | undefined,
  );
}

export function claimsView(s: AstsSync): ClaimsView {
  return {
    state: (pod) => podClaimsState(podClaims(s, pod)),
    ready: (pod) => podClaimsReady(podClaims(s, pod)),
    resizeCompleted: (pod) => podClaimsResizeCompleted(podClaims(s, pod)),
  };
}

/**
 * `TryPatchPVC`: raise every claim of the pod smaller than its template to the template's resources, marking it
 * with the set's name; a claim whose storage class does not allow expansion stops with an error (no event, as
 * upstream). Events `SuccessfulResize` / `FailedResize`.
 */
export async function resizePodClaims(s: AstsSync, pod: Pod): Promise<void> {
  const setName = nameOf(s.set);
  for (const { claim, template } of podClaims(s, pod)) {
    if (!claimNeedsExpand(claim, template)) continue;
    const scName = (claim.spec as { storageClassName?: string | null } | undefined)?.storageClassName;
    if (scName) await requireExpansion(s, scName, nameOf(pod));
    const name = nameOf(claim);
    try {
      const patched = await s.d.client.patch(
        { ...PVC, namespace: claim.metadata?.namespace, name },
        {
          metadata: {
            annotations: { [OWNED_BY_ASTS_ANNOTATION]: setName },
            resourceVersion: claim.metadata?.resourceVersion,
          },
          spec: { resources: (template.spec as { resources?: unknown } | undefined)?.resources ?? null },
        },
        { type: 'merge' },
      );
      s.log.debug({ claim: name, resourceVersion: patched.metadata?.resourceVersion }, 'claim resized');
      void s.d.recorder.normal(s.set, 'SuccessfulResize', messages.claimResized(name, nameOf(pod), setName));
    } catch (err) {
      void s.d.recorder.warning(
        s.set,
        'FailedResize',
        messages.claimResizeFailed(name, nameOf(pod), setName, err),
      );
      throw new ClaimResizeError(`could not update claim ${name}: ${errText(err)}`, err);
    }
  }
}

async function requireExpansion(s: AstsSync, scName: string, podName: string): Promise<void> {
  let sc: KubeObject & { allowVolumeExpansion?: boolean };
  try {
    sc = await s.d.client.get<KubeObject & { allowVolumeExpansion?: boolean }>({
      ...STORAGE_CLASS,
      name: scName,
    });
  } catch (err) {
    throw new ClaimResizeError(
      isNotFound(err)
        ? `could not get sc ${scName} for ${podName} when checking PVC spec`
        : `could not get sc ${scName} for ${podName} when checking PVC spec: ${errText(err)}`,
      err,
    );
  }
  if (sc.allowVolumeExpansion !== true)
    throw new ClaimResizeError(`storage class ${scName} for ${podName} does not support volume expansion`);
}

/** A claim differs from its template in more than its size: event FailedUpdatePVC and the error upstream returns. */
export function claimMismatch(s: AstsSync, pod: Pod): ClaimResizeError {
  const claims = podClaims(s, pod);
  const bad = claims.find(({ claim, template }) => podClaimsState([{ claim, template }]) === 'mismatch');
  const name = bad ? nameOf(bad.claim) : '';
  void s.d.recorder.warning(s.set, 'FailedUpdatePVC', messages.claimMismatch(name));
  return new ClaimResizeError(
    `can not patch pvc ${name}: contains diff other than spec resource, wait pvc to be deleted`,
  );
}
