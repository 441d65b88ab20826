/**
 * The pod writes of a sidecar upgrade, as pure functions of (SidecarSet, pod) → pod (OpenKruise
 * `pkg/controller/sidecarset/sidecarset_processor.go` `updatePodSidecarContainer`, `sidecarset_hotupgrade.go`
 * `flipPodSidecarContainerDo`, `pkg/control/sidecarcontrol` `UpgradeSidecarContainer`, `UpdatePodSidecarSetHash`,
 * `UpdatePodAnnotationsInUpgrade`). Only images change in place; the app containers are never touched. Native
 * sidecars (init containers with `restartPolicy: Always`) are upgraded as the containers are, in
 * `spec.initContainers` (beyond upstream: docs/adr/0090-native-sidecar-in-place-upgrade.md).
 */
import { applyMergePatch, toRfc3339 } from '@regatta/kube';
import type { Pod, PodCondition } from '@regatta/lifecycle';
import {
  ALL_UPGRADABLE_REASON,
  SIDECARSET_HASH_KEY,
  SIDECARSET_HASH_WITHOUT_IMAGE_KEY,
  SIDECARSET_INPLACE_UPDATE_STATE_KEY,
  SIDECARSET_LIST_KEY,
  SIDECARSET_UPGRADABLE,
  UPDATE_IMMUTABLE_FIELD_REASON,
  WORKING_HOT_UPGRADE_CONTAINER_KEY,
  versionAltKey,
  versionKey,
} from './keys.js';
import {
  type SidecarInPlaceUpdateState,
  hotUpgradeContainers,
  hotUpgradeNames,
  isHotUpgrade,
  isPodStateConsistent,
  podHashEntries,
  readSidecarUpdateStates,
  sidecarSetHash,
  sidecarSetHashWithoutImage,
  workingHotUpgradeContainers,
} from './pod-state.js';
import { isNativeSidecarView, podContainer, sidecarStatus, sidecarsOf } from './sidecar-containers.js';
import type { PatchPodMetadataView, SidecarContainerView, SidecarSetView } from './types.js';

type Annotations = Record<string, string>;
const containerOf = podContainer;
type PodSpec = NonNullable<Pod['spec']>;

/** Copies of the pod's containers and init containers (changed in place), and the pod view over them. */
function writableSpec(pod: Pod): { spec: PodSpec; find: (name: string) => { image?: string } | undefined } {
  const spec: PodSpec = { ...pod.spec, containers: (pod.spec?.containers ?? []).map((c) => ({ ...c })) };
  if (pod.spec?.initContainers) spec.initContainers = pod.spec.initContainers.map((c) => ({ ...c }));
  const find = (name: string) =>
    spec.containers?.find((c) => c.name === name) ??
    spec.initContainers?.find((c) => c.name === name && isNativeSidecarView(c));
  return { spec, find };
}

/** `findContainerToHotUpgrade`: the twin on the empty image, else the not-ready one, else the older (non-working). */
export function hotUpgradeTarget(
  set: SidecarSetView,
  sidecar: SidecarContainerView,
  pod: Pod,
): { target: string; other: string } {
  const [n1, n2] = hotUpgradeNames(sidecar.name);
  const empty = sidecar.upgradeStrategy?.hotUpgradeEmptyImage;
  if (containerOf(pod, n1)?.image === empty) return { target: n1, other: n2 };
  if (containerOf(pod, n2)?.image === empty) return { target: n2, other: n1 };
  const ready = (n: string) => !!sidecarStatus(pod, n)?.ready && isPodStateConsistent(set, pod, new Set([n]));
  const r1 = ready(n1);
  const r2 = ready(n2);
  if (r1 && !r2) return { target: n2, other: n1 };
  if (!r1 && r2) return { target: n1, other: n2 };
  const { working, other } = hotUpgradeContainers(sidecar.name, pod);
  return { target: other, other: working };
}

/** `listSidecarNameInSidecarSet`: containers plus native-sidecar init containers, sorted. */
export function sidecarList(set: SidecarSetView): string[] {
  return [...new Set(sidecarsOf(set).map((c) => c.name))].sort();
}

