// The state of one pod's simulated containers (what `advance` in runtime.ts moves forward): the types, and the
// runtime of a pod seen for the first time — fresh, or adopted from the status a restarted simulator finds.
import { createHash } from 'node:crypto';
import { resolveMetadataEnv } from './downward-env.js';
import type { FaultView } from './faults.js';
import type { SimulatorTimings } from './options.js';
import type { Container, ContainerStatus, Pod } from './types.js';

/** Annotation: containers of a `restartPolicy: Never/OnFailure` pod exit this many ms after starting. */
export const EXIT_AFTER_ANNOTATION = 'sim.regatta.dev/exit-after-ms';
/** Annotation: the exit code they exit with (default 0). */
export const EXIT_CODE_ANNOTATION = 'sim.regatta.dev/exit-code';

export interface Terminated {
  exitCode: number;
  reason: string;
  message?: string;
  startedAt: number | null;
  finishedAt: number;
  containerID: string;
}

export type RunState =
  /** `until` null: blocked (init containers not done yet). */
  | {
      kind: 'waiting';
      reason: 'PodInitializing' | 'ContainerCreating' | 'CreateContainerConfigError';
      until: number | null;
      pulling: boolean;
      /** Why the container cannot be created yet (CreateContainerConfigError). */
      message?: string;
    }
  | {
      kind: 'pullFailed';
      reason: 'ErrImagePull' | 'ImagePullBackOff' | 'ErrImageNeverPull';
      message: string;
      until: number;
      attempt: number;
    }
  | {
      kind: 'running';
      startedAt: number;
      /** Until then the postStart hook runs: the container is not started (nor ready) yet. */
      postStartUntil?: number;
      readyAt: number;
      endAt: number | null;
      exitCode: number;
      /** Stopped by the kubelet (deletion, restart): `endAt` is when it stops, after its preStop hook. */
      killed: boolean;
      /** A killed container that is created again once stopped (an in-place restart), whatever the policy. */
      restartWhenStopped?: boolean;
    }
  | { kind: 'backoff'; until: number; message: string }
  | { kind: 'terminated'; t: Terminated };

export interface ContainerRuntime {
  name: string;
  /** A regular (run-to-completion) init container. */
  init: boolean;
  /** A restartable init container (sidecar). */
  sidecar: boolean;
  /** The spec image the current or next instance runs. */
  target: string;
  /** Image and imageID reported in the status: those of the last instance that ran (spec image before any). */
  image: string;
  imageID: string;
  /** '' until a first instance was created. */
  containerID: string;
  restartCount: number;
  /** Values of the env vars read from pod labels/annotations, as resolved when the current instance was created. */
  metadataEnv: Record<string, string>;
  state: RunState;
  lastTerminated: Terminated | null;
  /** An image change seen right after a status report waits for the kubelet's next sync, at this time. */
  syncAt?: number;
}

export interface PodRuntime {
  uid: string;
  podIP: string;
  hostIP: string;
  startTime: number;
  /** When the kubelet last reported the pod's status (written by the pod loop; unset: not since it started). */
  reportedAt?: number;
  initContainers: ContainerRuntime[];
  containers: ContainerRuntime[];
  initialized: boolean;
  /** Set once the pod's deletion was observed; containers stop by `stopAt` (each after its preStop hook). */
  deletion: { stopAt: number } | null;
  /** No container will run again (completed, failed, or stopped for deletion). */
  terminal: boolean;
}

export type Effect =
  | { kind: 'event'; type: 'Normal' | 'Warning'; reason: string; message: string; fieldPath?: string }
  | { kind: 'imagePresent'; image: string };

export interface RuntimeEnv {
  now: number;
  timings: SimulatorTimings;
  faults: FaultView;
  /** Whether the node already has the image (no pull needed on restart). */
  hasImage(image: string): boolean;
  /** Regular containers the node daemon kills now (kruise-daemon's container meta restarter); running ones only. */
  restart?: ReadonlySet<string>;
  /** The grace period of such a kill by container name (a CRI StopContainer's timeout); else the pod's own. */
  restartGraceMs?: ReadonlyMap<string, number>;
  /** The Killing event's message of such a kill by container name ('' : none, a CRI stop); else the meta restarter's. */
  restartMessage?: ReadonlyMap<string, string>;
  /**
   * The ConfigMaps the node can read (env `valueFrom.configMapKeyRef`): the data of `namespace/name`, undefined when
   * it does not exist. Without it, such env vars are not checked.
   */
  configMapData?(namespace: string, name: string): Readonly<Record<string, string>> | undefined;
}

export const containerIdOf = (podUid: string, name: string, restartCount: number) =>
  `containerd://${createHash('sha256').update(`${podUid}/${name}/${restartCount}`).digest('hex')}`;

export const restartableInit = (c: Container) => c.restartPolicy === 'Always';

