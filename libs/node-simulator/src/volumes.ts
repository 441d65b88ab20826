// A dynamic volume provisioner for the simulator's default StorageClass: a hostPath PV per pending claim,
// pre-bound to the claim (claimRef) so that kube-controller-manager's persistentvolume-binder binds both; PVs
// whose claim is gone are deleted (reclaimPolicy Delete), as an external provisioner does.
import { Informer } from './informer.js';
import { isAlreadyExists, isNotFound, type KubeClient } from './kube-client.js';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from './types.js';
import { EXPANSION_STORAGE_CLASSES, resizeStep, resizedClaimStatus } from './volume-resize.js';

export const PROVISIONER = 'regatta.dev/simulated';
const PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
const STORAGE_PROVISIONER_ANNOTATIONS = [
  'volume.kubernetes.io/storage-provisioner',
  'volume.beta.kubernetes.io/storage-provisioner',
];
const SC_PATH = '/apis/storage.k8s.io/v1/storageclasses';

export function storageClassObject(name: string, isDefault = true, allowVolumeExpansion = true) {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, annotations: { 'storageclass.kubernetes.io/is-default-class': String(isDefault) } },
    provisioner: PROVISIONER,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'Immediate',
    allowVolumeExpansion,
  };
}

/** Whether the claim waits for this provisioner. */
export function wantsVolume(pvc: PersistentVolumeClaim, storageClass: string): boolean {
  if (pvc.metadata.deletionTimestamp || pvc.spec?.volumeName) return false;
  if (pvc.status?.phase && pvc.status.phase !== 'Pending') return false;
  const ann = pvc.metadata.annotations ?? {};
  return (
    pvc.spec?.storageClassName === storageClass ||
    STORAGE_PROVISIONER_ANNOTATIONS.some((a) => ann[a] === PROVISIONER)
  );
}

/** The PV for a claim: named `pvc-<claim uid>` (so concurrent provisioners cannot create two). */
export function volumeFor(pvc: PersistentVolumeClaim, storageClass: string): PersistentVolume {
  const name = `pvc-${pvc.metadata.uid ?? ''}`;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, annotations: { [PROVISIONED_BY]: PROVISIONER } },
    spec: {
      capacity: { storage: pvc.spec?.resources?.requests?.['storage'] ?? '1Gi' },
      accessModes: pvc.spec?.accessModes?.length ? [...pvc.spec.accessModes] : ['ReadWriteOnce'],
      volumeMode: pvc.spec?.volumeMode ?? 'Filesystem',
      storageClassName: pvc.spec?.storageClassName ?? storageClass,
      persistentVolumeReclaimPolicy: 'Delete',
      hostPath: { path: `/var/lib/regatta-sim/volumes/${name}`, type: 'DirectoryOrCreate' },
      claimRef: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        namespace: pvc.metadata.namespace ?? '',
        name: pvc.metadata.name ?? '',
        uid: pvc.metadata.uid ?? '',
      },
    },
  };
}

/** A PV of ours whose claim is gone: the binder marked it Released (or Failed). */
export function shouldDeleteVolume(pv: PersistentVolume): boolean {
  if (pv.metadata.deletionTimestamp) return false;
  if (pv.metadata.annotations?.[PROVISIONED_BY] !== PROVISIONER) return false;
  if ((pv.spec?.persistentVolumeReclaimPolicy ?? 'Delete') !== 'Delete') return false;
  return pv.status?.phase === 'Released' || pv.status?.phase === 'Failed';
}

export class VolumeProvisioner {
  private readonly claims: Informer<PersistentVolumeClaim>;
  private readonly volumes: Informer<PersistentVolume>;
  private readonly classes: Informer<StorageClass>;
  private readonly inflight = new Set<string>();
  private stopped = false;