/** `UpdatePodAnnotationsInUpgrade`: the state entry with the changed containers' imageIDs before the change. */
function recordUpdateState(
  set: SidecarSetView,
  pod: Pod,
  changed: readonly string[],
  now: Date,
  annotations: Annotations,
  resized: readonly string[] = [],
): void {
  const name = set.metadata?.name ?? '';
  const parsed = readSidecarUpdateStates(pod);
  const states: Record<string, SidecarInPlaceUpdateState> =
    parsed && parsed !== 'invalid' ? { ...parsed } : {};
  const state: SidecarInPlaceUpdateState = states[name]
    ? { ...states[name] }
    : { revision: sidecarSetHash(set), updateTimestamp: toRfc3339(now), lastContainerStatuses: null };
  const last = { ...(state.lastContainerStatuses ?? {}) };
  for (const c of changed) last[c] = { imageID: sidecarStatus(pod, c)?.imageID ?? '' };
  state.lastContainerStatuses = last;
  if (resized.length > 0)
    state.resizedContainers = [...new Set([...(state.resizedContainers ?? []), ...resized])].sort();
  states[name] = state;
  annotations[SIDECARSET_INPLACE_UPDATE_STATE_KEY] = JSON.stringify(states);
}

/** `PatchPodMetadata` on the pod's annotations: Retain only adds, Overwrite sets, MergePatchJson merges JSON. */
export function patchPodMetadata(
  annotations: Annotations,
  patches: readonly PatchPodMetadataView[] | undefined,
): void {
  for (const p of patches ?? []) {
    for (const [k, v] of Object.entries(p.annotations ?? {})) {
      const policy = p.patchPolicy ?? 'Retain';
      if (policy === 'Overwrite') annotations[k] = v;
      else if (policy === 'MergePatchJson') {
        const base: unknown = annotations[k] ? JSON.parse(annotations[k]) : {};
        annotations[k] = JSON.stringify(applyMergePatch(base as object, JSON.parse(v) as object));
      } else if (!(k in annotations)) annotations[k] = v;
    }
  }
}

export interface SidecarUpgrade {
  pod: Pod;
  /** Pod containers whose image was set. */
  changed: string[];
}

/**
 * A resize that goes with the upgrade (./resize.ts): the sidecars resized through `pods/resize` before this write
 * (recorded in the in-place state); the without-image hash entry becomes the SidecarSet's.
 */
export interface SidecarResizeWrite {
  resized: readonly string[];
}

/**
 * The pod after upgrading the SidecarSet's sidecar images: cold sidecars in place, hot ones on the twin chosen by
 * {@link hotUpgradeTarget} (which becomes working, with its version annotations); the hash entry, the in-place
 * state, the injected list (when missing) and patchPodMetadata written. With `resize`, also the without-image hash
 * entry and the resized sidecars (the resources themselves go through `pods/resize`, never in this write).
 */
