import type { KubeClient, KubeObject } from '@regatta/kube';
import type { Lease, LeaseStore } from './lease.js';

const LEASE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' } as const;

/** A LeaseStore on the API server: coordination.k8s.io/v1 Leases, replace guarded by resourceVersion. */
export function kubeLeaseStore(client: KubeClient): LeaseStore {
  return {
    get: (namespace, name) => client.get<Lease & KubeObject>({ ...LEASE, namespace, name }),
    create: (lease) => client.create<Lease & KubeObject>({ ...lease, ...LEASE }),
    update: (lease) => client.replace<Lease & KubeObject>({ ...lease, ...LEASE }),
  };
}
