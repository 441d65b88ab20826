/**
 * Which NodeImages an ImagePullJob pulls on (`pkg/util/imagejob` GetNodeImagesForJob): the nodes of matching active
 * scheduled pods (`podSelector`), the named NodeImages (`selector.names`), those whose labels match
 * (`selector` label query; empty = all), or all NodeImages (no selector). Missing names are skipped.
 */
import type { ImagePullJob, NodeImage } from '@regatta/api';
import { labelSelectorMatches as matchesOrThrows, type KubeObject, type LabelSelector } from '@regatta/kube';

/** A selector the webhook would have refused matches nothing (instead of throwing in a reconcile). */
function labelSelectorMatches(selector: LabelSelector, labels: Record<string, string>): boolean {
  try {
    return matchesOrThrows(selector, labels);
  } catch {
    return false;
  }
}

/** The parts of a pod the selection reads. */
export interface PodLike extends KubeObject {
  spec?: { nodeName?: string };
  status?: { phase?: string };
}

/** Active = not terminal (Succeeded/Failed) and not being deleted (`kubecontroller.IsPodActive`). */
export function isActivePod(pod: PodLike): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

const byName = (a: NodeImage, b: NodeImage) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1);

/** The target NodeImages of `job`, sorted by name. `pods` are the pods of the job's namespace (podSelector only). */
export function targetNodeImages(
  job: ImagePullJob,
  nodeImages: readonly NodeImage[],
  pods: readonly PodLike[] = [],
): NodeImage[] {
  const { selector, podSelector } = job.spec;
  if (podSelector) {
    const nodes = new Set<string>();
    for (const pod of pods) {
      if (pod.metadata?.namespace !== job.metadata?.namespace) continue;
      if (!isActivePod(pod) || !pod.spec?.nodeName) continue;
      if (!labelSelectorMatches(podSelector as LabelSelector, pod.metadata?.labels ?? {})) continue;
      nodes.add(pod.spec.nodeName);
    }
    return nodeImages.filter((ni) => nodes.has(ni.metadata?.name ?? '')).sort(byName);
  }
  if (!selector) return [...nodeImages].sort(byName);
  if (selector.names) {
    const names = new Set(selector.names);
    return nodeImages.filter((ni) => names.has(ni.metadata?.name ?? '')).sort(byName);
  }
  const labelSelector: LabelSelector = {
    ...(selector.matchLabels ? { matchLabels: selector.matchLabels } : {}),
    ...(selector.matchExpressions ? { matchExpressions: selector.matchExpressions as LabelSelector['matchExpressions'] } : {}),
  };
  return nodeImages.filter((ni) => labelSelectorMatches(labelSelector, ni.metadata?.labels ?? {})).sort(byName);
}

/** Whether `nodeImage` (with these labels / this name) could be a target of `job` (the event handlers' test). */
export function jobMayTarget(job: ImagePullJob, nodeImage: NodeImage, pods: readonly PodLike[] = []): boolean {
  return targetNodeImages(job, [nodeImage], pods).length === 1;
}
