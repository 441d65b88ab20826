// The simulated container runtime of one pod: a pure state machine. `advance` moves a pod's containers along
// their timelines (create → run → crash/exit → back-off → restart, image pulls, in-place image changes,
// graceful stop) up to `now` and returns what a kubelet would have done on the way (events, pulled images).
import { hookMs, mainProcessOf } from './container-command.js';
import { CONFIG_RETRY_MS, missingConfigMapRef } from './config-env.js';
import { resolveMetadataEnv } from './downward-env.js';
import { imageIdOf } from './image-ref.js';
import { type Stop, deletionGraceMs, restartGraceMs, stopOf } from './termination.js';
import {
  containerIdOf,
  freshContainer,
  restartableInit,
  EXIT_AFTER_ANNOTATION,
  EXIT_CODE_ANNOTATION,
  type ContainerRuntime,
  type Effect,
  type PodRuntime,
  type RunState,
  type RuntimeEnv,
  type Terminated,
} from './runtime-state.js';
import type { Container, Pod } from './types.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 3 : 1).replace(/\.?0+$/, '')}s`;

/** Moves the pod's containers forward to `env.now`. Returns a new runtime; the input is not modified. */
export function advance(
  pod: Pod,
  current: PodRuntime,
  env: RuntimeEnv,
): { runtime: PodRuntime; effects: Effect[] } {
  const rt: PodRuntime = structuredClone(current);
  const effects: Effect[] = [];
  const { now, timings: t, faults } = env;
  const spec = pod.spec ?? {};
  const policy = spec.restartPolicy ?? 'Always';
  const podRef = `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
  const annotations = pod.metadata.annotations ?? {};
  const exitAfter = Number(annotations[EXIT_AFTER_ANNOTATION]);
  const exitCode = Number(annotations[EXIT_CODE_ANNOTATION] ?? 0) || 0;

  const specInits = spec.initContainers ?? [];
  const specContainers = spec.containers ?? [];
  const specOf = (c: ContainerRuntime): Container | undefined =>
    (c.init || c.sidecar ? specInits : specContainers).find((s) => s.name === c.name);
  const fieldPath = (c: ContainerRuntime) =>
    `spec.${c.init || c.sidecar ? 'initContainers' : 'containers'}{${c.name}}`;
  const event = (c: ContainerRuntime | null, type: 'Normal' | 'Warning', reason: string, message: string) =>
    effects.push({ kind: 'event', type, reason, message, ...(c ? { fieldPath: fieldPath(c) } : {}) });

  /** How a running container the kubelet kills now stops (termination.ts): what it runs decides. */
  const stopFor = (
    c: ContainerRuntime,
    s: Extract<RunState, { kind: 'running' }>,
    graceMs: number,
    exitMs: number,
  ) => {
    const sp = specOf(c);
    // the instance running now was started from image `c.image` (the spec may already name the next one)
    const main = sp ? mainProcessOf({ ...sp, image: c.image }) : { exitsOnSigterm: true };
    return stopOf({
      graceMs,
      preStopMs: hookMs(sp?.lifecycle?.preStop),
      exitsOnSigterm: main.exitsOnSigterm || faults.crashes(c.image),
      exitMs,
      endsInMs: s.endAt === null ? null : s.endAt - now,
    });
  };
  /** The running state of a container the kubelet is stopping (`stop` from {@link stopFor}). */
  const stopping = (
    s: Extract<RunState, { kind: 'running' }>,
    stop: Stop,
    restartWhenStopped: boolean,
  ): RunState => ({
    ...s,
    endAt: now + stop.afterMs,
    exitCode: stop.exitCode ?? s.exitCode,
    killed: true,
    restartWhenStopped,
  });

  // keep the runtime's container lists in line with the spec (containers cannot be added, but be lenient)
  for (const [list, specs, kind] of [
    [rt.initContainers, specInits, 'init'],
    [rt.containers, specContainers, 'regular'],
  ] as const) {
    for (const s of specs) {
      if (!list.some((c) => c.name === s.name)) {
        const k = kind === 'init' ? (restartableInit(s) ? 'sidecar' : 'init') : 'regular';
        list.push(freshContainer(s, k));
      }
    }
  }
  const all = () => [...rt.initContainers, ...rt.containers];

  const pullPolicy = (c: ContainerRuntime) => specOf(c)?.imagePullPolicy ?? 'IfNotPresent';
  /** Delay before a new instance runs: the pod's start time for a first start, a pull (or none) on restart. */
  const createDelay = (c: ContainerRuntime): { ms: number; pulling: boolean } => {
    const pulling = pullPolicy(c) === 'Always' || !env.hasImage(c.target);
    if (c.containerID === '') return { ms: t.podStartMs * faults.startFactor(c.target), pulling };
    return { ms: pulling ? t.imagePullMs : 0, pulling };
  };
  const beginCreate = (c: ContainerRuntime, from: number) => {
    const d = createDelay(c);
    c.state = { kind: 'waiting', reason: 'ContainerCreating', until: from + d.ms, pulling: d.pulling };
    if (d.pulling && pullPolicy(c) !== 'Never') event(c, 'Normal', 'Pulling', `Pulling image "${c.target}"`);
  };
  const backoffMs = (base: number, n: number) => base * 2 ** Math.min(Math.max(n, 0), 3);

  const start = (c: ContainerRuntime, at: number, pulledMs: number | null) => {
    const restarted = c.containerID !== '';
    if (restarted) c.restartCount += 1;
    c.image = c.target;
    c.imageID = imageIdOf(c.target);
    c.containerID = containerIdOf(rt.uid, c.name, c.restartCount);
    c.metadataEnv = resolveMetadataEnv(specOf(c), pod.metadata);
    const crash = faults.crashes(c.target);
    // what the container's command does (container-command.ts): exits when it says so, else runs until stopped
    const s = specOf(c);
    const main = s ? mainProcessOf({ ...s, image: c.target }) : { runMs: null, exitCode: 0 };
    let endAt: number | null = null;
    let code = 0;
    if (crash) {
      endAt = at + t.crashRunMs;
      code = 1;
    } else if (c.init) {
      endAt = at + (main.runMs ?? t.initContainerMs);
      code = main.runMs === null ? 0 : main.exitCode;
    } else if (!c.sidecar && policy !== 'Always' && Number.isFinite(exitAfter) && exitAfter >= 0) {
      endAt = at + exitAfter;
      code = exitCode;
    } else if (main.runMs !== null) {
      endAt = at + main.runMs;
      code = main.exitCode;
    }
    // kubelet runs the postStart hook right after the start and reports the container started once it returned
    const postStart = hookMs(s?.lifecycle?.postStart);
    const readyDelay = restarted ? t.containerRestartMs * faults.startFactor(c.target) : 0;
    c.state = {
      kind: 'running',
      startedAt: at,
      ...(postStart > 0 ? { postStartUntil: at + postStart } : {}),
      readyAt: at + postStart + readyDelay,
      endAt,
      exitCode: code,
      killed: false,
    };
    effects.push({ kind: 'imagePresent', image: c.target });
    if (pulledMs !== null) {
      event(
        c,
        'Normal',
        'Pulled',
        `Successfully pulled image "${c.target}" in ${seconds(pulledMs)} (${seconds(pulledMs)} including waiting)`,
      );
    } else {
      event(c, 'Normal', 'Pulled', `Container image "${c.target}" already present on machine`);
    }
    event(c, 'Normal', 'Created', `Created container: ${c.name}`);
    event(c, 'Normal', 'Started', `Started container ${c.name}`);
  };

  const pullFailure = (c: ContainerRuntime, at: number, attempt: number) => {
    const ref = imageIdOf(c.target).split('@')[0];
    const message = `Failed to pull image "${c.target}": rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": not found (simulated)`;
    c.state = {
      kind: 'pullFailed',
      reason: 'ErrImagePull',
      message,
      until: at + t.imagePullBackoffMs / 2,
      attempt,
    };
    event(c, 'Warning', 'Failed', message);
    event(c, 'Warning', 'Failed', 'Error: ErrImagePull');
  };

  /** Applies the next due transition of one container; true if something changed. */
  const step = (c: ContainerRuntime): boolean => {
    const s = c.state;
    switch (s.kind) {
      case 'waiting': {
        // a container waiting for its ConfigMap key is checked on every sync (a ConfigMap change wakes the pod)
        const configWait = s.reason === 'CreateContainerConfigError';
        if (s.until === null || (!configWait && s.until > now)) return false;
        if (s.pulling && faults.pullFails(c.target)) {
          pullFailure(c, s.until, 0);
          return true;
        }
        if (pullPolicy(c) === 'Never' && c.containerID !== '' && !env.hasImage(c.target)) {
          c.state = {
            kind: 'pullFailed',
            reason: 'ErrImageNeverPull',
            message: `Container image "${c.target}" is not present with pull policy of Never`,
            until: s.until + t.imagePullBackoffMs,
            attempt: 0,
          };
          event(c, 'Warning', 'ErrImageNeverPull', c.state.message);
          return true;
        }
        const missing = env.configMapData
          ? missingConfigMapRef(specOf(c), pod.metadata.namespace ?? '', env.configMapData)
          : undefined;
        if (missing !== undefined) {
          if (configWait) {
            // still missing: check again later (no change to report)
            if (s.until <= now || s.message !== missing)
              c.state = { ...s, message: missing, until: now + CONFIG_RETRY_MS };
            return false;
          }
          // the image is there; the container is created once its ConfigMap key exists
          if (s.pulling) effects.push({ kind: 'imagePresent', image: c.target });
          event(c, 'Warning', 'Failed', `Error: ${missing}`);
          c.state = {
            kind: 'waiting',
            reason: 'CreateContainerConfigError',
            message: missing,
            until: Math.max(s.until, now) + CONFIG_RETRY_MS,
            pulling: false,
          };
          return true;
        }
        start(
          c,
          configWait ? now : s.until,
          s.pulling ? (c.containerID === '' ? t.podStartMs : t.imagePullMs) : null,
        );
        return true;
      }
      case 'pullFailed': {
        if (s.until > now) return false;
        if (s.reason === 'ErrImagePull') {
          c.state = {
            kind: 'pullFailed',
            reason: 'ImagePullBackOff',
            message: `Back-off pulling image "${c.target}"`,
            until: s.until + backoffMs(t.imagePullBackoffMs, s.attempt),
            attempt: s.attempt,
          };
          event(c, 'Normal', 'BackOff', c.state.message);
        } else if (s.reason === 'ErrImageNeverPull' && !env.hasImage(c.target)) {
          c.state = { ...s, until: now + t.imagePullBackoffMs };
        } else if (faults.pullFails(c.target)) {
          event(c, 'Normal', 'Pulling', `Pulling image "${c.target}"`);
          pullFailure(c, now, s.attempt + 1);
        } else {
          const pulling = s.reason !== 'ErrImageNeverPull';
          c.state = {
            kind: 'waiting',
            reason: 'ContainerCreating',
            until: now + (pulling ? t.imagePullMs : 0),
            pulling,
          };
          if (pulling) event(c, 'Normal', 'Pulling', `Pulling image "${c.target}"`);
        }
        return true;
      }
      case 'running': {
        if (s.endAt === null || s.endAt > now) return false;
        const term: Terminated = {
          exitCode: s.exitCode,
          reason: s.exitCode === 0 ? 'Completed' : 'Error',
          startedAt: s.startedAt,
          finishedAt: s.endAt,
          containerID: c.containerID,
        };
        if (s.killed && s.restartWhenStopped) {
          c.lastTerminated = term;
          beginCreate(c, s.endAt);
          return true;
        }
        if (s.killed) {
          c.state = { kind: 'terminated', t: term };
          return true;
        }
        const restart =
          c.sidecar ||
          (c.init
            ? s.exitCode !== 0 && policy !== 'Never'
            : policy === 'Always' || (policy === 'OnFailure' && s.exitCode !== 0));
        if (!restart) {
          c.state = { kind: 'terminated', t: term };
          return true;
        }
        c.lastTerminated = term;
        const delay = backoffMs(t.crashBackoffMs, c.restartCount);
        c.state = {
          kind: 'backoff',
          until: s.endAt + delay,
          message: `back-off ${seconds(delay)} restarting failed container=${c.name} pod=${podRef}`,
        };
        event(c, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${podRef}`);
        return true;
      }
      case 'backoff': {
        if (s.until > now) return false;
        beginCreate(c, s.until);
        return true;
      }
      case 'terminated':
        return false;
    }
  };

  // graceful deletion: every container stops, the pod will not run anything again
  if (pod.metadata.deletionTimestamp && !rt.deletion) {
    const graceMs = deletionGraceMs(
      pod.metadata.deletionGracePeriodSeconds,
      spec.terminationGracePeriodSeconds,
    );
    rt.deletion = { stopAt: now + graceMs };
    for (const c of all()) {
      const s = c.state;
      if (s.kind === 'running') {
        // the preStop hook runs first, then SIGTERM; a process that ignores it runs until SIGKILL (termination.ts)
        c.state = stopping(s, stopFor(c, s, graceMs, t.podStopMs), false);
        event(c, 'Normal', 'Killing', `Stopping container ${c.name}`);
      } else if (s.kind !== 'terminated') {
        c.state = {
          kind: 'terminated',
          t: c.lastTerminated ?? {
            exitCode: 137,
            reason: 'ContainerStatusUnknown',
            message: 'The container could not be located when the pod was terminated',
            startedAt: null,
            finishedAt: now,
            containerID: c.containerID,
          },
        };
      }
    }
  }

  // an image changed in the spec, or the node daemon killed a running container: that container (only) is
  // restarted (a spec change restarts it whatever the restart policy; a killed container exits 0 and restarts only
  // under `Always`)
  if (!rt.deletion && !rt.terminal) {
    for (const c of all()) {
      const want = specOf(c)?.image ?? c.target;
      const s = c.state;
      // a container already being stopped (its preStop hook running) is not stopped again
      if (s.kind === 'running' && s.killed) continue;
      const killed = s.kind === 'running' && !c.init && !c.sidecar && (env.restart?.has(c.name) ?? false);
      if ((want === c.target && !killed) || s.kind === 'terminated' || (c.init && s.kind !== 'running'))
        continue;
      const specChanged = want !== c.target;
      // the kubelet acts on a spec change at the pod's next sync, which waits for a PLEG relist that began after
      // the sync that last reported its status (upstream kubernetes pkg/kubelet/pod_workers.go, GetNewerThan)
      if (specChanged && s.kind === 'running') {
        c.syncAt ??= Math.max(now, (rt.reportedAt ?? -Infinity) + t.plegRelistMs);
        if (c.syncAt > now) continue;
      }
      delete c.syncAt;
      c.target = want;
      if (c.containerID === '') c.image = want;
      if (s.kind === 'running') {
        if (specChanged)
          // a native sidecar: kubelet `computeInitContainerActions` words it so (no "will be restarted")
          event(
            c,
            'Normal',
            'Killing',
            c.sidecar
              ? `Init container ${c.name} definition changed`
              : `Container ${c.name} definition changed, will be restarted`,
          );
        else {
          // a stop through CRI (StopContainer) is the caller's to report: the kubelet only sees the exit
          const message =
            env.restartMessage?.get(c.name) ??
            `Stopping containerID ${c.containerID} by container meta restarter`;
          if (message) event(c, 'Normal', 'Killing', message);
        }
        // kubelet runs the preStop hook, then SIGTERM, within the grace period (termination.ts); the container is
        // created again once its process has exited (a killed one of a Never/OnFailure pod is not). A process that
        // exits on SIGTERM is taken to exit at once here (podStopMs is a deletion's).
        const graceMs = specChanged ? undefined : env.restartGraceMs?.get(c.name);
        const stop = stopFor(c, s, graceMs ?? restartGraceMs(spec.terminationGracePeriodSeconds), 0);
        const restart = specChanged || policy === 'Always';
        if (stop.afterMs > 0 || !restart) {
          c.state = stopping(s, stop, restart);
          continue;
        }
        c.lastTerminated = {
          exitCode: 0,
          reason: 'Completed',
          startedAt: s.startedAt,
          finishedAt: now,
          containerID: c.containerID,
        };
        beginCreate(c, now);
      } else if (!(s.kind === 'waiting' && s.until === null)) {
        beginCreate(c, now);
      }
    }
  }

  for (let guard = 0; guard < 1000; guard++) {
    let changed = false;
    if (!rt.initialized && !rt.deletion && !rt.terminal) {
      let done = true;
      for (const c of rt.initContainers) {
        if (c.state.kind === 'waiting' && c.state.until === null) {
          beginCreate(c, now);
          changed = true;
        }
        if (step(c)) changed = true;
        const complete = c.sidecar
          ? c.state.kind === 'running'
          : c.state.kind === 'terminated' && c.state.t.exitCode === 0;
        if (c.init && c.state.kind === 'terminated' && c.state.t.exitCode !== 0) {
          rt.terminal = true; // restartPolicy Never: initialization failed
          changed = true;
        }
        if (!complete) {
          done = false;
          break;
        }
      }
      if (done && !rt.terminal) {
        rt.initialized = true;
        changed = true;
      }
    }
    if (rt.initialized || rt.deletion) {
      for (const c of [...rt.initContainers.filter((c) => c.sidecar || rt.deletion), ...rt.containers]) {
        if (
          rt.initialized &&
          !rt.deletion &&
          !rt.terminal &&
          c.state.kind === 'waiting' &&
          c.state.until === null
        ) {
          beginCreate(c, now);
          changed = true;
        }
        if (step(c)) changed = true;
      }
    }
    if (rt.deletion) {
      if (
        !rt.terminal &&
        all().every(
          (c) => c.state.kind === 'terminated' || (c.state.kind === 'waiting' && c.state.until === null),
        )
      ) {
        rt.terminal = true;
        changed = true;
      }
    } else if (
      !rt.terminal &&
      rt.initialized &&
      rt.containers.length > 0 &&
      rt.containers.every((c) => c.state.kind === 'terminated')
    ) {
      rt.terminal = true; // Never / OnFailure: everything completed
      for (const c of rt.initContainers.filter((c) => c.sidecar && c.state.kind === 'running')) {
        const s = c.state as Extract<RunState, { kind: 'running' }>;
        c.state = {
          kind: 'terminated',
          t: {
            exitCode: 0,
            reason: 'Completed',
            startedAt: s.startedAt,
            finishedAt: now,
            containerID: c.containerID,
          },
        };
      }
      changed = true;
    }
    if (!changed) break;
  }
  return { runtime: rt, effects };
}

/** When the next transition is due (for a timer), or null if nothing will happen without a spec change. */
export function nextDeadline(rt: PodRuntime, now: number): number | null {
  let next = Infinity;
  for (const c of [...rt.initContainers, ...rt.containers]) {
    const s = c.state;
    if (s.kind === 'waiting' && s.until !== null) next = Math.min(next, s.until);
    else if (s.kind === 'pullFailed' || s.kind === 'backoff') next = Math.min(next, s.until);
    else if (s.kind === 'running') {
      if (c.syncAt !== undefined && c.syncAt > now) next = Math.min(next, c.syncAt);
      if (s.endAt !== null) next = Math.min(next, s.endAt);
      if (s.readyAt > now) next = Math.min(next, s.readyAt);
      if (s.postStartUntil !== undefined && s.postStartUntil > now) next = Math.min(next, s.postStartUntil);
    }
  }
  return Number.isFinite(next) ? next : null;
}
