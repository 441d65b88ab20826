/** The specified-delete label (Kruise `pkg/util/specifieddelete`) and `scaleStrategy.podsToDelete`. */
import { Labels } from '@regatta/api';
import type { Pod } from '@regatta/lifecycle';

/** Pod label: present (any value, even "false") = delete this pod first. CloneSet also uses it to recreate pods. */
export const SPECIFIED_DELETE_KEY = Labels.SpecifiedDelete;

/** `IsSpecifiedDelete`: the label is present. */
export function hasSpecifiedDeleteLabel(pod: Pod): boolean {
  return pod.metadata?.labels?.[SPECIFIED_DELETE_KEY] !== undefined;
}

/** CloneSet `isSpecifiedDelete`: the label is present or the pod is named in `scaleStrategy.podsToDelete`. */
export function isSpecifiedDelete(pod: Pod, podsToDelete?: readonly string[] | null): boolean {
  return hasSpecifiedDeleteLabel(pod) || (podsToDelete ?? []).includes(pod.metadata?.name ?? '');
}

/**
 * `PatchPodSpecifiedDelete`: the strategic merge patch setting the label, or `undefined` when the label already exists
 * (nothing to write).
 */
export function specifiedDeletePatch(
  pod: Pod,
  value = 'true',
): { metadata: { labels: Record<string, string> } } | undefined {
  if (hasSpecifiedDeleteLabel(pod)) return undefined;
  return { metadata: { labels: { [SPECIFIED_DELETE_KEY]: value } } };
}

/**
 * CloneSet `truncatePodsToDelete`: `podsToDelete` without the names of pods that no longer exist among `activePods`,
 * or `undefined` when nothing is dropped (no update needed).
 */
export function prunePodsToDelete(
  podsToDelete: readonly string[] | null | undefined,
  activePods: readonly Pod[],
): string[] | undefined {
  if (!podsToDelete || podsToDelete.length === 0) return undefined;
  const names = new Set(activePods.map((p) => p.metadata?.name ?? ''));
  const kept = podsToDelete.filter((n) => names.has(n));
  return kept.length === podsToDelete.length ? undefined : kept;
}
