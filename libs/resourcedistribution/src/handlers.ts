/** What the controller's caches keep and how their changes map to requests (pure). */
import type { KubeObject } from '@regatta/kube';
import { controllerRef } from '@regatta/kube';

/** Secrets and ConfigMaps controlled by some ResourceDistribution: the only ones the controller's caches keep. */
export function isDistributedCopy(obj: KubeObject): boolean {
  const ref = controllerRef(obj);
  return ref?.kind === 'ResourceDistribution' && (ref.apiVersion ?? '').startsWith('apps.kruise.io/');
}
