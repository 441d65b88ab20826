/**
 * Reading a subset back from its workload and pods (OpenKruise `pkg/controller/uniteddeployment/subset_control.go`
 * `convertToSubset`): replicas, the partition as written (or, for OnDelete StatefulSets, as the pods show it), the
 * workload's status and the pods at the expected revision.
 */
import type { Pod } from '@regatta/api';
import { type IntOrString, scaleK8s } from '@regatta/kube';
import { SUBSET_NAME_LABEL, SUBSET_PATCH_ANNOTATION, UD_REVISION_LABEL } from '../keys.js';
import type { SubsetKind } from './kinds.js';
import { onDeletePartition, updatedReplicas } from './pods.js';
import type { SubsetWorkload } from './workload.js';

export interface SubsetView {
  name: string;
  workload: SubsetWorkload;
  pods: Pod[];
  /** `spec.replicas` of the workload. */
  specReplicas: number;
  partition: number;
  /** The UnitedDeployment revision the workload was last built from (its label). */
  revision: string | undefined;
  /** `apps.kruise.io/subset-patch` as written. */
  patch: string | undefined;
  statusReplicas: number;
  readyReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
}

export function readSubset(
  kind: SubsetKind,
  workload: SubsetWorkload,
  pods: readonly Pod[],
  expectedRevision: string,
): SubsetView {
  const specReplicas = workload.spec.replicas ?? 1;
  const revision = workload.metadata?.labels?.[UD_REVISION_LABEL];
  const { updated, updatedReady } = updatedReplicas(pods, expectedRevision);
  return {
    name: workload.metadata?.labels?.[SUBSET_NAME_LABEL] ?? '',
    workload,
    pods: [...pods],
    specReplicas,
    partition: partitionOf(kind, workload, pods, specReplicas, revision),
    revision,
    patch: workload.metadata?.annotations?.[SUBSET_PATCH_ANNOTATION],
    statusReplicas: workload.status?.replicas ?? 0,
    readyReplicas: workload.status?.readyReplicas ?? 0,
    updatedReplicas: updated,
    updatedReadyReplicas: updatedReady,
  };
}

function partitionOf(
  kind: SubsetKind,
  workload: SubsetWorkload,
  pods: readonly Pod[],
  replicas: number,
  revision: string | undefined,
): number {
  const strategy = (workload.spec['updateStrategy'] ?? {}) as {
    type?: string;
    partition?: IntOrString | null;
    rollingUpdate?: { partition?: number | null } | null;
  };
  switch (kind.partition) {
    case 'cloneset':
      return strategy.partition == null ? 0 : scaleK8s(strategy.partition, replicas, true);
    case 'statefulset':
    case 'advancedstatefulset':
      if (strategy.type === 'OnDelete') return onDeletePartition(pods, revision);
      return strategy.rollingUpdate?.partition ?? 0;
    case 'none':
      return 0;
  }
}
