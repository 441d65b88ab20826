import type { Change, KubeObject } from '@regatta/kube';
import type { Request } from '@regatta/runtime';

/**
 * The SidecarSets a pod change concerns. TODO(scs-upgrade): map through the pod's
 * `kruise.io/sidecarset-injected-list` annotation (OpenKruise `pkg/controller/sidecarset/sidecarset_pod_event_handler.go`).
 */
export function sidecarSetsForPodChange(_change: Change<KubeObject>): readonly Request[] {
  return [];
}
