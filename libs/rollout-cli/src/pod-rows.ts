/**
 * One row of the `rollout status --watch` pod view: what a pod says about itself (status, readiness, restarts,
 * lifecycle state, node, age) and whether the current rollout updated it in place or recreated it.
 *
 * The in-place / recreated decision reads what the controllers write (docs/cloneset.md "Writes of an in-place
 * update"; the same signals the controllers' own `pod-update` spans use, libs/workload `rollout-trace-control.ts`):
 * an in-place update writes the `apps.kruise.io/inplace-update-state` annotation whose `revision` is the revision the
 * pod is moved to and whose `updateTimestamp` is the write; a recreated pod is a new pod at the update revision,
 * created while the rollout runs. A SidecarSet upgrades sidecars in place only, recorded per SidecarSet in
 * `kruise.io/sidecarset-inplace-update-state` (docs/sidecarset.md).
 */
import { Labels, type Pod } from '@regatta/api';
import { readInPlaceUpdateState } from '@regatta/inplace-update';
import { isPodAtRevision, podRevision } from '@regatta/revision';
import type { RolloutRecord } from '@regatta/workload';
import { formatAge } from './history.js';

/** `in place` / `recreated` by the rollout shown; `` when the rollout did not touch the pod (or it is unknown). */
export type PodUpdateKind = 'in place' | 'recreated' | '';

export interface PodRow {
  name: string;
  namespace: string;
  /** kubectl's STATUS: Terminating, a container's waiting reason, else the phase. */
  status: string;
  /** Ready containers / containers. */
  ready: string;
  /** Whether the pod's Ready condition is True. */
  podReady: boolean;
  restarts: number;
  update: PodUpdateKind;
  /** `lifecycle.apps.kruise.io/state`, '' when unset. */
  lifecycle: string;
  node: string;
  /** Seconds since creation (undefined without a creation time). */
  ageSeconds: number | undefined;
  terminating: boolean;
}

/** The window of the rollout from its record (`regatta.dev/rollout-trace`, docs/adr/0007), in epoch ms. */
export interface RolloutWindow {
  /** The revision the rollout moves pods to. */
  to: string;
  start: number;
  end: number;
}

/** The rollout's window; undefined without a record or with an unreadable start. */
export function rolloutWindow(record: RolloutRecord | undefined): RolloutWindow | undefined {
  if (!record) return undefined;
  const start = Date.parse(record.start);
  if (!Number.isFinite(start)) return undefined;
  const end = record.done && record.end ? Date.parse(record.end) : Number.POSITIVE_INFINITY;
  return { to: record.to, start, end: Number.isFinite(end) ? end : Number.POSITIVE_INFINITY };
}

// the controllers stamp times in whole seconds: a write in the rollout's first second may read as just before it
const SLACK_MS = 1000;
const within = (t: number, w: RolloutWindow) => Number.isFinite(t) && t >= w.start - SLACK_MS && t <= w.end + SLACK_MS;

/** kubectl's STATUS column, reduced: Terminating, then the first waiting/terminated container reason, else the phase. */
export function podStatus(pod: Pod): string {
  if (pod.metadata?.deletionTimestamp) return 'Terminating';
  for (const c of pod.status?.containerStatuses ?? []) {
    const reason = c.state?.waiting?.reason ?? c.state?.terminated?.reason;
    if (typeof reason === 'string' && reason !== '') return reason;
  }
  return pod.status?.reason ?? pod.status?.phase ?? 'Unknown';
}

function sidecarInPlace(pod: Pod, sidecarSet: string, w: RolloutWindow | undefined): boolean {
  try {
    const raw = pod.metadata?.annotations?.['kruise.io/sidecarset-inplace-update-state'];
    const entry = raw ? (JSON.parse(raw) as Record<string, { updateTimestamp?: string }>)[sidecarSet] : undefined;
    if (!entry) return false;
    return w ? within(Date.parse(entry.updateTimestamp ?? ''), w) : true;
  } catch {
    return false;
  }
}

/**
 * How the rollout in `w` brought the pod to its revision. Without a rollout record: `in place` when the pod's
 * in-place state names the revision it is at, else `` (a pod's creation alone does not tell a recreate from a
 * scale-up).
 */
export function podUpdateKind(pod: Pod, w: RolloutWindow | undefined, sidecarSet?: string): PodUpdateKind {
  if (sidecarSet !== undefined) return sidecarInPlace(pod, sidecarSet, w) ? 'in place' : '';
  let state;
  try {
    state = readInPlaceUpdateState(pod);
  } catch {
    state = undefined;
  }
  if (state && podRevision(pod) !== '' && isPodAtRevision(pod, state.revision)) {
    if (!w || within(Date.parse(state.updateTimestamp), w)) return 'in place';
  }
  if (w && isPodAtRevision(pod, w.to) && within(Date.parse(pod.metadata?.creationTimestamp ?? ''), w)) {
    return 'recreated';
  }
  return '';
}

/** The row of one pod at `now`. */
export function podRow(pod: Pod, now: Date, w: RolloutWindow | undefined, sidecarSet?: string): PodRow {
  const statuses = pod.status?.containerStatuses ?? [];
  const containers = pod.spec?.containers?.length ?? statuses.length;
  const created = Date.parse(pod.metadata?.creationTimestamp ?? '');
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? '',
    status: podStatus(pod),
    ready: `${statuses.filter((c) => c.ready === true).length}/${containers}`,
    podReady: (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    restarts: statuses.reduce((sum, c) => sum + (c.restartCount ?? 0), 0),
    update: podUpdateKind(pod, w, sidecarSet),
    lifecycle: pod.metadata?.labels?.[Labels.LifecycleState] ?? '',
    node: pod.spec?.nodeName ?? '',
    ageSeconds: Number.isFinite(created) ? Math.max(0, Math.floor((now.getTime() - created) / 1000)) : undefined,
    terminating: Boolean(pod.metadata?.deletionTimestamp),
  };
}

export const rowAge = (r: PodRow): string => (r.ageSeconds === undefined ? '<unknown>' : formatAge(r.ageSeconds));
