/**
 * The decision on one pod operation (upstream `PodUnavailableBudgetValidatePod` and `checkAndDecrement`,
 * `pkg/control/pubcontrol/pub_control_utils.go`), pure: whether the budget must be spent, and the status once spent.
 */
import {
  PubKeys,
  type Pod,
  type PodUnavailableBudget,
  type PodUnavailableBudgetStatus,
  type PubOperation,
} from '@regatta/api';
import {
  MAX_UNAVAILABLE_POD_SIZE,
  hasUnavailableLabel,
  isPodStateConsistent,
  isPubPodReady,
} from './budget.js';

/**
 * The operations a budget guards (upstream `isNeedPubProtection`): the annotation's list, DELETE, UPDATE and EVICT
 * when it is absent or empty; RESIZE counts as UPDATE unless in-place vertical scaling is on.
 */
export function protectedOperations(
  pub: PodUnavailableBudget,
  inPlaceVerticalScaling: boolean,
): Set<PubOperation> {
  const value = pub.metadata?.annotations?.[PubKeys.ProtectOperations] ?? '';
  const ops = new Set<string>(value === '' ? ['DELETE', 'UPDATE', 'EVICT'] : value.split(','));
  if (!inPlaceVerticalScaling && ops.has('UPDATE')) ops.add('RESIZE');
  return ops as Set<PubOperation>;
}

/** Why an operation passes without spending the budget, or `spend`. */
export type PodDecision =
  | {
      kind: 'allow';
      reason:
        | 'no-protect'
        | 'not-available'
        | 'no-budget'
        | 'nothing-desired'
        | 'operation-not-guarded'
        | 'recorded';
    }
  | { kind: 'spend'; pub: PodUnavailableBudget };

/**
 * Upstream's order: the pod's opt-out annotation; a pod not ready or inconsistent is not available, so losing it costs
 * nothing; no budget; a budget that desires none available; an operation the budget does not guard; a pod already
 * recorded as disrupted or unavailable (no double spending); else the budget is spent.
 */
export function decide(
  pod: Pod,
  pub: PodUnavailableBudget | undefined,
  operation: PubOperation,
  o: { inPlaceVerticalScaling?: boolean } = {},
): PodDecision {
  if (pod.metadata?.annotations?.[PubKeys.NoProtect] === 'true')
    return { kind: 'allow', reason: 'no-protect' };
  if (!isPubPodReady(pod) || !isPodStateConsistent(pod)) return { kind: 'allow', reason: 'not-available' };
  if (!pub) return { kind: 'allow', reason: 'no-budget' };
  if ((pub.status?.desiredAvailable ?? 0) === 0) return { kind: 'allow', reason: 'nothing-desired' };
  if (!protectedOperations(pub, o.inPlaceVerticalScaling ?? false).has(operation))
    return { kind: 'allow', reason: 'operation-not-guarded' };
  if (isRecorded(pod.metadata?.name ?? '', pub.status)) return { kind: 'allow', reason: 'recorded' };
  return { kind: 'spend', pub };
}

export function isRecorded(podName: string, status: PodUnavailableBudgetStatus | undefined): boolean {
  return podName in (status?.disruptedPods ?? {}) || podName in (status?.unavailablePods ?? {});
}

/** Why the budget refused: upstream's two reasons (the message of its Forbidden error). */
export type Refusal =
  | 'pub unavailable allowed is negative'
  | 'DisruptedPods and UnavailablePods map too big - too many unavailable not confirmed by PUB controller';

/**
 * Upstream `checkAndDecrement`: refuse when nothing may be disrupted or the records are full; else one fewer allowed
 * and the pod recorded (an in-place update in `unavailablePods`, anything else in `disruptedPods`) at `now`.
 */
