import type { KubeObject, LabelSelector, ObjectMeta } from '@regatta/kube';

/** A subset workload of any of the four kinds, as far as the controller reads and writes it. */
export interface SubsetWorkload extends KubeObject {
  metadata?: ObjectMeta;
  spec: Record<string, unknown> & {
    replicas?: number;
    selector?: LabelSelector;
    template?: Record<string, unknown>;
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    updatedReplicas?: number;
    [key: string]: unknown;
  };
}
