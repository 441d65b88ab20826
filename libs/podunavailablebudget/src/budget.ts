/**
 * The budget's arithmetic, as upstream's controller (`pkg/controller/podunavailablebudget/
 * podunavailablebudget_controller.go`) and pod control (`pkg/control/pubcontrol/pub_control.go`): when a pod counts
 * as available, how many must stay available, the pods whose disruption was admitted but not yet seen, and the status.
 */
import { PubKeys, type Pod, type PodUnavailableBudget, type PodUnavailableBudgetStatus } from '@regatta/api';
import { checkPodUpdateCompleted } from '@regatta/inplace-update';
import { scaleK8s } from '@regatta/kube';
import { isPodActive, isPodReady } from '@regatta/lifecycle';

/** An admitted deletion or eviction is expected within this time (upstream `DeletionTimeout`). */
export const DELETION_TIMEOUT_MS = 20_000;
/** An admitted in-place update counts the pod unavailable this long (upstream `UpdatedDelayCheckTime`). */
export const UPDATED_DELAY_CHECK_MS = 10_000;
/** The most pods `disruptedPods` and `unavailablePods` may hold together (upstream `MaxUnavailablePodSize`). */
export const MAX_UNAVAILABLE_POD_SIZE = 2000;

/** A label `unavailable-pod.kruise.io/<x>` marks the pod unavailable (upstream `appspub.HasUnavailableLabel`). */
export function hasUnavailableLabel(labels: Readonly<Record<string, string>> | undefined): boolean {
  return Object.keys(labels ?? {}).some((k) => k.startsWith(PubKeys.UnavailablePodLabelPrefix));
}

/** Upstream `IsPodReady` of pub control: Running, Ready, and no unavailable label. */
export function isPubPodReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod) && !hasUnavailableLabel(pod.metadata?.labels);
}

/**
 * Upstream `IsPodStateConsistent`, for what Regatta tracks: no sidecar upgrade of the pod still under way (upstream
 * `IsSidecarContainerUpdateCompleted`) and no in-place update still going on.
 */
export function isPodStateConsistent(pod: Pod): boolean {
  return isSidecarUpdateCompleted(pod) && checkPodUpdateCompleted(pod).completed;
}

const SIDECARSET_LIST = 'kruise.io/sidecarset-injected-list';
const SIDECARSET_UPDATE_STATE = 'kruise.io/sidecarset-inplace-update-state';

/**
 * Upstream `IsSidecarContainerUpdateCompleted` (`pkg/control/sidecarcontrol/util.go`): an injected sidecar (env
 * `IS_INJECTED=true`) still running the image recorded before its SidecarSet's in-place upgrade, while its spec names
 * another image, is not updated yet. No upgrade state: completed; an unreadable one: not.
 */
export function isSidecarUpdateCompleted(pod: Pod): boolean {
  const raw = pod.metadata?.annotations?.[SIDECARSET_UPDATE_STATE];
  const sets = (pod.metadata?.annotations?.[SIDECARSET_LIST] ?? '').split(',').filter(Boolean);
  if (raw === undefined || sets.length === 0) return true;
  let states: Record<string, { lastContainerStatuses?: Record<string, { imageID?: string }> | null }>;
  try {
    states = JSON.parse(raw) as typeof states;
    if (!states || typeof states !== 'object') return false;
  } catch {
    return false;
  }
  const sidecars = new Set(
    (pod.spec?.containers ?? [])
      .filter((c) => (c.env ?? []).some((e) => e.name === 'IS_INJECTED' && e.value === 'true'))
      .map((c) => c.name),
  );
  const last: Record<string, { imageID?: string }> = {};
  for (const s of sets) Object.assign(last, states[s]?.lastContainerStatuses ?? {});
  const specImage = new Map((pod.spec?.containers ?? []).map((c) => [c.name, c.image]));
  for (const cs of pod.status?.containerStatuses ?? []) {
    if (!sidecars.has(cs.name)) continue;
    const old = last[cs.name];
    if (old && old.imageID === cs.imageID && specImage.get(cs.name) !== cs.image) return false;
  }
  return true;
}

/** Ready and consistent: the pod counts towards `currentAvailable`. */
export function isPodAvailable(pod: Pod): boolean {
  return isPubPodReady(pod) && isPodStateConsistent(pod);
}

/**
 * Upstream `getDesiredAvailableForPub`: `expected − maxUnavailable` (rounded up, at least 0), else `minAvailable`
 * (a percentage of `expected`, rounded up). Throws IntOrStringError for a malformed value.
 */
