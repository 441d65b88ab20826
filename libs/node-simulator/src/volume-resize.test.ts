import { describe, expect, it } from 'vitest';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from './types.js';
import { resizeStep, resizedClaimStatus } from './volume-resize.js';

const P = 'regatta.dev/simulated';
const claim = (requested: string, capacity: string | undefined, phase = 'Bound'): PersistentVolumeClaim => ({
  metadata: { name: 'data', namespace: 'ns' },
  spec: { storageClassName: 'sc', volumeName: 'pv-1', resources: { requests: { storage: requested } } },
  status: { phase, ...(capacity ? { capacity: { storage: capacity } } : {}) },
});
const volume = (capacity: string): PersistentVolume => ({
  metadata: { name: 'pv-1' },
  spec: { capacity: { storage: capacity } },
});
const sc = (allowVolumeExpansion: boolean, provisioner = P): StorageClass => ({
  metadata: { name: 'sc' },
  provisioner,
  allowVolumeExpansion,
});

describe('resizeStep', () => {
  it.each<[string, PersistentVolumeClaim, PersistentVolume | undefined, StorageClass | undefined, unknown]>([
    [
      'grows the PV then the claim',
      claim('2Gi', '1Gi'),
      volume('1Gi'),
      sc(true),
      { volumeCapacity: '2Gi', claimCapacity: '2Gi' },
    ],
    [
      'only the claim when the PV already grew',
      claim('2Gi', '1Gi'),
      volume('2Gi'),
      sc(true),
      { claimCapacity: '2Gi' },
    ],
    ['compares quantities, not strings', claim('2048Mi', '2Gi'), volume('2Gi'), sc(true), undefined],
    ['nothing when capacity reached the request', claim('2Gi', '2Gi'), volume('2Gi'), sc(true), undefined],
    [
      'nothing when the class does not allow expansion',
      claim('2Gi', '1Gi'),
      volume('1Gi'),
      sc(false),
      undefined,
    ],
    ['nothing for another provisioner', claim('2Gi', '1Gi'), volume('1Gi'), sc(true, 'other'), undefined],
    ['nothing while not bound', claim('2Gi', undefined, 'Pending'), volume('1Gi'), sc(true), undefined],
    ['nothing without the volume', claim('2Gi', '1Gi'), undefined, sc(true), undefined],
  ])('%s', (_name, pvc, pv, cls, expected) => {
    expect(resizeStep(pvc, pv, cls, P)).toEqual(expected);
  });
});

describe('resizedClaimStatus', () => {
  it('sets the capacity and drops the resize conditions', () => {
    const pvc = claim('2Gi', '1Gi');
    pvc.status = {
      ...pvc.status,
      conditions: [
        { type: 'Resizing', status: 'True' },
        { type: 'FileSystemResizePending', status: 'True' },
        { type: 'Other', status: 'True' },
      ],
    };
    expect(resizedClaimStatus(pvc, '2Gi')).toEqual({
      status: { capacity: { storage: '2Gi' }, conditions: [{ type: 'Other', status: 'True' }] },
    });
    expect(resizedClaimStatus(claim('2Gi', '1Gi'), '2Gi')).toEqual({
      status: { capacity: { storage: '2Gi' }, conditions: null },
    });
  });
});