export function spend(
  status: PodUnavailableBudgetStatus | undefined,
  podName: string,
  operation: PubOperation,
  now: Date,
): { ok: true; status: PodUnavailableBudgetStatus } | { ok: false; refusal: Refusal } {
  const s: PodUnavailableBudgetStatus = status
    ? { ...status }
    : { unavailableAllowed: 0, currentAvailable: 0, desiredAvailable: 0, totalReplicas: 0 };
  if (s.unavailableAllowed <= 0) return { ok: false, refusal: 'pub unavailable allowed is negative' };
  const disrupted = { ...(s.disruptedPods ?? {}) };
  const unavailable = { ...(s.unavailablePods ?? {}) };
  if (Object.keys(disrupted).length + Object.keys(unavailable).length > MAX_UNAVAILABLE_POD_SIZE)
    return {
      ok: false,
      refusal:
        'DisruptedPods and UnavailablePods map too big - too many unavailable not confirmed by PUB controller',
    };
  s.unavailableAllowed--;
  const at = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (operation === 'UPDATE') unavailable[podName] = at;
  else disrupted[podName] = at;
  s.disruptedPods = disrupted;
  s.unavailablePods = unavailable;
  return { ok: true, status: s };
}

/**
 * The refusal's message: upstream's Forbidden error (`podunavailablebudget.policy.kruise.io "<name>" is forbidden:
 * <reason>`), then who refused, so an operator reading it knows Regatta's budget program answered.
 */
export function refusalMessage(pubName: string, refusal: string): string {
  return `podunavailablebudget.policy.kruise.io "${pubName}" is forbidden: ${refusal} (Regatta PodUnavailableBudget admission)`;
}

/**
 * Upstream `IsPodUnavailableChanged`: an update may make the pod unavailable when its spec changes or it gains an
 * unavailable label; anything else (metadata, the no-protect annotation) passes.
 */
export function isPodUnavailableChanged(oldPod: Pod, newPod: Pod): boolean {
  if (JSON.stringify(oldPod.spec ?? null) !== JSON.stringify(newPod.spec ?? null)) return true;
  return !hasUnavailableLabel(oldPod.metadata?.labels) && hasUnavailableLabel(newPod.metadata?.labels);
}

/**
 * Upstream `CanResizeInplace`, narrowed: only container resources changed and every changed resource's resize policy
 * is NotRequired (or unset), so the update resizes without a restart. QoS and static pods are not told apart.
 */
export function canResizeInPlace(oldPod: Pod, newPod: Pod): boolean {
  if (!hasUnavailableLabel(oldPod.metadata?.labels) && hasUnavailableLabel(newPod.metadata?.labels))
    return false;
  const strip = (p: Pod) =>
    JSON.stringify({
      ...p.spec,
      containers: (p.spec?.containers ?? []).map((c) => ({ ...c, resources: undefined })),
    });
  if (strip(oldPod) !== strip(newPod)) return false;
  const olds = new Map((oldPod.spec?.containers ?? []).map((c) => [c.name, c]));
  for (const c of newPod.spec?.containers ?? []) {
    const o = olds.get(c.name);
    if (!o) return false;
    const names = new Set([
      ...Object.keys(o.resources?.requests ?? {}),
      ...Object.keys(o.resources?.limits ?? {}),
      ...Object.keys(c.resources?.requests ?? {}),
      ...Object.keys(c.resources?.limits ?? {}),
    ]);
    for (const r of names) {
      const changed =
        o.resources?.requests?.[r] !== c.resources?.requests?.[r] ||
        o.resources?.limits?.[r] !== c.resources?.limits?.[r];
      if (!changed) continue;
      if (r !== 'cpu' && r !== 'memory') return false;
      const policy = (
        c as { resizePolicy?: { resourceName: string; restartPolicy: string }[] }
      ).resizePolicy?.find((p) => p.resourceName === r)?.restartPolicy;
      if (policy && policy !== 'NotRequired') return false;
    }
  }
  return true;
}

const inPlaceUnready = (p: Pod): boolean =>
  (p.status?.conditions ?? []).some((c) => c.type === 'InPlaceUpdateReady' && c.status === 'False');

/** A status write that turns the pod's `InPlaceUpdateReady` condition False: an in-place update begins. */
export function startsInPlaceUpdate(oldPod: Pod, newPod: Pod): boolean {
  return inPlaceUnready(newPod) && !inPlaceUnready(oldPod);
}
