/**
 * SidecarSet ControllerRevisions (OpenKruise `pkg/control/sidecarcontrol/history_control.go`,
 * `pkg/controller/sidecarset/sidecarset_processor.go` `registerLatestRevision`, `truncateHistory`): they live in the
 * controller's namespace, labelled `kruise.io/sidecarset-name`, and hold the fields injection reads.
 */
import { cloneJson } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import {
  type ControllerRevision,
  controllerRevisionName,
  hashControllerRevision,
  sortControllerRevisions,
} from '@regatta/revision';
import {
  SIDECARSET_CUSTOM_VERSION_LABEL,
  SIDECARSET_HASH_KEY,
  SIDECARSET_HASH_WITHOUT_IMAGE_KEY,
  SIDECARSET_NAME_LABEL,
} from './keys.js';
import { podControllerRevision } from './pod-state.js';
import type { SidecarSetView } from './types.js';

export const SIDECARSET_GVK = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;
export const DEFAULT_SIDECARSET_HISTORY_LIMIT = 10;

/**
 * `getPatch`: what a revision stores (and what injection restores a historical SidecarSet from). Every recorded key
 * is present, `null` when the spec leaves it out, as upstream's `copySidecarSetSpecRevision` writes them (OpenKruise's
 * e2e `sidecarSet history revision checker` reads all of them).
 */
export function sidecarSetRevisionData(set: SidecarSetView): Record<string, unknown> {
  const spec = set.spec ?? {};
  const out: Record<string, unknown> = { $patch: 'replace' };
  for (const k of [
    'volumes',
    'containers',
    'initContainers',
    'imagePullSecrets',
    'patchPodMetadata',
  ] as const)
    out[k] = spec[k] === undefined || spec[k] === null ? null : cloneJson(spec[k] as object);
  return { spec: out };
}

/** The custom version: v1beta1 `spec.customVersion`, else the v1alpha1 label. */
export function customVersionOf(set: SidecarSetView): string {
  return set.spec?.customVersion || set.metadata?.labels?.[SIDECARSET_CUSTOM_VERSION_LABEL] || '';
}

/** `NewRevision`: the candidate revision of the SidecarSet now, in `namespace`. */
export function newSidecarSetRevision(
  set: SidecarSetView,
  namespace: string,
  revision: number,
  collisionCount: number,
): ControllerRevision {
  const name = set.metadata?.name ?? '';
  const data = sidecarSetRevisionData(set);
  const hash = hashControllerRevision({ data }, collisionCount);
  const labels: Record<string, string> = { ...(set.metadata?.labels ?? {}), [SIDECARSET_NAME_LABEL]: name };
  const custom = customVersionOf(set);
  if (custom) labels[SIDECARSET_CUSTOM_VERSION_LABEL] = custom;
  const annotations: Record<string, string> = { ...(set.metadata?.annotations ?? {}) };
  for (const k of [SIDECARSET_HASH_KEY, SIDECARSET_HASH_WITHOUT_IMAGE_KEY])
    if (!annotations[k]) delete annotations[k];
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(name, hash),
      namespace,
      labels: { ...labels, 'controller.kubernetes.io/hash': hash },
      annotations,
      ownerReferences: [
        {
          ...SIDECARSET_GVK,
          name,
          uid: set.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data,
    revision,
  };
}

/** `filterActiveRevisions`: referenced by pods, pinned by name, or the newest with the pinned custom version. */
export function activeRevisions(
  set: SidecarSetView,
  pods: readonly Pod[],
  revisions: readonly ControllerRevision[],
): Set<string> {
  const name = set.metadata?.name ?? '';
  const out = new Set<string>();
  for (const pod of pods) {
    const r = podControllerRevision(name, pod);
    if (r) out.add(r);
  }
  const pinned = set.spec?.injectionStrategy?.revision;
  if (pinned?.revisionName) out.add(pinned.revisionName);
  if (pinned?.customVersion) {
    const equal = sortControllerRevisions(
      revisions.filter((r) => r.metadata?.labels?.[SIDECARSET_CUSTOM_VERSION_LABEL] === pinned.customVersion),
    );
    const newest = equal[equal.length - 1]?.metadata?.name;
    if (newest) out.add(newest);
  }
  return out;
}

/**
 * `truncateHistory`: beyond `max(1, revisionHistoryLimit)`, the oldest inactive revisions (never the latest); the
 * count still over the limit when the active ones cannot go.
 */
export function revisionsToDelete(
  set: SidecarSetView,
  pods: readonly Pod[],
  sorted: readonly ControllerRevision[],
): { remove: ControllerRevision[]; overLimit: number } {
  const limit = Math.max(1, set.spec?.revisionHistoryLimit ?? DEFAULT_SIDECARSET_HISTORY_LIMIT);
  let excess = sorted.length - limit;
  if (excess <= 0) return { remove: [], overLimit: 0 };
  const active = activeRevisions(set, pods, sorted);
  const remove: ControllerRevision[] = [];
  for (let i = 0; i < sorted.length - 1 && excess > 0; i++) {
    const r = sorted[i] as ControllerRevision;
    if (active.has(r.metadata?.name ?? '')) continue;
    remove.push(r);
    excess--;
  }
  return { remove, overLimit: excess };
}