export function upgradePodSidecars(
  set: SidecarSetView,
  pod: Pod,
  now: Date,
  injectedList?: () => string,
  resize?: SidecarResizeWrite,
): SidecarUpgrade {
  const setName = set.metadata?.name ?? '';
  const { spec, find } = writableSpec(pod);
  const annotations: Annotations = { ...(pod.metadata?.annotations ?? {}) };
  const changed: string[] = [];
  const view: Pod = { ...pod, spec };
  for (const sidecar of sidecarsOf(set)) {
    let target = sidecar.name;
    let old = find(target)?.image;
    let other: string | undefined;
    if (isHotUpgrade(sidecar)) {
      ({ target, other } = hotUpgradeTarget(set, sidecar, view));
      old = find(other)?.image;
    }
    const container = find(target);
    if (!container || sidecar.image === old) continue;
    container.image = sidecar.image;
    changed.push(target);
    if (other !== undefined) {
      const working = { ...workingHotUpgradeContainers(pod), [sidecar.name]: target };
      annotations[WORKING_HOT_UPGRADE_CONTAINER_KEY] = JSON.stringify(working);
      const rv = set.metadata?.resourceVersion ?? '';
      annotations[versionKey(target)] = rv;
      annotations[versionAltKey(target)] = annotations[versionKey(other)] ?? '';
      annotations[versionAltKey(other)] = rv;
    }
  }
  const entries = podHashEntries(pod);
  const entry: Record<string, unknown> = {
    updateTimestamp: toRfc3339(now),
    hash: sidecarSetHash(set),
    sidecarSetName: setName,
    sidecarList: sidecarList(set),
  };
  if (set.status?.latestRevision) entry['controllerRevision'] = set.status.latestRevision;
  annotations[SIDECARSET_HASH_KEY] = JSON.stringify({ ...entries, [setName]: entry });
  if (resize) {
    const without = podHashEntries(pod, SIDECARSET_HASH_WITHOUT_IMAGE_KEY);
    annotations[SIDECARSET_HASH_WITHOUT_IMAGE_KEY] = JSON.stringify({
      ...without,
      [setName]: { ...entry, hash: sidecarSetHashWithoutImage(set), controllerRevision: undefined },
    });
  }
  recordUpdateState(set, view, changed, now, annotations, resize?.resized);
  if (!annotations[SIDECARSET_LIST_KEY]) annotations[SIDECARSET_LIST_KEY] = injectedList?.() ?? setName;
  patchPodMetadata(annotations, set.spec?.patchPodMetadata);
  return { pod: { ...pod, metadata: { ...pod.metadata, annotations }, spec }, changed };
}

/**
 * `flipPodSidecarContainerDo`: after a hot switch, the idle twin goes back to `hotUpgradeEmptyImage`; its version
 * and the working twin's alt version become "0"; the in-place state records the idle twin's imageID.
 */
export function resetIdleTwins(set: SidecarSetView, pod: Pod, now: Date): SidecarUpgrade {
  const { spec, find } = writableSpec(pod);
  const annotations: Annotations = { ...(pod.metadata?.annotations ?? {}) };
  const changed: string[] = [];
  for (const sidecar of sidecarsOf(set)) {
    if (!isHotUpgrade(sidecar)) continue;
    const { working, other } = hotUpgradeContainers(sidecar.name, pod);
    const idle = find(other);
    const empty = sidecar.upgradeStrategy?.hotUpgradeEmptyImage;
    if (!idle || idle.image === empty) continue;
    idle.image = empty;
    changed.push(other);
    annotations[versionKey(other)] = '0';
    annotations[versionAltKey(working)] = '0';
  }
  recordUpdateState(set, pod, changed, now, annotations);
  return { pod: { ...pod, metadata: { ...pod.metadata, annotations }, spec }, changed };
}

/**
 * `updatePodSidecarSetUpgradableCondition`: the `SidecarSetUpgradable` condition with this SidecarSet's entry in its
 * JSON message; undefined when nothing changes.
 */
export function upgradableCondition(
  set: SidecarSetView,
  pod: Pod,
  upgradable: boolean,
  now: Date,
): PodCondition | undefined {
  const old = pod.status?.conditions?.find((c) => c.type === SIDECARSET_UPGRADABLE);
  let kv: Record<string, boolean> = {};
  try {
    if (old?.message) kv = JSON.parse(old.message) as Record<string, boolean>;
  } catch {
    kv = {};
  }
  kv[set.metadata?.name ?? ''] = upgradable;
  const all = Object.values(kv).every(Boolean);
  const sorted = Object.fromEntries(Object.entries(kv).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const next: PodCondition = {
    type: SIDECARSET_UPGRADABLE,
    status: all ? 'True' : 'False',
    reason: all ? ALL_UPGRADABLE_REASON : UPDATE_IMMUTABLE_FIELD_REASON,
    message: JSON.stringify(sorted),
    lastTransitionTime: toRfc3339(now),
  };
  if (old && old.status === next.status && old.reason === next.reason && old.message === next.message)
    return undefined;
  if (old && old.status === next.status)
    next.lastTransitionTime = old.lastTransitionTime ?? next.lastTransitionTime;
  return next;
}
