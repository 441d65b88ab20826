/**
 * The node daemon's decisions (upstream `pkg/daemon/containerrecreate/crr_daemon_controller.go` and
 * `crr_daemon_util.go`), pure but for the kill, which the caller passes in: which request of a pod runs
 * ({@link pickRequest}), the state of each container from what the runtime shows ({@link currentRecreateStates}), and
 * one pass of recreation ({@link manageRecreate}): at most one container stopped per pass, in order when
 * `orderedRecreate`, a failed stop Failed (the request completes unless `failurePolicy: Ignore`), a container counted
 * recreated (Succeeded) once its new instance is the one the manager saw ready and it ran `minStartedSeconds`.
 */
import {
  CrrKeys,
  type ContainerRecreateRequest,
  type CrrContainerRecreateState,
  type CrrPhase,
  type CrrSyncContainerStatus,
} from '@regatta/api';

/** One container of the pod as the node's runtime shows it: its newest instance. */
export interface RuntimeContainer {
  name: string;
  /** The runtime's id, without a `containerd://` prefix. */
  id: string;
  state: 'running' | 'exited' | 'created' | 'unknown';
  /** The instance's attempt (the kubelet's restart count). */
  restartCount: number;
  /** When it started (ms since the epoch; 0: not started). */
  startedAt: number;
  /** Its pod's sandbox (for the pod's IP: an httpGet preStop hook); absent where the runtime does not say. */
  podSandboxId?: string;
}

/** `containerd://abc` → `abc` (a bare id stays as it is). */
export const bareContainerId = (id: string) => (id.includes('://') ? id.slice(id.indexOf('://') + 3) : id);

const PHASE_WEIGHT: Record<string, number> = { Completed: 1, Recreating: 2, Pending: 3 };
const weight = (p: string | undefined) => PHASE_WEIGHT[p ?? ''] ?? 4;

/**
 * Upstream `pickRecreateRequest`: the pod's requests by phase (Recreating first, then Pending, then new) and age; the
 * first one not deleted or completed runs, the other new ones are to be marked Pending.
 */
export function pickRequest(list: readonly ContainerRecreateRequest[]): {
  picked: ContainerRecreateRequest | undefined;
  toPending: ContainerRecreateRequest[];
} {
  const sorted = [...list].sort((a, b) => {
    const w = weight(a.status?.phase) - weight(b.status?.phase);
    if (w !== 0) return w;
    return Date.parse(a.metadata?.creationTimestamp ?? '') - Date.parse(b.metadata?.creationTimestamp ?? '');
  });
  let picked: ContainerRecreateRequest | undefined;
  const toPending: ContainerRecreateRequest[] = [];
  for (const c of sorted) {
    if (c.metadata?.deletionTimestamp || c.status?.completionTime) continue;
    if (!picked) picked = c;
    else if (!c.status?.phase) toPending.push(c);
  }
  return { picked, toPending };
}

/** The manager's `sync-container-statuses` annotation, by name (an unreadable one: none). */
export function readSyncContainerStatuses(
  crr: ContainerRecreateRequest,
): Map<string, CrrSyncContainerStatus> {
  const raw = crr.metadata?.annotations?.[CrrKeys.SyncContainerStatuses];
  const out = new Map<string, CrrSyncContainerStatus>();
  if (!raw) return out;
  try {
    const list: unknown = JSON.parse(raw);
    if (Array.isArray(list))
      for (const s of list as CrrSyncContainerStatus[]) if (s?.name) out.set(s.name, s);
  } catch {
    // upstream logs and treats it as absent; the manager writes it again on its next pass
  }
  return out;
}

