/**
 * Sidecar injection at pod creation, §5.2 of docs/sidecarset.md (OpenKruise `pkg/webhook/pod/mutating/sidecarset.go`
 * `sidecarsetMutatingPod`): match, choose the version, patch metadata, build and place the sidecars, merge volumes
 * and imagePullSecrets, write the annotations. Pure: the caller reads SidecarSets, namespaces and revisions.
 *
 * Calling it again on its own output gives the same pod (sidecars whose names are in the pod are replaced in place),
 * so the API server may call the webhook once per matching webhook entry (docs/adr/0026-sidecarset-blast-radius.md).
 */
import { SidecarSetAnnotations } from '@regatta/api';
import type { Labels } from '@regatta/kube';
import {
  HASH_KEY,
  HASH_WITHOUT_IMAGE_KEY,
  formatHashAnnotation,
  injectedList,
  parseHashAnnotation,
} from './annotations.js';
import { buildSidecars } from './build.js';
import { isActivePod, matchSidecarSets } from './match.js';
import { mergeSecrets, mergeSidecarContainers, mergeVolumes } from './merge.js';
import { patchPodMetadata } from './patch-metadata.js';
import { versionToInject } from './revision.js';
import type { AnySidecarSet, Pod, SidecarContainer, SidecarSetRevision, Volume } from './types.js';

export interface InjectionInput {
  pod: Pod;
  /** Every SidecarSet (the cache). */
  sidecarSets: readonly AnySidecarSet[];
  /** The labels of the pod's namespace (undefined when the namespace is unknown). */
  namespaceLabels: Labels | undefined;
  /** The SidecarSets' ControllerRevisions (for `injectionStrategy.revision`). */
  revisions: readonly SidecarSetRevision[];
  /** RFC 3339 time written as `updateTimestamp`. */
  now: string;
  /** Feature gate `EnableSortSidecarContainerByName`. */
  sortContainersByName?: boolean;
  /** For `injectionStrategy.revision.policy: Partial` with a percentage partition. */
  random?: () => number;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The pod with its sidecars, or undefined when no SidecarSet applies (the pod is left as it is). */
export function injectSidecars(input: InjectionInput): Pod | undefined {
  const { pod: original, now } = input;
  if (!isActivePod(original)) return undefined;
  const matched = matchSidecarSets(original, input.sidecarSets, input.namespaceLabels).map((s) =>
    versionToInject(s, original, input.revisions, input.random),
  );
  if (matched.length === 0) return undefined;

  const pod: Pod = structuredClone(original);
  const annotations: Record<string, string> = { ...(pod.metadata?.annotations ?? {}) };
  let metadataPatched = false;
  for (const s of matched) {
    if (!patchPodMetadata(annotations, s.spec.patchPodMetadata).skip) metadataPatched = true;
  }

  const hashes = parseHashAnnotation(HASH_KEY, annotations[HASH_KEY]);
  const hashesWithoutImage = parseHashAnnotation(HASH_WITHOUT_IMAGE_KEY, annotations[HASH_WITHOUT_IMAGE_KEY]);
  const working: Record<string, string> = parseWorking(
    annotations[SidecarSetAnnotations.WorkingHotUpgradeContainer],
  );
  const containers: SidecarContainer[] = [];
  const initContainers: SidecarContainer[] = [];
  const volumes: Volume[] = [];
  const secrets: { name?: string }[] = [];
  let hot = false;
  const sidecarNames = new Set(
    matched.flatMap((s) =>
      [...(s.spec.containers ?? []), ...(s.spec.initContainers ?? [])].map((c) => c.name),
    ),
  );
  for (const s of matched) {
    const name = s.metadata?.name ?? '';
    const built = buildSidecars(s, original, sidecarNames);
    containers.push(...built.containers);
    initContainers.push(...built.initContainers);
    volumes.push(...built.volumes);
    secrets.push(...built.imagePullSecrets);
    Object.assign(annotations, built.hotUpgrade.annotations);
    Object.assign(working, built.hotUpgrade.working);
    if (Object.keys(built.hotUpgrade.working).length) hot = true;
    if (built.containers.length === 0 && built.initContainers.length === 0) continue;
    const latestRevision = s.status?.latestRevision;
    hashes[name] = {
      updateTimestamp: now,
      hash: s.metadata?.annotations?.[SidecarSetAnnotations.Hash] ?? '',
      sidecarSetName: name,
      sidecarList: built.sidecarList,
      ...(latestRevision ? { controllerRevision: latestRevision } : {}),
    };
    hashesWithoutImage[name] = {
      updateTimestamp: now,
      hash: s.metadata?.annotations?.[SidecarSetAnnotations.HashWithoutImage] ?? '',
      sidecarSetName: name,
      sidecarList: built.sidecarList,
    };
  }
  if (containers.length === 0 && initContainers.length === 0) {
    if (!metadataPatched) return undefined;
    pod.metadata = { ...pod.metadata, annotations };
    return pod;
  }

  const spec = (pod.spec ??= {});
  spec.initContainers = mergeSidecarContainers(spec.initContainers ?? [], [...initContainers].sort(byName));
  if (spec.initContainers.length === 0) delete spec.initContainers;
  spec.containers = mergeSidecarContainers(
    spec.containers ?? [],
    input.sortContainersByName ? [...containers].sort(byName) : containers,
  );
  const mergedVolumes = mergeVolumes(spec.volumes ?? [], volumes);
  if (mergedVolumes.length) spec.volumes = mergedVolumes;
  const mergedSecrets = mergeSecrets((spec['imagePullSecrets'] ?? []) as { name?: string }[], secrets);
  if (mergedSecrets.length) spec['imagePullSecrets'] = mergedSecrets;

  annotations[HASH_KEY] = formatHashAnnotation(hashes);
  annotations[HASH_WITHOUT_IMAGE_KEY] = formatHashAnnotation(hashesWithoutImage);
  annotations[SidecarSetAnnotations.InjectedList] = injectedList(
    annotations[SidecarSetAnnotations.InjectedList],
    matched.map((s) => s.metadata?.name ?? ''),
  );
  if (hot) annotations[SidecarSetAnnotations.WorkingHotUpgradeContainer] = JSON.stringify(sortKeys(working));
  pod.metadata = { ...pod.metadata, annotations };
  return pod;
}

function parseWorking(value: string | undefined): Record<string, string> {
  if (!value) return {};
  try {
    return JSON.parse(value) as Record<string, string>;
  } catch {
    // upstream ignores an unreadable working-container annotation and starts afresh
    return {};
  }
}

function sortKeys(m: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : 1)));
}
