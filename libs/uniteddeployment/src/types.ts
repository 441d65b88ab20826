/**
 * The UnitedDeployment shapes the controller reads and writes: @regatta/api's types (v1beta1, JSON names as
 * upstream), with `spec` present (the reconciler never reads an object without one) and the v1alpha1 view of the
 * status (`subsetReplicas`, `updateStatus`) written beside the v1beta1 fields.
 */
import type {
  UnitedDeployment as ApiUnitedDeployment,
  UnitedDeploymentSpec,
  UnitedDeploymentStatus as ApiUnitedDeploymentStatus,
  UnitedDeploymentSubsetStatus,
  UnitedDeploymentUpdateStatus,
} from '@regatta/api';
import type { Condition } from '@regatta/kube';

export type {
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Subset,
  SubsetTemplate,
  Toleration,
  UnitedDeploymentSpec,
} from '@regatta/api';

/** A condition of `status.conditions` as the controller writes it: the workspace's one `Condition` (`@regatta/kube`). */
export type UDCondition = Condition;

/** `status.subsetStatuses[]` as the controller writes it. */
export interface SubsetStatus extends UnitedDeploymentSubsetStatus {
  name: string;
  replicas: number;
  readyReplicas: number;
  partition: number;
}

export interface UnitedDeploymentStatus extends Omit<ApiUnitedDeploymentStatus, 'conditions' | 'subsetStatuses'> {
  conditions?: UDCondition[];
  subsetStatuses?: SubsetStatus[];
  /** v1alpha1 view: replicas per subset (from `subsetStatuses`). */
  subsetReplicas?: Record<string, number>;
  /** v1alpha1 view: the updated revision and the partition per subset. */
  updateStatus?: UnitedDeploymentUpdateStatus;
}

export interface UnitedDeployment extends Omit<ApiUnitedDeployment, 'spec' | 'status'> {
  spec: UnitedDeploymentSpec;
  status?: UnitedDeploymentStatus;
}

/** `template.<kind>Template`: metadata for the subset workloads and a workload spec. */
export interface WorkloadTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
}
