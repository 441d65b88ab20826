/** Which revision a pod is at, and the labels that say so (CloneSet `revisionAdapterImpl`). */
import type { KubeObject } from '@regatta/kube';
import { CONTROLLER_REVISION_HASH_LABEL, POD_TEMPLATE_HASH_LABEL } from './keys.js';

/** `GetShortHash`: the part after the last `-` (the whole string when there is none). */
export function shortHash(revision: string): string {
  const i = revision.lastIndexOf('-');
  return i < 0 ? revision : revision.slice(i + 1);
}

/** The pod's `controller-revision-hash` label ("" when missing). */
export function podRevision(pod: KubeObject): string {
  return pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';
}

/**
 * `EqualToRevisionHash`: the pod's `controller-revision-hash` equals the revision name, or their short hashes are
 * equal (pods labelled with the hash only, gate `CloneSetShortHash`). A pod without the label matches nothing but a
 * revision whose short hash is "" too.
 */
export function isPodAtRevision(pod: KubeObject, revision: string): boolean {
  const label = podRevision(pod);
  return label === revision || shortHash(label) === shortHash(revision);
}

export interface RevisionLabelOptions {
  /** Gate `CloneSetShortHash`: write only the hash into `controller-revision-hash`. */
  shortHash?: boolean;
}

/** `WriteRevisionHash`: `controller-revision-hash` (full name or short hash) and `pod-template-hash` (short hash). */
export function revisionLabels(revision: string, options: RevisionLabelOptions = {}): Record<string, string> {
  const short = shortHash(revision);
  return {
    [CONTROLLER_REVISION_HASH_LABEL]: options.shortHash ? short : revision,
    [POD_TEMPLATE_HASH_LABEL]: short,
  };
}

/** The object with its revision labels set (`WriteRevisionHash`); the input is not modified. */
export function withRevisionLabels<T extends KubeObject>(
  obj: T,
  revision: string,
  options: RevisionLabelOptions = {},
): T {
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      labels: { ...(obj.metadata?.labels ?? {}), ...revisionLabels(revision, options) },
    },
  };
}

/**
 * `fixPodTemplateHashLabel` (pods created before Kruise v1.1): the strategic merge patch adding `pod-template-hash`
 * from the short hash of the revision label, or `undefined` when the label exists.
 */
export function podTemplateHashPatch(
  pod: KubeObject,
): { metadata: { labels: Record<string, string> } } | undefined {
  if (pod.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] !== undefined) return undefined;
  return { metadata: { labels: { [POD_TEMPLATE_HASH_LABEL]: shortHash(podRevision(pod)) } } };
}