export function desiredAvailable(pub: PodUnavailableBudget, expected: number): number {
  const spec = pub.spec ?? {};
  if (spec.maxUnavailable !== undefined)
    return Math.max(0, expected - scaleK8s(spec.maxUnavailable, expected, true));
  if (spec.minAvailable !== undefined) {
    return typeof spec.minAvailable === 'number'
      ? spec.minAvailable
      : scaleK8s(spec.minAvailable, expected, true);
  }
  return 0;
}

export interface RecordedPods {
  disruptedPods: Record<string, string>;
  unavailablePods: Record<string, string>;
  /** When the controller must look again (the earliest record to expire), ms since the epoch. */
  recheckAtMs: number | undefined;
  /** Pods whose admitted deletion did not happen in time (upstream's `NotDeleted` event). */
  notDeleted: string[];
}

/**
 * Upstream `buildDisruptedAndUnavailablePods`: of the status's records, those of active selected pods that have not
 * expired (a deletion 20 s, an in-place update 10 s after admission); a pod gone drops its record.
 */
export function keepRecordedPods(
  pods: readonly Pod[],
  status: PodUnavailableBudgetStatus | undefined,
  nowMs: number,
): RecordedPods {
  const out: RecordedPods = {
    disruptedPods: {},
    unavailablePods: {},
    recheckAtMs: undefined,
    notDeleted: [],
  };
  const disrupted = status?.disruptedPods ?? {};
  const unavailable = status?.unavailablePods ?? {};
  const recheck = (at: number) => {
    if (out.recheckAtMs === undefined || at < out.recheckAtMs) out.recheckAtMs = at;
  };
  for (const pod of pods) {
    if (!isPodActive(pod)) continue;
    const name = pod.metadata?.name ?? '';
    const d = disrupted[name];
    if (d !== undefined) {
      const expires = Date.parse(d) + DELETION_TIMEOUT_MS;
      if (expires < nowMs) out.notDeleted.push(name);
      else {
        out.disruptedPods[name] = d;
        recheck(expires);
      }
    }
    const u = unavailable[name];
    if (u !== undefined) {
      const expires = Date.parse(u) + UPDATED_DELAY_CHECK_MS;
      if (expires >= nowMs) {
        out.unavailablePods[name] = u;
        recheck(expires);
      }
    }
  }
  return out;
}

/** Upstream `countAvailablePods`: active, not recorded, ready and consistent. */
export function countAvailable(
  pods: readonly Pod[],
  recorded: Pick<RecordedPods, 'disruptedPods' | 'unavailablePods'>,
): number {
  let n = 0;
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    if (!isPodActive(pod) || name in recorded.disruptedPods || name in recorded.unavailablePods) continue;
    if (isPodAvailable(pod)) n++;
  }
  return n;
}

/** The status the controller writes (upstream `updatePubStatus`): `unavailableAllowed = max(0, current − desired)`. */
export function budgetStatus(input: {
  generation: number | undefined;
  currentAvailable: number;
  desiredAvailable: number;
  totalReplicas: number;
  recorded: Pick<RecordedPods, 'disruptedPods' | 'unavailablePods'>;
}): PodUnavailableBudgetStatus {
  const status: PodUnavailableBudgetStatus = {
    unavailableAllowed: Math.max(0, input.currentAvailable - input.desiredAvailable),
    currentAvailable: input.currentAvailable,
    desiredAvailable: input.desiredAvailable,
    totalReplicas: input.totalReplicas,
    observedGeneration: input.generation ?? 0,
  };
  if (Object.keys(input.recorded.disruptedPods).length) status.disruptedPods = input.recorded.disruptedPods;
  if (Object.keys(input.recorded.unavailablePods).length)
    status.unavailablePods = input.recorded.unavailablePods;
  return status;
}

/** Status equality as upstream compares it (maps by content; absent and empty maps alike). */
export function sameStatus(
  a: PodUnavailableBudgetStatus | undefined,
  b: PodUnavailableBudgetStatus,
): boolean {
  if (!a) return false;
  const map = (m: Record<string, string> | undefined) => JSON.stringify(Object.entries(m ?? {}).sort());
  return (
    a.unavailableAllowed === b.unavailableAllowed &&
    a.currentAvailable === b.currentAvailable &&
    a.desiredAvailable === b.desiredAvailable &&
    a.totalReplicas === b.totalReplicas &&
    (a.observedGeneration ?? 0) === (b.observedGeneration ?? 0) &&
    map(a.disruptedPods) === map(b.disruptedPods) &&
    map(a.unavailablePods) === map(b.unavailablePods)
  );
}
