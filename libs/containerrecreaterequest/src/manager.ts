/**
 * The manager's decision for one ContainerRecreateRequest (upstream `pkg/controller/containerrecreaterequest/
 * crr_controller.go` Reconcile), pure: given the request, its pod (undefined: gone) and the time, the one write to do
 * next and when to look again. The node agent does the recreation (daemon.ts); the manager completes requests the
 * agent cannot (pod gone, no answer within a minute, active deadline passed), keeps the pod's container statuses on
 * the request for the agent (`sync-container-statuses`), holds the pod not ready first when asked
 * (`unreadyGracePeriodSeconds`), releases it, drops the `active` label and deletes the request after its TTL.
 */
import { CrrKeys, type ContainerRecreateRequest, type CrrSyncContainerStatus, type Pod } from '@regatta/api';

/** Upstream's `responseTimeout`: a request the daemon has not picked up in this long is completed. */
export const DAEMON_RESPONSE_TIMEOUT_MS = 60_000;

export const CrrMessages = {
  PodGone: 'pod has gone',
  NoResponse: 'daemon has not responded for a long time',
  Deadline: 'recreating has exceeded the activeDeadlineSeconds',
} as const;

export type ManagerStep =
  /** Remove this request's key from the pod's KruisePodReady condition, then the finalizer. */
  | { kind: 'releaseNotReady' }
  | { kind: 'removeActiveLabel' }
  /** `ttlSecondsAfterFinished` passed. */
  | { kind: 'delete' }
  /** Phase Completed, completionTime now, this message. */
  | { kind: 'complete'; message: string }
  /** Write the `sync-container-statuses` annotation. */
  | { kind: 'syncContainerStatuses'; value: string }
  /** Add the finalizer and this request's not-ready key (pods with the KruisePodReady gate), then the annotation. */
  | { kind: 'acquireNotReady' }
  | { kind: 'none' };

export interface ManagerDecision {
  step: ManagerStep;
  /** Look again after this long (undefined: only on a change). */
  requeueAfterMs?: number;
}

const ms = (t: string | undefined) => (t ? Date.parse(t) : NaN);

/** The statuses of the request's containers that run an instance started after the request was made. */
export function syncContainerStatuses(crr: ContainerRecreateRequest, pod: Pod): CrrSyncContainerStatus[] {
  const created = ms(crr.metadata?.creationTimestamp);
  const out: CrrSyncContainerStatus[] = [];
  for (const c of crr.spec?.containers ?? []) {
    const st = pod.status?.containerStatuses?.find((s) => s.name === c.name);
    const started = ms(st?.state?.running?.startedAt ?? undefined);
    if (!st || !st.state?.running || started < created) continue;
    out.push({
      name: st.name,
      ready: !!st.ready,
      restartCount: st.restartCount ?? 0,
      containerID: st.containerID ?? '',
    });
  }
  return out;
}

/** Go's `DumpJSON` of the statuses: `omitempty` drops an empty containerID. */
export function formatSyncContainerStatuses(list: readonly CrrSyncContainerStatus[]): string {
  return JSON.stringify(
    list.map((s) => ({
      name: s.name,
      ready: s.ready,
      restartCount: s.restartCount,
      ...(s.containerID ? { containerID: s.containerID } : {}),
    })),
  );
}

export function decideManager(
  crr: ContainerRecreateRequest,
  pod: Pod | undefined,
  now: number,
): ManagerDecision {
  const labels = crr.metadata?.labels ?? {};
  const finalizers = crr.metadata?.finalizers ?? [];
  const status = crr.status ?? {};
  if (crr.metadata?.deletionTimestamp || status.completionTime) {
    if (finalizers.includes(CrrKeys.UnreadyAcquired)) return { step: { kind: 'releaseNotReady' } };
    if (crr.metadata?.deletionTimestamp) return { step: { kind: 'none' } };
    if (CrrKeys.Active in labels) return { step: { kind: 'removeActiveLabel' } };
    const ttl = crr.spec?.ttlSecondsAfterFinished;
    if (ttl === undefined) return { step: { kind: 'none' } };
    const left = ttl * 1000 - (now - ms(status.completionTime));
    return left <= 0 ? { step: { kind: 'delete' } } : { step: { kind: 'none' }, requeueAfterMs: left };
  }
  if (!pod || pod.metadata?.deletionTimestamp || (pod.metadata?.uid ?? '') !== labels[CrrKeys.PodUID])
    return { step: { kind: 'complete', message: CrrMessages.PodGone } };
  const created = ms(crr.metadata?.creationTimestamp);
  let requeue: number | undefined;
  const soonest = (left: number) => (requeue = requeue === undefined ? left : Math.min(requeue, left));
  if (!status.phase) {
    const left = DAEMON_RESPONSE_TIMEOUT_MS - (now - created);
    if (left <= 0) return { step: { kind: 'complete', message: CrrMessages.NoResponse } };
    soonest(left);
  }
  const deadline = crr.spec?.activeDeadlineSeconds;
  if (deadline !== undefined) {
    const left = deadline * 1000 - (now - created);
    if (left <= 0) return { step: { kind: 'complete', message: CrrMessages.Deadline } };
    soonest(left);
  }
  const wait = (step: ManagerStep): ManagerDecision =>
    requeue === undefined ? { step } : { step, requeueAfterMs: requeue };
  if (status.phase !== 'Recreating') return wait({ kind: 'none' });
  const value = formatSyncContainerStatuses(syncContainerStatuses(crr, pod));
  if (crr.metadata?.annotations?.[CrrKeys.SyncContainerStatuses] !== value)
    return wait({ kind: 'syncContainerStatuses', value });
  if (
    crr.spec?.strategy?.unreadyGracePeriodSeconds !== undefined &&
    !crr.metadata?.annotations?.[CrrKeys.UnreadyAcquired]
  )
    return wait({ kind: 'acquireNotReady' });
  return wait({ kind: 'none' });
}

/** The `{userAgent, key}` this request holds the pod not ready with (upstream `getReadinessMessage`). */
export const readinessKey = (crr: ContainerRecreateRequest) => ({
  userAgent: 'ContainerRecreateRequest',
  key: `${crr.metadata?.namespace ?? ''}/${crr.metadata?.name ?? ''}`,
});