/** A container that has not been created yet; `advance` starts creating it when its turn comes. */
export function freshContainer(c: Container, kind: 'init' | 'sidecar' | 'regular'): ContainerRuntime {
  const image = c.image ?? '';
  return {
    name: c.name,
    init: kind === 'init',
    sidecar: kind === 'sidecar',
    target: image,
    image,
    imageID: '',
    containerID: '',
    restartCount: 0,
    metadataEnv: {},
    state: { kind: 'waiting', reason: 'PodInitializing', until: null, pulling: true },
    lastTerminated: null,
  };
}

const parseTime = (s: string | undefined | null, fallback: number): number => {
  const t = s ? Date.parse(s) : NaN;
  return Number.isFinite(t) ? t : fallback;
};

function terminatedFrom(
  t: NonNullable<NonNullable<ContainerStatus['state']>['terminated']>,
  now: number,
): Terminated {
  return {
    exitCode: typeof t.exitCode === 'number' ? t.exitCode : 0,
    reason: t.reason ?? (t.exitCode === 0 ? 'Completed' : 'Error'),
    message: t.message,
    startedAt: t.startedAt ? parseTime(t.startedAt, now) : null,
    finishedAt: parseTime(t.finishedAt, now),
    containerID: t.containerID ?? '',
  };
}

/** A container's runtime rebuilt from what an earlier simulator (or kubelet) reported, or a fresh one. */
function adoptContainer(
  c: Container,
  kind: 'init' | 'sidecar' | 'regular',
  cs: ContainerStatus | undefined,
  pod: Pod,
  env: RuntimeEnv,
): ContainerRuntime {
  const fresh = freshContainer(c, kind);
  if (!cs) return fresh;
  const rt: ContainerRuntime = {
    ...fresh,
    target: cs.image || fresh.target,
    image: cs.image || fresh.image,
    imageID: cs.imageID ?? '',
    containerID: cs.containerID ?? '',
    restartCount: cs.restartCount ?? 0,
    lastTerminated: cs.lastState?.terminated ? terminatedFrom(cs.lastState.terminated, env.now) : null,
  };
  const st = cs.state ?? {};
  if (st.running) {
    // what an earlier instance was started with is not known: assume the metadata it sees now
    rt.metadataEnv = resolveMetadataEnv(c, pod.metadata);
    const startedAt = parseTime(st.running.startedAt, env.now);
    rt.state = {
      kind: 'running',
      startedAt,
      readyAt: cs.ready ? startedAt : env.now + env.timings.containerRestartMs,
      endAt: kind === 'init' ? env.now + env.timings.initContainerMs : null,
      exitCode: 0,
      killed: false,
    };
    if (env.faults.crashes(rt.target) && kind !== 'init') {
      rt.state.endAt = env.now + env.timings.crashRunMs;
      rt.state.exitCode = 1;
    }
  } else if (st.terminated) {
    rt.state = { kind: 'terminated', t: terminatedFrom(st.terminated, env.now) };
  } else if (rt.containerID !== '' || rt.lastTerminated) {
    rt.state = { kind: 'backoff', until: env.now, message: '' };
  } else {
    rt.target = c.image ?? '';
    rt.image = rt.target;
  }
  return rt;
}

/** The runtime of a pod seen for the first time: fresh, or adopted from the status it already has. */
export function newPodRuntime(pod: Pod, ip: { podIP: string; hostIP: string }, env: RuntimeEnv): PodRuntime {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const inits = spec.initContainers ?? [];
  const initStatuses = status.initContainerStatuses ?? [];
  const statuses = status.containerStatuses ?? [];
  const find = (list: ContainerStatus[], name: string) => list.find((s) => s.name === name);
  const initDone =
    inits.length === 0 ||
    (status.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True') ||
    inits.every((c) => {
      const s = find(initStatuses, c.name);
      return restartableInit(c) ? !!s?.state?.running : s?.state?.terminated?.exitCode === 0;
    });
  const adoptedInits = inits.map((c): ContainerRuntime => {
    const cs = find(initStatuses, c.name);
    if (!initDone || restartableInit(c))
      return adoptContainer(c, restartableInit(c) ? 'sidecar' : 'init', cs, pod, env);
    const term = cs?.state?.terminated;
    return {
      ...adoptContainer(c, 'init', cs, pod, env),
      state: {
        kind: 'terminated',
        t: term
          ? terminatedFrom(term, env.now)
          : { exitCode: 0, reason: 'Completed', startedAt: null, finishedAt: env.now, containerID: '' },
      },
    };
  });
  const containers = (spec.containers ?? []).map((c) =>
    adoptContainer(c, 'regular', find(statuses, c.name), pod, env),
  );
  const phase = status.phase;
  return {
    uid: pod.metadata.uid ?? '',
    podIP: ip.podIP,
    hostIP: ip.hostIP,
    startTime: parseTime(status.startTime, env.now),
    initContainers: adoptedInits,
    containers,
    initialized: initDone,
    deletion: null,
    terminal: phase === 'Succeeded' || phase === 'Failed',
  };
}
