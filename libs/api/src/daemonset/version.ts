/** Which served version of the DaemonSet an object (or an admission request) is in. */
import { isPlainObject } from '@regatta/kube';
import { DAEMONSET_V1ALPHA1_API_VERSION } from './types.js';

export type DaemonSetVersion = 'v1alpha1' | 'v1beta1';

/** `v1alpha1` when the object's apiVersion says so; `v1beta1` (the storage version) otherwise. */
export function daemonSetVersionOf(obj: unknown): DaemonSetVersion {
  return isPlainObject(obj) && obj['apiVersion'] === DAEMONSET_V1ALPHA1_API_VERSION ? 'v1alpha1' : 'v1beta1';
}
