/**
 * The shapes the injection reads and writes: the SidecarSet as the pod webhook sees it (v1beta1, or v1alpha1 with its
 * `spec.namespace`), the pod, and the annotations it writes (OpenKruise `pkg/control/sidecarcontrol/api.go`).
 */
import type { Container, EnvVar, Pod, SidecarContainer, SidecarSet, Volume } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';

export type { Container, EnvVar, Pod, SidecarContainer, Volume };

/** A SidecarSet as any served version stores it: v1alpha1's `spec.namespace` is honoured as well. */
export type AnySidecarSet = SidecarSet & { spec: SidecarSet['spec'] & { namespace?: string } };

/** A ControllerRevision of a SidecarSet (`kruise.io/sidecarset-name` label, `data.spec` the replaced fields). */
export interface SidecarSetRevision extends KubeObject {
  data?: { spec?: Record<string, unknown> };
  revision?: number;
}

/** One entry of the pod's `kruise.io/sidecarset-hash` / `-without-image` JSON maps (`SidecarSetUpgradeSpec`). */
export interface SidecarSetUpgradeSpec {
  updateTimestamp?: string;
  hash: string;
  sidecarSetName: string;
  sidecarList?: string[];
  controllerRevision?: string;
}

/** `container.volumeDevices[]` (core/v1 VolumeDevice). */
export interface VolumeDevice {
  name: string;
  devicePath: string;
}

export const podContainers = (pod: Pod): Container[] => (pod.spec?.containers ?? []) as Container[];
