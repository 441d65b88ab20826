/**
 * The ImagePullJob a workload creates for one changed container (OpenKruise `pkg/util/imagejob/utilfunction`
 * `CreateJobForWorkload`, called from the three `createImagePullJobsForInPlaceUpdate`).
 */
import { IMAGE_PULL_JOB_API_VERSION, IMAGE_PULL_JOB_KIND, type ImagePullJob } from '@regatta/api';
import {
  type GroupVersionKind,
  type KubeObject,
  type LabelSelector,
  newControllerRef,
} from '@regatta/kube';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  type ControllerRevision,
  type PodTemplate,
  REVISION_HASH_LABEL,
} from '@regatta/revision';
import type { PreDownloadSettings } from './settings.js';

/** Generated jobs are deleted this long after they finish (`completionPolicy.ttlSecondsAfterFinished`). */
export const PREDOWNLOAD_TTL_SECONDS_AFTER_FINISHED = 600;
/** Retries of a generated job's pull on a node (`pullPolicy.backoffLimit`). */
export const PREDOWNLOAD_BACKOFF_LIMIT = 1;

export interface PreDownloadJobInput {
  /** The workload: namespace, name, uid (the job's controller). */
  owner: KubeObject;
  ownerKind: GroupVersionKind;
  /** The workload's selector. */
  selector: LabelSelector;
  /** The workload's pod template (labels, annotations and imagePullSecrets are copied). */
  template: PodTemplate;
  updateRevision: ControllerRevision;
  container: string;
  image: string;
  settings: PreDownloadSettings;
}

/** `<update revision name>-<container name>`. */
export function preDownloadJobName(updateRevision: ControllerRevision, container: string): string {
  return `${updateRevision.metadata?.name ?? ''}-${container}`;
}

/**
 * The pods still to update: the workload's selector plus `controller-revision-hash NotIn [revision name, hash]`
 * (the ImagePullJob controller pulls on the nodes of the pods it matches).
 */
export function notUpdatedPodSelector(selector: LabelSelector, updateRevision: ControllerRevision): LabelSelector {
  const hash = updateRevision.metadata?.labels?.[REVISION_HASH_LABEL] ?? '';
  return {
    ...(selector.matchLabels ? { matchLabels: { ...selector.matchLabels } } : {}),
    matchExpressions: [
      ...(selector.matchExpressions ?? []).map((r) => ({ ...r, ...(r.values ? { values: [...r.values] } : {}) })),
      {
        key: CONTROLLER_REVISION_HASH_LABEL,
        operator: 'NotIn',
        values: [updateRevision.metadata?.name ?? '', hash],
      },
    ],
  };
}

function pullSecretNames(template: PodTemplate): string[] {
  const secrets = template.spec?.['imagePullSecrets'];
  if (!Array.isArray(secrets)) return [];
  return secrets
    .map((s) => (s as { name?: unknown }).name)
    .filter((n): n is string => typeof n === 'string' && n !== '');
}

/**
 * The job: labels = template labels + the update revision's hash, controlled by the workload; pull on the nodes of
 * the pods still to update, `parallelism` and timeout from the settings, one retry, Always with a 600 s TTL, the
 * template's labels and annotations as the CRI sandbox config.
 */
export function preDownloadJob(input: PreDownloadJobInput): ImagePullJob {
  const labels: Record<string, string> = {
    ...(input.template.metadata?.labels ?? {}),
    [REVISION_HASH_LABEL]: input.updateRevision.metadata?.labels?.[REVISION_HASH_LABEL] ?? '',
  };
  const annotations: Record<string, string> = { ...(input.template.metadata?.annotations ?? {}) };
  const pullSecrets = pullSecretNames(input.template);
  const podSelector = notUpdatedPodSelector(input.selector, input.updateRevision);
  return {
    apiVersion: IMAGE_PULL_JOB_API_VERSION,
    kind: IMAGE_PULL_JOB_KIND,
    metadata: {
      namespace: input.owner.metadata?.namespace ?? '',
      name: preDownloadJobName(input.updateRevision, input.container),
      labels,
      ownerReferences: [newControllerRef(input.owner, input.ownerKind)],
    },
    spec: {
      image: input.image,
      ...(pullSecrets.length > 0 ? { pullSecrets } : {}),
      podSelector: podSelector as NonNullable<ImagePullJob['spec']['podSelector']>,
      parallelism: input.settings.parallelism,
      pullPolicy: { backoffLimit: PREDOWNLOAD_BACKOFF_LIMIT, timeoutSeconds: input.settings.timeoutSeconds },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: PREDOWNLOAD_TTL_SECONDS_AFTER_FINISHED },
      sandboxConfig: { labels: { ...labels }, annotations },
    },
  };
}
