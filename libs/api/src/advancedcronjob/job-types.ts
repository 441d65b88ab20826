/**
 * The batch/v1 Job fields an AdvancedCronJob's `template.jobTemplate` carries and its controller reads (Kubernetes
 * `k8s.io/api/batch/v1`). Jobs are run by kube-controller-manager; Regatta only creates, reads and deletes them.
 */
import type { KubeObject } from '@regatta/kube';
import type { PodTemplateSpec, TemplateMeta } from '../core/pod-types.js';

export const JOB_API_VERSION = 'batch/v1';
export const JOB_KIND = 'Job';

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  ttlSecondsAfterFinished?: number;
  suspend?: boolean;
  completionMode?: string;
  manualSelector?: boolean;
  selector?: Record<string, unknown>;
  template: PodTemplateSpec;
  [key: string]: unknown;
}

/** `batchv1.JobTemplateSpec`: the metadata and spec of the Jobs made from it. */
export interface JobTemplateSpec {
  metadata?: TemplateMeta;
  spec?: JobSpec;
}

/** A condition of a Job's (or a BroadcastJob's) status: `Complete` or `Failed` when it has finished. */
export interface BatchJobCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
}

export interface JobStatus {
  conditions?: BatchJobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  [key: string]: unknown;
}

export interface Job extends KubeObject {
  spec?: JobSpec;
  status?: JobStatus;
}
