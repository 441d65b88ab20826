/**
 * v1alpha1 ↔ v1beta1, as OpenKruise's conversion functions (`apis/apps/v1alpha1/daemonset_conversion.go`):
 * `Surging` becomes `Standard`, the annotation `daemonset.kruise.io/progressive-create-pod: "true"` and
 * `scaleStrategy.partitionedScaling: true` stand for each other, `status.daemonSetHash` is `status.updateRevision`.
 *
 * The API server does not call these (the CRD converts versions without a webhook; see
 * docs/adr/0019-daemonset-versions-and-admission.md): they serve tests, tools, and {@link isPartitionedScaling},
 * which the controller reads for objects written in either version.
 */
import { cloneJson } from '@regatta/kube';
import { Annotations } from '../well-known-keys.js';
import {
  DAEMONSET_API_VERSION,
  DAEMONSET_V1ALPHA1_API_VERSION,
  type DaemonSet,
  type DaemonSetV1alpha1,
} from './types.js';

/** Whether pod creation is limited by the partition: `scaleStrategy.partitionedScaling` or the v1alpha1 annotation. */
export function isPartitionedScaling(ds: Pick<DaemonSet, 'metadata' | 'spec'>): boolean {
  return ds.spec.scaleStrategy?.partitionedScaling === true || ds.metadata?.annotations?.[Annotations.DaemonSetProgressiveCreatePod] === 'true';
}

/** A v1alpha1 DaemonSet as v1beta1 (a copy). */
export function daemonSetToV1beta1(ds: DaemonSetV1alpha1): DaemonSet {
  const src = cloneJson(ds);
  const { updateStrategy, ...spec } = src.spec;
  const out: DaemonSet = { ...src, apiVersion: DAEMONSET_API_VERSION, spec: { ...spec } };
  if (updateStrategy) {
    const { rollingUpdate, ...rest } = updateStrategy;
    out.spec.updateStrategy = { ...rest };
    if (rollingUpdate) {
      const type = rollingUpdate.rollingUpdateType === 'Surging' ? 'Standard' : rollingUpdate.rollingUpdateType;
      out.spec.updateStrategy.rollingUpdate = { ...rollingUpdate, ...(type !== undefined ? { rollingUpdateType: type } : {}) };
    }
  }
  if (src.metadata?.annotations?.[Annotations.DaemonSetProgressiveCreatePod] === 'true') {
    out.spec.scaleStrategy = { partitionedScaling: true };
  }
  if (src.status) {
    const { daemonSetHash, ...status } = src.status;
    out.status = { ...status, ...(daemonSetHash !== undefined ? { updateRevision: daemonSetHash } : {}) };
  }
  return out;
}

/** A v1beta1 DaemonSet as v1alpha1 (a copy). */
export function daemonSetToV1alpha1(ds: DaemonSet): DaemonSetV1alpha1 {
  const src = cloneJson(ds);
  const { scaleStrategy, ...spec } = src.spec;
  const out: DaemonSetV1alpha1 = { ...src, apiVersion: DAEMONSET_V1ALPHA1_API_VERSION, spec };
  if (scaleStrategy?.partitionedScaling) {
    out.metadata = {
      ...(out.metadata ?? {}),
      annotations: { ...(out.metadata?.annotations ?? {}), [Annotations.DaemonSetProgressiveCreatePod]: 'true' },
    };
  }
  if (src.status) {
    const { updateRevision, ...status } = src.status;
    out.status = { ...status, ...(updateRevision !== undefined ? { daemonSetHash: updateRevision } : {}) };
  }
  return out;
}
