/**
 * A BroadcastJob's pods (OpenKruise `pkg/controller/broadcastjob`): which node each is for, whether it is active,
 * succeeded or failed (`filterPods`, `isPodFailed`), and the pod the controller creates for a node.
 */
import { createHash } from 'node:crypto';
import { BroadcastJobLabels, type BroadcastJob, type Pod, type PodTemplateSpec } from '@regatta/api';
import { cloneJson, newControllerRef } from '@regatta/kube';
import { withKruisePodReadinessGate } from '@regatta/lifecycle';
import type { SchedulingSpec } from './eligibility.js';

export const BROADCAST_JOB_GVK = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob' } as const;

/**
 * The node a pod is for: `spec.nodeName`, else the single `metadata.name In [node]` field of its required node
 * affinity (`getAssignedNode`); '' when neither.
 */
export function assignedNode(pod: Pod): string {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms = (pod.spec as SchedulingSpec | undefined)?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const t of terms) {
    for (const r of t.matchFields ?? []) {
      if (r.key === 'metadata.name' && r.operator === 'In' && r.values?.length === 1) return r.values[0]!;
    }
  }
  return '';
}

const restartsOf = (pod: Pod): number =>
  [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].reduce(
    (n, s) => n + (s.restartCount ?? 0),
    0,
  );

/** An OnFailure pod that restarted more than `restartLimit` times counts as failed (`isPodFailed`). */
export function exceedsRestartLimit(pod: Pod, restartLimit: number): boolean {
  return pod.spec?.restartPolicy === 'OnFailure' && restartsOf(pod) > restartLimit;
}

export interface PodsByState {
  active: Pod[];
  failed: Pod[];
  succeeded: Pod[];
}

/** `filterPods`: Succeeded, Failed (or over the restart limit), active; pods being deleted are in none. */
export function podsByState(pods: readonly Pod[], restartLimit: number): PodsByState {
  const out: PodsByState = { active: [], failed: [], succeeded: [] };
  for (const p of pods) {
    if (p.status?.phase === 'Succeeded') out.succeeded.push(p);
    else if (p.status?.phase === 'Failed') out.failed.push(p);
    else if (!p.metadata?.deletionTimestamp) (exceedsRestartLimit(p, restartLimit) ? out.failed : out.active).push(p);
  }
  return out;
}

/** Kubernetes `IsPodActive`: not Succeeded, not Failed, not being deleted. */
export const isPodActive = (pod: Pod): boolean =>
  pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata?.deletionTimestamp;

/**
 * The name of the job's pod for a node: the job name and a hash of the job's UID and the node. One name per node
 * and job, so a second create for a node — a restarted controller whose cache does not show the first pod yet — is
 * refused by the API server (AlreadyExists) instead of giving the node a second pod (docs/adr/0073-broadcastjob.md).
 */
export function jobPodName(job: BroadcastJob, node: string): string {
  const hash = createHash('sha256').update(`${job.metadata?.uid ?? ''}/${node}`).digest('hex').slice(0, 10);
  return `${(job.metadata?.name ?? '').slice(0, 52)}-${hash}`;
}

/** The job's pod labels: `broadcastjob-name` and `broadcastjob-controller-uid` (`labelsAsMap`). */
export function jobPodLabels(job: BroadcastJob): Record<string, string> {
  return { [BroadcastJobLabels.JobName]: job.metadata?.name ?? '', [BroadcastJobLabels.ControllerUid]: job.metadata?.uid ?? '' };
}

/**
 * The pod for `node`: the template with the job's labels, a controller reference to the job, and the node as the
 * only required node affinity term (upstream's default `--assign-bcj-pods-by-scheduler=true`: the scheduler binds it).
 */
export function newJobPod(job: BroadcastJob, node: string): Pod {
  const template = cloneJson(job.spec.template ?? {}) as PodTemplateSpec;
  const meta = template.metadata ?? {};
  const spec = template.spec ?? { containers: [] };
  const affinity = (spec as SchedulingSpec).affinity ?? {};
  spec.affinity = {
    ...affinity,
    nodeAffinity: {
      ...(affinity.nodeAffinity ?? {}),
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
      },
    },
  };
  // upstream's pod webhook adds the KruisePodReady gate at CREATE (pkg/webhook/pod/mutating/pod_readiness.go)
  return withKruisePodReadinessGate({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
      ...(meta.finalizers ? { finalizers: meta.finalizers } : {}),
      name: jobPodName(job, node),
      namespace: job.metadata?.namespace ?? '',
      labels: { ...(meta.labels ?? {}), ...jobPodLabels(job) },
      ownerReferences: [newControllerRef(job, BROADCAST_JOB_GVK)],
    },
    spec,
  } as Pod);
}