  constructor(
    private readonly client: KubeClient,
    private readonly storageClass: string,
    private readonly isDefault: boolean,
    private readonly log: (line: string) => void,
  ) {
    this.claims = new Informer<PersistentVolumeClaim>(
      client,
      '/api/v1/persistentvolumeclaims',
      { upsert: (pvc) => this.onClaim(pvc), remove: () => undefined },
      log,
    );
    this.volumes = new Informer<PersistentVolume>(
      client,
      '/api/v1/persistentvolumes',
      { upsert: (pv) => this.onVolume(pv), remove: () => undefined },
      log,
    );
    this.classes = new Informer<StorageClass>(
      client,
      SC_PATH,
      { upsert: () => undefined, remove: () => undefined },
      log,
    );
  }

  async start(): Promise<void> {
    await this.ensureStorageClass(this.storageClass, this.isDefault, true);
    for (const c of EXPANSION_STORAGE_CLASSES)
      await this.ensureStorageClass(c.name, false, c.allowVolumeExpansion);
    await this.classes.start();
    await this.volumes.start();
    await this.claims.start();
  }

  private async ensureStorageClass(
    name: string,
    isDefault: boolean,
    allowVolumeExpansion: boolean,
  ): Promise<void> {
    try {
      await this.client.get(`${SC_PATH}/${name}`);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        await this.client.create(SC_PATH, storageClassObject(name, isDefault, allowVolumeExpansion));
        this.log(`created ${isDefault ? 'default ' : ''}StorageClass ${name} (provisioner ${PROVISIONER})`);
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
      }
    }
  }

  private run(key: string, what: string, fn: () => Promise<void>): void {
    if (this.stopped || this.inflight.has(key)) return;
    this.inflight.add(key);
    fn()
      .catch((err: unknown) => {
        if (!this.stopped) this.log(`${what} failed: ${String((err as Error).message ?? err)}`);
      })
      .finally(() => this.inflight.delete(key));
  }

  private onClaim(pvc: PersistentVolumeClaim): void {
    this.resize(pvc);
    if (!wantsVolume(pvc, this.storageClass)) return;
    const pv = volumeFor(pvc, this.storageClass);
    if (this.volumes.get(pv.metadata.name ?? '')) return;
    this.run(
      `pv/${pv.metadata.name}`,
      `provisioning ${pvc.metadata.namespace}/${pvc.metadata.name}`,
      async () => {
        try {
          await this.client.create('/api/v1/persistentvolumes', pv);
          this.log(`provisioned ${pv.metadata.name} for ${pvc.metadata.namespace}/${pvc.metadata.name}`);
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
        }
      },
    );
  }

  /** The external resizer and the kubelet's file system resize in one (volume-resize.ts). */
  private resize(pvc: PersistentVolumeClaim): void {
    const volumeName = pvc.spec?.volumeName ?? '';
    const step = resizeStep(
      pvc,
      volumeName ? this.volumes.get(volumeName) : undefined,
      this.classes.get(pvc.spec?.storageClassName ?? ''),
      PROVISIONER,
    );
    if (!step) return;
    const ns = pvc.metadata.namespace ?? '';
    const name = pvc.metadata.name ?? '';
    this.run(`resize/${ns}/${name}`, `resizing ${ns}/${name}`, async () => {
      if (step.volumeCapacity !== undefined) {
        await this.client.patch(`/api/v1/persistentvolumes/${volumeName}`, {
          spec: { capacity: { storage: step.volumeCapacity } },
        });
      }
      await this.client.patch(
        `/api/v1/namespaces/${ns}/persistentvolumeclaims/${name}/status`,
        resizedClaimStatus(pvc, step.claimCapacity),
      );
      this.log(`resized ${ns}/${name} to ${step.claimCapacity}`);
    });
  }

  private onVolume(pv: PersistentVolume): void {
    if (!shouldDeleteVolume(pv)) return;
    const name = pv.metadata.name ?? '';
    this.run(`delete/${name}`, `deleting ${name}`, async () => {
      try {
        await this.client.delete(`/api/v1/persistentvolumes/${name}`);
        this.log(`deleted ${name} (claim gone, reclaimPolicy Delete)`);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.claims.stop();
    await this.volumes.stop();
    await this.classes.stop();
  }
}
