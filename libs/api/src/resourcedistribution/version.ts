/** Which served version of the ResourceDistribution an object or an admission request is in. */
import { isPlainObject } from '@regatta/kube';
import { RESOURCE_DISTRIBUTION_V1ALPHA1_API_VERSION, type ResourceDistributionTargets } from './types.js';

export type ResourceDistributionVersion = 'v1alpha1' | 'v1beta1';

/** `v1alpha1` when the object's apiVersion says so; `v1beta1` (the storage version) otherwise. */
export function resourceDistributionVersionOf(obj: unknown): ResourceDistributionVersion {
  return isPlainObject(obj) && obj['apiVersion'] === RESOURCE_DISTRIBUTION_V1ALPHA1_API_VERSION ? 'v1alpha1' : 'v1beta1';
}

/** The name of the namespace label selector in a version. */
export function selectorFieldOf(version: ResourceDistributionVersion): 'namespaceLabelSelector' | 'namespaceSelector' {
  return version === 'v1alpha1' ? 'namespaceLabelSelector' : 'namespaceSelector';
}

/**
 * The namespace label selector of targets written in `version` (its own name first, then the other version's, as
 * the mutating webhook keeps both equal).
 */
export function namespaceSelectorOf(
  targets: ResourceDistributionTargets | undefined,
  version: ResourceDistributionVersion = 'v1beta1',
): ResourceDistributionTargets['namespaceSelector'] {
  if (!targets) return undefined;
  return version === 'v1alpha1'
    ? (targets.namespaceLabelSelector ?? targets.namespaceSelector)
    : (targets.namespaceSelector ?? targets.namespaceLabelSelector);
}
