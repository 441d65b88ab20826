/**
 * What a pod says about its sidecars (OpenKruise `pkg/control/sidecarcontrol/util.go`, `util_hotupgrade.go`,
 * `sidecarset_control.go`): the per-SidecarSet hash entries, the injected list, the working hot-upgrade twins, and
 * whether the sidecar containers run what their spec says ("consistent").
 */
import { StringTable } from '@regatta/bus';
import { type Pod, isPodReady } from '@regatta/lifecycle';
import {
  SIDECARSET_HASH_KEY,
  SIDECARSET_HASH_WITHOUT_IMAGE_KEY,
  SIDECARSET_INPLACE_UPDATE_STATE_KEY,
  SIDECARSET_LIST_KEY,
  WORKING_HOT_UPGRADE_CONTAINER_KEY,
} from './keys.js';
import type { SidecarContainerView, SidecarSetView } from './types.js';
import { annotationMemo } from './annotation-memo.js';
import { isSidecarResizeActuated } from './resize-actuation.js';
import {
  podContainer,
  podRunningContainers,
  podRunningStatuses,
  sidecarStatus,
  sidecarsOf,
} from './sidecar-containers.js';
import {
  type HashEntries,
  type SidecarInPlaceUpdateState,
  hashEntriesOf,
  injectedListOf,
  updateStatesOf,
  workingTwinsOf,
} from './pod-annotations.js';

export type { SidecarInPlaceUpdateState, SidecarSetUpgradeSpec } from './pod-annotations.js';

// each annotation read once per pod version (./annotation-memo.ts): the reconcile reads them for every matched pod;
// what the pods of a SidecarSet hold alike (their hash entries, the injected list) is held once
const shared = new StringTable();
const sharedHashEntries = (raw: string | undefined) => hashEntriesOf(raw, shared);
const hashEntries = {
  [SIDECARSET_HASH_KEY]: annotationMemo(SIDECARSET_HASH_KEY, sharedHashEntries),
  [SIDECARSET_HASH_WITHOUT_IMAGE_KEY]: annotationMemo(SIDECARSET_HASH_WITHOUT_IMAGE_KEY, sharedHashEntries),
};
const workingTwins = annotationMemo(WORKING_HOT_UPGRADE_CONTAINER_KEY, workingTwinsOf);
const updateStates = annotationMemo(SIDECARSET_INPLACE_UPDATE_STATE_KEY, updateStatesOf);
const injectedList = annotationMemo(SIDECARSET_LIST_KEY, (raw) => injectedListOf(raw, shared));

/** The hash annotation (or the one without image) as a map; see {@link hashEntriesOf}. Shared: do not change it. */
export function podHashEntries(pod: Pod, key: keyof typeof hashEntries = SIDECARSET_HASH_KEY): HashEntries {
  return hashEntries[key](pod.metadata?.annotations);
}

export const sidecarSetHash = (set: SidecarSetView): string =>
  set.metadata?.annotations?.[SIDECARSET_HASH_KEY] ?? '';
export const sidecarSetHashWithoutImage = (set: SidecarSetView): string =>
  set.metadata?.annotations?.[SIDECARSET_HASH_WITHOUT_IMAGE_KEY] ?? '';
const nameOf = (set: SidecarSetView): string => set.metadata?.name ?? '';

/** `IsPodSidecarUpdated`: the pod's entry carries the SidecarSet's current hash. */
export function isPodSidecarUpdated(set: SidecarSetView, pod: Pod): boolean {
  return podHashEntries(pod)[nameOf(set)]?.hash === sidecarSetHash(set);
}

/** The `controllerRevision` the pod's sidecars came from (kept by history truncation). */
export function podControllerRevision(setName: string, pod: Pod): string {
  return podHashEntries(pod)[setName]?.controllerRevision ?? '';
}

export function injectedSidecarSets(pod: Pod): readonly string[] {
  return injectedList(pod.metadata?.annotations);
}

export const isHotUpgrade = (c: SidecarContainerView): boolean =>
  c.upgradeStrategy?.upgradeType === 'HotUpgrade';
export const hotUpgradeNames = (name: string): [string, string] => [`${name}-1`, `${name}-2`];