/** Upstream `getCurrentCRRContainersRecreateStates`. */
export function currentRecreateStates(
  crr: ContainerRecreateRequest,
  containers: readonly RuntimeContainer[],
  now: number,
): CrrContainerRecreateState[] {
  const minStartedMs = (crr.spec?.strategy?.minStartedSeconds ?? 0) * 1000;
  const synced = readSyncContainerStatuses(crr);
  const previous = new Map((crr.status?.containerRecreateStates ?? []).map((s) => [s.name, s]));
  return (crr.spec?.containers ?? []).map((c) => {
    const prev = previous.get(c.name);
    if (prev && (prev.phase === 'Failed' || prev.phase === 'Succeeded')) return prev;
    const wasKilled = prev?.isKilled ?? false;
    const state = (phase: CrrPhase, isKilled: boolean, message?: string): CrrContainerRecreateState => ({
      name: c.name,
      phase,
      ...(message ? { message } : {}),
      ...(isKilled ? { isKilled } : {}),
    });
    const rc = containers.find((x) => x.name === c.name);
    if (!rc) return state('Pending', wasKilled, 'not found container on Node');
    if (rc.state === 'exited') return state('Recreating', wasKilled);
    if (crr.spec?.strategy?.forceRecreate && !wasKilled) return state('Pending', false);
    const ctx = c.statusContext;
    if (ctx && (rc.id !== bareContainerId(ctx.containerID) || rc.restartCount > ctx.restartCount)) {
      const s = synced.get(c.name);
      const done =
        s !== undefined &&
        bareContainerId(s.containerID ?? '') === rc.id &&
        rc.startedAt > 0 &&
        now - rc.startedAt > minStartedMs &&
        s.ready;
      return state(done ? 'Succeeded' : 'Recreating', wasKilled);
    }
    return state('Pending', wasKilled);
  });
}

/** Equal as upstream's DeepEqual: field by field (the API server returns the fields in its own order). */
const canonical = (list: readonly CrrContainerRecreateState[] | undefined) =>
  JSON.stringify((list ?? []).map((s) => [s.name, s.phase, s.message ?? '', s.isKilled ?? false]));
export const sameStates = (
  a: readonly CrrContainerRecreateState[] | undefined,
  b: readonly CrrContainerRecreateState[],
) => canonical(a) === canonical(b);

export type RecreateOutcome =
  | { kind: 'patchStates'; states: CrrContainerRecreateState[] }
  | { kind: 'complete' }
  | { kind: 'wait'; requeueAfterMs?: number };

/** Stops one container (preStop, grace period); rejects when the runtime refused. */
export type KillContainer = (container: RuntimeContainer) => Promise<void>;

/** Upstream `manage`: one pass; `kill` is called for at most one container that is still to be recreated. */
export async function manageRecreate(
  crr: ContainerRecreateRequest,
  containers: readonly RuntimeContainer[],
  now: number,
  kill: KillContainer,
): Promise<RecreateOutcome> {
  const current = currentRecreateStates(crr, containers, now);
  if (!sameStates(crr.status?.containerRecreateStates, current))
    return { kind: 'patchStates', states: current };
  const ignore = crr.spec?.strategy?.failurePolicy === 'Ignore';
  const ordered = crr.spec?.strategy?.orderedRecreate ?? false;
  const states = structuredClone(current);
  let completed = 0;
  for (const s of states) {
    if (s.phase === 'Succeeded') {
      completed++;
      continue;
    }
    if (s.phase === 'Failed') {
      completed++;
      if (ignore) continue;
      return { kind: 'complete' };
    }
    if (s.phase === 'Recreating') {
      s.isKilled = true;
      if (ordered) break;
      continue;
    }
    const rc = containers.find((x) => x.name === s.name);
    if (!rc) break;
    try {
      await kill(rc);
    } catch (err) {
      s.phase = 'Failed';
      s.message = `kill container error: ${err instanceof Error ? err.message : String(err)}`;
      if (ignore) continue;
      return { kind: 'patchStates', states };
    }
    s.isKilled = true;
    s.phase = 'Recreating';
    break;
  }
  if (!sameStates(crr.status?.containerRecreateStates, states)) return { kind: 'patchStates', states };
  if (completed === states.length) return { kind: 'complete' };
  const minStarted = crr.spec?.strategy?.minStartedSeconds ?? 0;
  return minStarted > 0 ? { kind: 'wait', requeueAfterMs: minStarted * 1000 } : { kind: 'wait' };
}

/** Upstream's unready wait before recreating: ms left (> 0: wait), 0 to go on, undefined while not yet acquired. */
export function unreadyWaitMs(crr: ContainerRecreateRequest, now: number): number | undefined {
  const grace = crr.spec?.strategy?.unreadyGracePeriodSeconds;
  if (grace === undefined) return 0;
  const at = crr.metadata?.annotations?.[CrrKeys.UnreadyAcquired];
  if (!at) return undefined;
  const t = Date.parse(at);
  if (Number.isNaN(t)) return 0;
  return Math.max(0, grace * 1000 - (now - t));
}

/** The grace period of a stop: the strategy's (admission copies the pod's there), else 30 s. */
export const stopGraceSeconds = (crr: ContainerRecreateRequest) =>
  crr.spec?.strategy?.terminationGracePeriodSeconds ?? 30;
