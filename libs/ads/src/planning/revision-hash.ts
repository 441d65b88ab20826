/** The pod's DaemonSet revision: its `controller-revision-hash` label, or the legacy `pod-template-generation`. */
import type { Pod } from '@regatta/lifecycle';
import { CONTROLLER_REVISION_HASH_LABEL } from '@regatta/revision';
import { POD_TEMPLATE_GENERATION_LABEL } from '../daemonset-object.js';

/**
 * `IsPodUpdated` (Kubernetes `pkg/controller/daemon/util`): the pod's hash label equals the DaemonSet's hash, or the
 * pod carries the DaemonSet's template generation (pods made before hashes existed).
 */
export function isPodAtHash(pod: Pod, hash: string, templateGeneration?: string): boolean {
  const labels = pod.metadata?.labels ?? {};
  if (labels[CONTROLLER_REVISION_HASH_LABEL] === hash) return true;
  return templateGeneration !== undefined && labels[POD_TEMPLATE_GENERATION_LABEL] === templateGeneration;
}