/** `kruise.io/sidecarset-working-hotupgrade-container`: sidecar name → working twin. */
export function workingHotUpgradeContainers(pod: Pod): Readonly<Record<string, string>> {
  return workingTwins(pod.metadata?.annotations);
}

/** `GetPodHotUpgradeContainers`: the working twin and the other one (idle, or the older one while upgrading). */
export function hotUpgradeContainers(sidecar: string, pod: Pod): { working: string; other: string } {
  const [n1, n2] = hotUpgradeNames(sidecar);
  return workingHotUpgradeContainers(pod)[sidecar] === n1
    ? { working: n1, other: n2 }
    : { working: n2, other: n1 };
}

/** Per SidecarSet sidecars list ({@link sidecarsOf}, replaced whole when the SidecarSet changes): once, not per pod. */
const inPodNames = new WeakMap<readonly SidecarContainerView[], ReadonlySet<string>>();

/**
 * Names of the SidecarSet's sidecars as they appear in pods (hot-upgrade sidecars as both twins), its native
 * sidecars included. Shared.
 */
export function sidecarContainersInPod(set: SidecarSetView): ReadonlySet<string> {
  const containers = sidecarsOf(set);
  const known = inPodNames.get(containers);
  if (known) return known;
  const names = new Set<string>();
  for (const c of containers) {
    if (isHotUpgrade(c)) for (const n of hotUpgradeNames(c.name)) names.add(n);
    else names.add(c.name);
  }
  inPodNames.set(containers, names);
  return names;
}

const containerOf = podContainer;

/**
 * `IsPodConsistentWithSidecarSet`: the pod holds every sidecar container (hot ones as both twins). As upstream, only
 * the SidecarSet's `containers` are required (a pod created before a native sidecar was added still counts; its
 * native sidecar is then not upgraded, as it is not there).
 */
export function podHasAllSidecars(set: SidecarSetView, pod: Pod): boolean {
  for (const c of set.spec?.containers ?? []) {
    if (!isHotUpgrade(c)) {
      if (containerOf(pod, c.name) === undefined) return false;
      continue;
    }
    const [n1, n2] = hotUpgradeNames(c.name);
    if (!(c.name in workingHotUpgradeContainers(pod)) || !containerOf(pod, n1) || !containerOf(pod, n2))
      return false;
  }
  return true;
}

/** `IsPodInjectedSidecarSet` + active + all sidecars present: the pod counts for the SidecarSet. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** `kruise.io/sidecarset-inplace-update-state`, see {@link updateStatesOf}. Shared: do not change it. */
export function readSidecarUpdateStates(
  pod: Pod,
): Readonly<Record<string, SidecarInPlaceUpdateState>> | 'invalid' | undefined {
  return updateStates(pod.metadata?.annotations);
}

/**
 * `IsSidecarContainerUpdateCompleted`: no state → completed; otherwise a listed container whose imageID is still the
 * recorded one while its status image differs from the spec image is not done yet.
 */
export function isSidecarContainerUpdateCompleted(
  pod: Pod,
  setNames: readonly string[],
  containers: ReadonlySet<string>,
): boolean {
  const states = readSidecarUpdateStates(pod);
  if (states === undefined) return true;
  if (states === 'invalid') return false;
  const last: Record<string, { imageID: string }> = {};
  for (const s of setNames) Object.assign(last, states[s]?.lastContainerStatuses ?? {});
  const specImage = new Map(podRunningContainers(pod).map((c) => [c.name, c.image]));
  for (const cs of podRunningStatuses(pod)) {
    if (!containers.has(cs.name)) continue;
    const old = last[cs.name];
    if (old && old.imageID === cs.imageID && specImage.get(cs.name) !== cs.image) return false;
  }
  return true;
}

