import { Type, type TUnsafe } from '@sinclair/typebox';
import type { PersistentVolumeClaimTemplate, PodTemplateSpec } from '../core/pod-types.js';

/**
 * core/v1 PodTemplateSpec inside a workload. OpenKruise's CRDs keep it whole (`x-kubernetes-preserve-unknown-fields`)
 * and leave validation to the webhook; it is not an embedded resource (it has no apiVersion/kind).
 */
export const PodTemplateSpecSchema = (description: string): TUnsafe<PodTemplateSpec> =>
  Type.Unsafe<PodTemplateSpec>(Type.Object({}, { description, 'x-kubernetes-preserve-unknown-fields': true }));

/**
 * `volumeClaimTemplates`: a list of core/v1 PersistentVolumeClaims kept whole. (OpenKruise's CRD leaves this node
 * without a type at all; Regatta says `array` of `object`, which every valid manifest satisfies.)
 */
export const VolumeClaimTemplatesSchema = (description: string): TUnsafe<PersistentVolumeClaimTemplate[]> =>
  Type.Unsafe<PersistentVolumeClaimTemplate[]>(
    Type.Array(Type.Object({}, { 'x-kubernetes-preserve-unknown-fields': true }), { description }),
  );
