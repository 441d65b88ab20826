// A container's preStop hook run by the node agent before it stops the container through CRI, as kruise-daemon's
// `KillContainer` does (upstream `pkg/daemon/kuberuntime/kuberuntime_container.go`, `executePreStopHook`): a kubelet
// runs the hook only for stops it makes itself, so a stop through CRI alone would skip it. The hook may use the grace
// period; the stop gets what is left of it, never less than the kubelet's 2 s.
import { CriCallError, GrpcStatus } from '@regatta/cri';
import { httpGetUrl, sendHttpGet, type HttpGetAction, type NamedPort } from './pre-stop-http.js';

/** A preStop handler as the pod (or a ContainerRecreateRequest's copy of it) holds it. */
export interface PreStopHandler {
  exec?: { command?: string[] | null } | null;
  /** The `sleep` action (Kubernetes 1.30+): waits that long, within the grace period. */
  sleep?: { seconds: number } | null;
  httpGet?: HttpGetAction | null;
  /** Accepted by the API and run by no kubelet (core/v1: kept for backward compatibility): not run here either. */
  tcpSocket?: unknown;
}

/** Where an httpGet hook goes when it names no host: the pod's sandbox (its IP through CRI) and the container's ports. */
export interface PreStopTarget {
  podSandboxId?: string;
  ports?: readonly NamedPort[];
}

/** The CRI call the hook needs (libs/cri CriRuntimeClient `execSync`). */
export interface PreStopCri {
  execSync?(
    id: string,
    cmd: string[],
    timeoutSeconds: number,
    o?: { timeoutMs?: number },
  ): Promise<{ exitCode: number }>;
  /** The pod's IP (libs/cri `podSandboxIP`), for an httpGet hook without a host. */
  podSandboxIP?(podSandboxId: string, o?: { timeoutMs?: number }): Promise<string>;
}

/** The kubelet's `minimumGracePeriodInSeconds`. */
export const MIN_STOP_GRACE_SECONDS = 2;

/** What is left of `graceSeconds` for the stop after a hook that ran `elapsedMs` (at least 2 s). Pure. */
export function remainingGraceSeconds(graceSeconds: number, elapsedMs: number): number {
  return Math.max(Math.ceil(graceSeconds - elapsedMs / 1000), MIN_STOP_GRACE_SECONDS);
}

/**
 * Runs the container's preStop hook before the node agent stops it, bounded by the grace period; returns the grace
 * seconds left for the stop. exec runs in the container through CRI `ExecSync`, `sleep` waits, httpGet sends its GET
 * (pre-stop-http.ts); tcpSocket is run by no kubelet and is skipped. A hook that fails does not keep the container
 * from being stopped (as the kubelet); a runtime without ExecSync (the node simulator, which plays the hook in its own
 * stop) is skipped.
 */
export async function runPreStopHook(
  cri: PreStopCri,
  containerId: string,
  handler: PreStopHandler | undefined,
  graceSeconds: number,
  log: { warn(fields: object, msg: string): void },
  target: PreStopTarget = {},
): Promise<number> {
  const started = Date.now();
  const sleepSeconds = handler?.sleep?.seconds;
  if (typeof sleepSeconds === 'number' && sleepSeconds > 0) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(sleepSeconds, graceSeconds) * 1000));
    return remainingGraceSeconds(graceSeconds, Date.now() - started);
  }
  if (handler?.httpGet) {
    await runHttpGetHook(cri, containerId, handler.httpGet, graceSeconds, log, target);
    return remainingGraceSeconds(graceSeconds, Date.now() - started);
  }
  const command = handler?.exec?.command;
  if (!command?.length || !cri.execSync) return Math.max(graceSeconds, MIN_STOP_GRACE_SECONDS);
  try {
    const res = await cri.execSync(containerId, command, graceSeconds, {
      timeoutMs: (graceSeconds + 5) * 1000,
    });
    if (res.exitCode !== 0) log.warn({ containerId, exitCode: res.exitCode }, 'preStop hook exited non-zero');
  } catch (err) {
    if (!(err instanceof CriCallError && err.grpcCode === GrpcStatus.UNIMPLEMENTED))
      log.warn({ err, containerId }, 'preStop hook failed; stopping the container anyway');
  }
  return remainingGraceSeconds(graceSeconds, Date.now() - started);
}

async function runHttpGetHook(
  cri: PreStopCri,
  containerId: string,
  action: HttpGetAction,
  graceSeconds: number,
  log: { warn(fields: object, msg: string): void },
  target: PreStopTarget,
): Promise<void> {
  // a runtime that cannot say the pod's IP (the node simulator plays hooks itself) is skipped, as for exec
  const sandbox = target.podSandboxId;
  const ipOf = cri.podSandboxIP?.bind(cri);
  if (!action.host && (!ipOf || !sandbox)) return;
  try {
    const podIP = action.host || !ipOf || !sandbox ? '' : await ipOf(sandbox, { timeoutMs: 10_000 });
    const at = httpGetUrl(action, podIP, target.ports);
    if ('problem' in at) {
      log.warn(
        { containerId, problem: at.problem },
        'preStop httpGet hook not sent; stopping the container anyway',
      );
      return;
    }
    const status = await sendHttpGet(at.url, action.httpHeaders, graceSeconds * 1000);
    if (status >= 400)
      log.warn({ containerId, url: at.url.href, status }, 'preStop httpGet hook answered an error');
  } catch (err) {
    if (!(err instanceof CriCallError && err.grpcCode === GrpcStatus.UNIMPLEMENTED))
      log.warn({ err, containerId }, 'preStop httpGet hook failed; stopping the container anyway');
  }
}