/** The sidecars this SidecarSet resized in the pod (its in-place state entry's `resizedContainers`). */
export function resizedSidecars(set: SidecarSetView, pod: Pod): readonly string[] {
  const states = readSidecarUpdateStates(pod);
  if (!states || states === 'invalid') return [];
  const list: unknown = states[nameOf(set)]?.resizedContainers;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

/** `name@sha256:…` → its repository and digest; undefined for a tag reference. */
function digestOf(image: string): { repo: string; digest: string } | undefined {
  const at = image.indexOf('@');
  return at < 0 ? undefined : { repo: image.slice(0, at), digest: image.slice(at + 1) };
}

function stripScheme(imageID: string): string {
  const i = imageID.indexOf('://');
  return i < 0 ? imageID : imageID.slice(i + 3);
}

/**
 * `IsPodStateConsistent`: as many container statuses as containers; if every sidecar image (of `containers`, or all
 * the SidecarSet's) is a digest reference, each status imageID must carry that digest; otherwise the in-place state
 * must show each changed sidecar's imageID changed. Beyond upstream, sidecars resized in place
 * (`resizedContainers` of the state) must report their new resources (./resize-actuation.ts).
 */
export function isPodStateConsistent(
  set: SidecarSetView,
  pod: Pod,
  containers?: ReadonlySet<string>,
): boolean {
  if ((pod.spec?.containers ?? []).length !== (pod.status?.containerStatuses ?? []).length) return false;
  const names = containers && containers.size > 0 ? containers : sidecarContainersInPod(set);
  let allDigest = true;
  for (const c of podRunningContainers(pod)) {
    if (!names.has(c.name)) continue;
    const d = digestOf(c.image ?? '');
    if (!d) {
      allDigest = false;
      break;
    }
    const status = sidecarStatus(pod, c.name);
    if (!status) return false;
    const id = digestOf(stripScheme(status.imageID ?? ''));
    if (!id || id.digest !== d.digest) return false;
  }
  // a resize (Regatta only) is done once the kubelet reports the new resources of the resized sidecars
  const resized = resizedSidecars(set, pod).filter((n) => names.has(n));
  if (resized.length > 0 && !isSidecarResizeActuated(pod, resized)) return false;
  if (allDigest || readSidecarUpdateStates(pod) === undefined) return true;
  return isSidecarContainerUpdateCompleted(pod, [nameOf(set)], names);
}

export function isRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod) && !pod.metadata?.deletionTimestamp;
}

const NO_TWINS: ReadonlyMap<string, string> = new Map();

/** Idle twins (sidecar twin name → the empty image it should run). */
function idleTwins(set: SidecarSetView, pod: Pod): ReadonlyMap<string, string> {
  // most SidecarSets have no hot-upgrade sidecar: nothing to allocate per pod
  const sidecars = sidecarsOf(set);
  if (!sidecars.some(isHotUpgrade)) return NO_TWINS;
  const out = new Map<string, string>();
  for (const c of sidecars)
    if (isHotUpgrade(c))
      out.set(hotUpgradeContainers(c.name, pod).other, c.upgradeStrategy?.hotUpgradeEmptyImage ?? '');
  return out;
}

/** `commonControl.IsPodReady`: running and ready, and every idle twin runs the hot-upgrade empty image. */
export function isSidecarPodReady(set: SidecarSetView, pod: Pod): boolean {
  const idle = idleTwins(set, pod);
  if (idle.size > 0)
    for (const c of podRunningContainers(pod)) {
      const empty = idle.get(c.name);
      if (empty && c.image !== empty) return false;
    }
  return isRunningAndReady(pod);
}

/** `isPodSidecarInHotUpgrading`: some idle twin does not run the empty image (the switch happened, reset pending). */
export function isPodInHotUpgrading(set: SidecarSetView, pod: Pod): boolean {
  for (const [name, empty] of idleTwins(set, pod)) if (containerOf(pod, name)?.image !== empty) return true;
  return false;
}

/** `isHotUpgradingReady`: running and ready, or every container but the idle twins ready. */
export function isHotUpgradingReady(set: SidecarSetView, pod: Pod): boolean {
  if (isRunningAndReady(pod)) return true;
  const idle = idleTwins(set, pod);
  return podRunningStatuses(pod).every((cs) => idle.has(cs.name) || cs.ready);
}

/** Sidecar containers without the idle twins (the ones that must be consistent before the reset). */
export function workingSidecarContainers(set: SidecarSetView, pod: Pod): Set<string> {
  const names = new Set(sidecarContainersInPod(set));
  for (const idle of idleTwins(set, pod).keys()) names.delete(idle);
  return names;
}
