/** Which served version of the SidecarSet an object (or an admission request) is in. */
import { isPlainObject } from '@regatta/kube';
import { SIDECARSET_V1ALPHA1_API_VERSION } from './types.js';

export type SidecarSetVersion = 'v1alpha1' | 'v1beta1';

/** `v1alpha1` when the object's apiVersion says so; `v1beta1` (the storage version) otherwise. */
export function sidecarSetVersionOf(obj: unknown): SidecarSetVersion {
  return isPlainObject(obj) && obj['apiVersion'] === SIDECARSET_V1ALPHA1_API_VERSION ? 'v1alpha1' : 'v1beta1';
}

/** The version named by an admission request's `resource.version`; undefined for a version Regatta does not serve. */
export function sidecarSetRequestVersion(resourceVersion: string | undefined): SidecarSetVersion | undefined {
  return resourceVersion === 'v1alpha1' || resourceVersion === 'v1beta1' ? resourceVersion : undefined;
}
