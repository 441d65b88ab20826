/** The parts of core/v1 Node and the scheduling fields of a pod spec that node eligibility reads. */
import type { KubeObject } from '@regatta/kube';

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | (string & {});
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal' | (string & {});
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | (string & {});
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[] | null;
  matchFields?: NodeSelectorRequirement[] | null;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] | null } | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}

/** The scheduling fields of a pod (template) spec. */
export interface SchedulingSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string> | null;
  affinity?: Affinity | null;
  tolerations?: Toleration[] | null;
  hostNetwork?: boolean;
  [k: string]: unknown;
}

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: Taint[] | null; [k: string]: unknown };
  status?: { conditions?: { type: string; status: string }[] | null; [k: string]: unknown };
}
