/**
 * Writing an `UpdateSpec` into a pod (`defaultPatchUpdateSpecToPod`): apply the metadata patch, then change the
 * containers of the current batch — every container without a priority plus the highest-priority ones, plus any
 * container sharing a changed label/annotation with them — and leave the others for the next batch in the state.
 */
import { toRfc3339 } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { containerPriorities } from './container-meta.js';
import { INPLACE_UPDATE_STATE_KEY } from './keys.js';
import { applyMetadataPatch } from './metadata-patch.js';
import type { ContainerResources } from './resize.js';
import { type ContainerRefMetadata, type InPlaceUpdateState, formatInPlaceUpdateState } from './state.js';
import type { UpdateSpec } from './update-spec.js';

/** The pod after the batch is written, and the state that was stored into its annotation. */
export interface PatchedPod {
  pod: Pod;
  state: InPlaceUpdateState;
  /** The containers changed in this batch, sorted. */
  batch: string[];
  /**
   * New requests/limits of this batch's containers, to send through `pods/resize` (the pod's spec above keeps its
   * resources: the API server changes them only through that subresource). Absent when none.
   */
  resize?: Record<string, ContainerResources>;
}

/** `addMetadataSharedContainersToUpdate`: pulls in (transitively) containers sharing a changed key with the batch. */
function addSharedContainers(batch: Set<string>, refs: Readonly<Record<string, ContainerRefMetadata>>): void {
  const labels = new Set<string>();
  const annotations = new Set<string>();
  let added = [...batch];
  while (added.length > 0) {
    for (const name of added) {
      for (const k of Object.keys(refs[name]?.labels ?? {})) labels.add(k);
      for (const k of Object.keys(refs[name]?.annotations ?? {})) annotations.add(k);
    }
    added = [];
    for (const [name, meta] of Object.entries(refs)) {
      if (batch.has(name)) continue;
      const shares =
        Object.keys(meta.labels ?? {}).some((k) => labels.has(k)) ||
        Object.keys(meta.annotations ?? {}).some((k) => annotations.has(k));
      if (shares) {
        batch.add(name);
        added.push(name);
      }
    }
  }
}

/**
 * Applies `spec` to `pod` on top of `state` (a fresh state for a new update, the stored one for a next batch or the
 * end of a grace period). Neither input is modified.
 */
export function applyUpdateSpecToPod(
  pod: Pod,
  spec: UpdateSpec,
  state: InPlaceUpdateState,
  now: Date,
): PatchedPod {
  let out: Pod = spec.metaDataPatch !== undefined ? applyMetadataPatch(pod, spec.metaDataPatch) : { ...pod };
  const images = spec.containerImages ?? {};
  const refs = spec.containerRefMetadata ?? {};
  const resources = spec.containerResources ?? {};
  const containers = out.spec?.containers ?? [];

  const priorities = containerPriorities(out);
  const batch = new Set<string>();
  let highest: number | undefined;
  let highestNames: string[] = [];
  for (const c of containers) {
    if (!(c.name in images) && !(c.name in refs) && !(c.name in resources)) continue;
    const p = priorities.get(c.name);
    if (p === undefined) batch.add(c.name);
    else if (highest === undefined || p > highest) {
      highest = p;
      highestNames = [c.name];
    } else if (p === highest) highestNames.push(c.name);
  }
  for (const n of highestNames) batch.add(n);
  addSharedContainers(batch, refs);

  const next: InPlaceUpdateState = {
    ...state,
    nextContainerImages: {},
    nextContainerRefMetadata: {},
    nextContainerResources: {},
  };
  const imageChanged = new Set<string>();
  const newContainers = containers.map((c) => {
    const image = images[c.name];
    if (image === undefined) return c;
    if (batch.has(c.name)) {
      imageChanged.add(c.name);
      return { ...c, image };
    }
    (next.nextContainerImages ??= {})[c.name] = image;
    return c;
  });
  const lastStatuses = { ...(state.lastContainerStatuses ?? {}) };
  let recorded = state.lastContainerStatuses != null;
  for (const s of out.status?.containerStatuses ?? []) {
    if (!imageChanged.has(s.name)) continue;
    recorded = true;
    // only the first update of a container records its image ID (upstream updates a copy otherwise)
    if (!(s.name in lastStatuses)) lastStatuses[s.name] = s.imageID ? { imageID: s.imageID } : {};
  }
  if (recorded) next.lastContainerStatuses = lastStatuses;
  // resources of this batch are resized (pods/resize), the others wait for their batch
  const resize: Record<string, ContainerResources> = {};
  for (const [name, r] of Object.entries(resources)) {
    if (batch.has(name)) resize[name] = r;
    else (next.nextContainerResources ??= {})[name] = r;
  }

  const labels = { ...(out.metadata?.labels ?? {}) };
  const annotations = { ...(out.metadata?.annotations ?? {}) };
  for (const [name, meta] of Object.entries(refs)) {
    if (batch.has(name)) {
      Object.assign(labels, meta.labels ?? {});
      Object.assign(annotations, meta.annotations ?? {});
    } else (next.nextContainerRefMetadata ??= {})[name] = meta;
  }

  const sortedBatch = [...batch].sort();
  const hasNext =
    Object.keys(next.nextContainerImages ?? {}).length > 0 ||
    Object.keys(next.nextContainerRefMetadata ?? {}).length > 0 ||
    Object.keys(next.nextContainerResources ?? {}).length > 0;
  if (hasNext) next.preCheckBeforeNext = { containersRequiredReady: sortedBatch };
  else delete next.preCheckBeforeNext;
  next.containerBatchesRecord = [
    ...(state.containerBatchesRecord ?? []),
    { timestamp: toRfc3339(now), containers: sortedBatch },
  ];
  for (const k of ['nextContainerImages', 'nextContainerRefMetadata', 'nextContainerResources'] as const) {
    if (Object.keys(next[k] ?? {}).length === 0) delete next[k];
  }

  annotations[INPLACE_UPDATE_STATE_KEY] = formatInPlaceUpdateState(next);
  out = {
    ...out,
    metadata: { ...out.metadata, labels, annotations },
    ...(out.spec?.containers ? { spec: { ...out.spec, containers: newContainers } } : {}),
  };
  return {
    pod: out,
    state: next,
    batch: sortedBatch,
    ...(Object.keys(resize).length > 0 ? { resize } : {}),
  };
}
