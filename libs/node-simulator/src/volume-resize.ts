// Volume expansion for the simulator's classes, standing in for the external resizer and the kubelet's file
// system resize together: when a bound claim of one of our StorageClasses (allowVolumeExpansion true) requests more
// than its capacity, the PV grows to the request, then the claim's status capacity follows and its resize
// conditions (Resizing, FileSystemResizePending) are cleared. The API server itself refuses a larger request on a
// class that does not allow expansion (admission plugin PersistentVolumeClaimResize), so those never reach here.
import { compareQuantities } from '@regatta/kube';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from './types.js';

/**
 * The classes the simulator makes next to its default one: the names OpenKruise's e2e (VolumeExpansion specs of
 * `test/e2e/apps/v1beta1/statefulset.go`) looks for, one allowing expansion and one not; neither is the default.
 */
export const EXPANSION_STORAGE_CLASSES: readonly { name: string; allowVolumeExpansion: boolean }[] = [
  { name: 'allow-volume-expansion', allowVolumeExpansion: true },
  { name: 'disallow-volume-expansion', allowVolumeExpansion: false },
];

export interface ResizeStep {
  /** The size the PV must have first (when it is smaller). */
  volumeCapacity?: string;
  /** Then the claim's status capacity. */
  claimCapacity: string;
}

function smaller(a: string | undefined, b: string): boolean {
  if (a === undefined) return true;
  try {
    return compareQuantities(a, b) < 0;
  } catch {
    return false;
  }
}

/**
 * What to do for a claim: nothing (undefined) unless it is bound to its volume, its class is `provisioner`'s and
 * allows expansion, and it requests more than its status capacity.
 */
export function resizeStep(
  pvc: PersistentVolumeClaim,
  pv: PersistentVolume | undefined,
  sc: StorageClass | undefined,
  provisioner: string,
): ResizeStep | undefined {
  if (pvc.metadata.deletionTimestamp || pvc.status?.phase !== 'Bound' || !pvc.spec?.volumeName)
    return undefined;
  if (!sc || sc.provisioner !== provisioner || sc.allowVolumeExpansion !== true) return undefined;
  if (!pv || pv.metadata.name !== pvc.spec.volumeName) return undefined;
  const requested = pvc.spec.resources?.requests?.['storage'];
  if (requested === undefined || !smaller(pvc.status.capacity?.['storage'], requested)) return undefined;
  return {
    ...(smaller(pv.spec?.capacity?.['storage'], requested) ? { volumeCapacity: requested } : {}),
    claimCapacity: requested,
  };
}

/** The claim status merge patch once the volume has grown: the new capacity, the resize conditions gone. */
export function resizedClaimStatus(pvc: PersistentVolumeClaim, capacity: string): Record<string, unknown> {
  const conditions = (pvc.status?.conditions ?? []).filter(
    (c) => c.type !== 'Resizing' && c.type !== 'FileSystemResizePending',
  );
  return {
    status: {
      capacity: { ...(pvc.status?.capacity ?? {}), storage: capacity },
      conditions: conditions.length > 0 ? conditions : null,
    },
  };
}
