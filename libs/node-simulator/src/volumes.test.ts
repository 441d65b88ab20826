import { describe, expect, it } from 'vitest';
import { PROVISIONER, shouldDeleteVolume, storageClassObject, volumeFor, wantsVolume } from './volumes.js';
import type { PersistentVolumeClaim } from './types.js';

const claim = (
  over: Partial<PersistentVolumeClaim['spec']> = {},
  ann: Record<string, string> = {},
): PersistentVolumeClaim => ({
  metadata: { name: 'data-0', namespace: 'ns', uid: 'c-uid', annotations: ann },
  spec: {
    storageClassName: 'standard',
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '2Gi' } },
    ...over,
  },
  status: { phase: 'Pending' },
});

describe('provisioner decisions', () => {
  it('default StorageClass: ours, Immediate, Delete', () => {
    expect(storageClassObject('standard')).toMatchObject({
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: PROVISIONER,
      volumeBindingMode: 'Immediate',
      reclaimPolicy: 'Delete',
    });
  });

  it('provisions pending claims of the class, or annotated for our provisioner', () => {
    expect(wantsVolume(claim(), 'standard')).toBe(true);
    expect(wantsVolume(claim({ storageClassName: 'other' }), 'standard')).toBe(false);
    expect(
      wantsVolume(
        claim({ storageClassName: 'other' }, { 'volume.kubernetes.io/storage-provisioner': PROVISIONER }),
        'standard',
      ),
    ).toBe(true);
    expect(wantsVolume(claim({ volumeName: 'pv-x' }), 'standard')).toBe(false);
    expect(wantsVolume({ ...claim(), status: { phase: 'Bound' } }, 'standard')).toBe(false);
  });

  it('builds a pre-bound PV with the requested capacity and access modes', () => {
    expect(volumeFor(claim({ accessModes: ['ReadWriteMany'] }), 'standard')).toMatchObject({
      metadata: { name: 'pvc-c-uid', annotations: { 'pv.kubernetes.io/provisioned-by': PROVISIONER } },
      spec: {
        capacity: { storage: '2Gi' },
        accessModes: ['ReadWriteMany'],
        storageClassName: 'standard',
        persistentVolumeReclaimPolicy: 'Delete',
        claimRef: { kind: 'PersistentVolumeClaim', namespace: 'ns', name: 'data-0', uid: 'c-uid' },
      },
    });
  });

  it('deletes our Released volumes only', () => {
    const pv = volumeFor(claim(), 'standard');
    expect(shouldDeleteVolume({ ...pv, status: { phase: 'Bound' } })).toBe(false);
    expect(shouldDeleteVolume({ ...pv, status: { phase: 'Released' } })).toBe(true);
    expect(shouldDeleteVolume({ ...pv, metadata: { name: 'x' }, status: { phase: 'Released' } })).toBe(false);
  });
});
