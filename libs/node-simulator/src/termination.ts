// How long the kubelet takes to stop a running container, and how it ends: its preStop hook runs first, within the
// grace period; then the container is sent SIGTERM and given what is left of the grace period, never less than
// 2 s ("always give containers a minimal shutdown window", `minimumGracePeriodInSeconds`), before SIGKILL. A
// process that exits on SIGTERM stops after its exit time; one that ignores it (container-command.ts) runs until
// the SIGKILL, exit code 137. Upstream: kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go
// (killContainer, executePreStopHook) and pkg/kubelet/pod_workers.go (a terminating pod always gets a grace
// period of at least 1 s). Pure.

/** kubelet's `minimumGracePeriodInSeconds`: the least a container is given between SIGTERM and SIGKILL. */
export const MIN_STOP_WINDOW_MS = 2000;
/** kubelet's pod workers: the grace period of a terminating pod is never under 1 s. */
export const MIN_POD_GRACE_MS = 1000;
/** The grace period when neither the deletion nor the pod spec give one (the API server's default). */
export const DEFAULT_GRACE_SECONDS = 30;
/** Exit code of a process ended by SIGKILL (128 + 9). */
export const SIGKILL_EXIT_CODE = 137;

export interface StopInput {
  /** The grace period: the deletion's, else the pod's `terminationGracePeriodSeconds`, else 30 s. */
  graceMs: number;
  /** How long the preStop hook runs (0: none). */
  preStopMs: number;
  /** The main process exits on SIGTERM (else it runs on until SIGKILL). */
  exitsOnSigterm: boolean;
  /** How long a process that exits on SIGTERM takes to exit (the simulator's `podStopMs`). */
  exitMs: number;
  /** When the process would end by itself, counted from the kill (null: it runs until stopped). */
  endsInMs?: number | null;
}

export interface Stop {
  /** From the kill to the process's end. */
  afterMs: number;
  /** Its exit code: 0 on SIGTERM, 137 on SIGKILL, else (ended by itself first) undefined: its own. */
  exitCode: number | undefined;
}

/** When a container the kubelet kills stops, and with which exit code. */
export function stopOf(i: StopInput): Stop {
  const grace = Math.max(0, i.graceMs);
  const preStop = Math.min(Math.max(0, i.preStopMs), grace);
  const window = Math.max(grace - preStop, MIN_STOP_WINDOW_MS);
  const bySignal = i.exitsOnSigterm && i.exitMs <= window;
  const signalled: Stop = bySignal
    ? { afterMs: preStop + Math.max(0, i.exitMs), exitCode: 0 }
    : { afterMs: preStop + window, exitCode: SIGKILL_EXIT_CODE };
  if (i.endsInMs !== undefined && i.endsInMs !== null && i.endsInMs < signalled.afterMs)
    return { afterMs: Math.max(0, i.endsInMs), exitCode: undefined };
  return signalled;
}

/** The grace period of a pod being deleted (at least 1 s, as the kubelet's pod workers give). */
export function deletionGraceMs(
  deletionGraceSeconds: number | undefined,
  specGraceSeconds: number | undefined,
): number {
  const s = deletionGraceSeconds ?? specGraceSeconds ?? DEFAULT_GRACE_SECONDS;
  return Math.max(s * 1000, MIN_POD_GRACE_MS);
}

/** The grace period of a container killed in a running pod (an in-place restart): the pod's own. */
export function restartGraceMs(specGraceSeconds: number | undefined): number {
  return Math.max(0, specGraceSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
}
