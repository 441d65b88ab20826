/**
 * The UnitedDeployment shapes the controller reads and writes (OpenKruise `apis/apps/v1alpha1/uniteddeployment_types.go`,
 * JSON names as upstream). Structural: plain JSON from the API server or the bus fits.
 */
import type { IntOrString, KubeObject, LabelSelector, ObjectMeta } from '@regatta/kube';

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[] | null;
  matchFields?: NodeSelectorRequirement[] | null;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface Subset {
  name: string;
  nodeSelectorTerm?: NodeSelectorTerm | null;
  tolerations?: Toleration[] | null;
  replicas?: IntOrString | null;
  minReplicas?: IntOrString | null;
  maxReplicas?: IntOrString | null;
  /** Strategic-merge patch of the subset's pod template. */
  patch?: Record<string, unknown> | null;
}

/** `template.<kind>Template`: metadata for the subset workloads and a workload spec. */
export interface WorkloadTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } & Record<string, unknown>;
  spec: Record<string, unknown>;
}

export interface SubsetTemplate {
  statefulSetTemplate?: WorkloadTemplate | null;
  advancedStatefulSetTemplate?: WorkloadTemplate | null;
  cloneSetTemplate?: WorkloadTemplate | null;
  deploymentTemplate?: WorkloadTemplate | null;
}

export interface AdaptiveStrategy {
  rescheduleCriticalSeconds?: number | null;
  unschedulableDuration?: number | null;
  reserveUnschedulablePods?: boolean | null;
}

export interface UnitedDeploymentSpec {
  replicas?: number | null;
  selector: LabelSelector;
  template?: SubsetTemplate;
  topology?: {
    subsets?: Subset[] | null;
    scheduleStrategy?: { type?: string | null; adaptive?: AdaptiveStrategy | null } | null;
  } | null;
  updateStrategy?: {
    type?: string | null;
    manualUpdate?: { partitions?: Record<string, number> | null } | null;
  } | null;
  revisionHistoryLimit?: number | null;
}

export interface UDCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface SubsetStatus {
  name: string;
  replicas: number;
  readyReplicas: number;
  partition: number;
  reservedPods?: number;
  conditions?: UDCondition[];
}

export interface UnitedDeploymentStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  updatedReplicas: number;
  updatedReadyReplicas?: number;
  reservedPods?: number;
  collisionCount?: number | null;
  currentRevision: string;
  subsetReplicas?: Record<string, number>;
  subsetStatuses?: SubsetStatus[];
  conditions?: UDCondition[];
  updateStatus?: { updatedRevision?: string; currentPartitions?: Record<string, number> } | null;
  labelSelector?: string;
}

export interface UnitedDeployment extends KubeObject {
  metadata?: ObjectMeta;
  spec: UnitedDeploymentSpec;
  status?: UnitedDeploymentStatus;
}
