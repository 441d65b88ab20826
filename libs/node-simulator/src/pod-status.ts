// What a kubelet reports for a pod, given its runtime: container statuses, phase, conditions (Ready honours
// readiness gates exactly like kubelet's GeneratePodReadyCondition). Pure.
import { type ResizeState, resizeConditions, withAllocated, withoutResizeConditions } from './pod-resize.js';
import type { ContainerRuntime, PodRuntime, RunState, Terminated } from './runtime-state.js';
import type { Container, ContainerState, ContainerStatus, Pod, PodCondition, PodStatus } from './types.js';

/** Conditions the kubelet owns; every other condition type (readiness gates, DisruptionTarget…) is left alone. */
export const KUBELET_CONDITIONS = [
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
  // in-place resize (pod-resize.ts)
  'PodResizePending',
  'PodResizeInProgress',
];

/** RFC 3339 at second precision, as metav1.Time serializes. */
export const rfc3339 = (ms: number) =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function terminatedJson(t: Terminated): NonNullable<ContainerState['terminated']> {
  return {
    exitCode: t.exitCode,
    reason: t.reason,
    ...(t.message ? { message: t.message } : {}),
    ...(t.startedAt !== null ? { startedAt: rfc3339(t.startedAt) } : {}),
    finishedAt: rfc3339(t.finishedAt),
    ...(t.containerID ? { containerID: t.containerID } : {}),
  };
}

function stateJson(s: RunState): ContainerState {
  switch (s.kind) {
    case 'waiting':
      return { waiting: { reason: s.reason, ...(s.message ? { message: s.message } : {}) } };
    case 'pullFailed':
      return { waiting: { reason: s.reason, message: s.message } };
    case 'backoff':
      return { waiting: { reason: 'CrashLoopBackOff', message: s.message } };
    case 'running':
      return { running: { startedAt: rfc3339(s.startedAt) } };
    case 'terminated':
      return { terminated: terminatedJson(s.t) };
  }
}

export function isReady(c: ContainerRuntime, now: number): boolean {
  return (
    c.state.kind === 'running' && now >= c.state.readyAt && (c.state.endAt === null || now < c.state.endAt)
  );
}

export function containerStatus(
  c: ContainerRuntime,
  spec: Container | undefined,
  now: number,
): ContainerStatus {
  const running = c.state.kind === 'running';
  const res = spec?.resources;
  return {
    name: c.name,
    state: stateJson(c.state),
    lastState: c.lastTerminated ? { terminated: terminatedJson(c.lastTerminated) } : {},
    ready: isReady(c, now),
    restartCount: c.restartCount,
    image: c.image,
    imageID: c.imageID,
    ...(c.containerID ? { containerID: c.containerID } : {}),
    // kubelet reports a container started once its postStart hook returned
    started: c.state.kind === 'running' && now >= (c.state.postStartUntil ?? c.state.startedAt),
    ...(running && res && (res.requests || res.limits) ? { resources: { ...res } } : {}),
  };
}

const isRestartableInit = (c: Container) => c.restartPolicy === 'Always';
const byName = (list: ContainerStatus[], name: string) => list.find((s) => s.name === name);

/** kubelet's getPhase. */
export function podPhase(
  pod: Pod,
  initStatuses: ContainerStatus[],
  statuses: ContainerStatus[],
  podIsTerminal: boolean,
): string {
  const spec = pod.spec ?? {};
  const policy = spec.restartPolicy ?? 'Always';
  let pendingRegularInit = 0;
  let pendingRestartableInit = 0;
  let failedInit = 0;
  for (const c of spec.initContainers ?? []) {
    if (isRestartableInit(c)) continue;
    const s = byName(initStatuses, c.name);
    if (!s) pendingRegularInit++;
    else if (s.state?.running) pendingRegularInit++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInit++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) {
        if (s.lastState.terminated.exitCode !== 0) failedInit++;
      } else pendingRegularInit++;
    } else pendingRegularInit++;
  }
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of spec.initContainers ?? []) {
    if (!isRestartableInit(c)) continue;
    const s = byName(initStatuses, c.name);
    if (!s) unknown++;
    else if (s.state?.running) {
      if (!s.started) pendingRestartableInit++;
      running++;
    } else if (s.state?.terminated) {
      // terminated restartable init containers are ignored
    } else if (s.state?.waiting) {
      if (!s.lastState?.terminated) {
        pendingRestartableInit++;
        waiting++;
      }
    } else {
      pendingRestartableInit++;
      unknown++;
    }
  }
  for (const c of spec.containers ?? []) {
    const s = byName(statuses, c.name);
    if (!s) unknown++;
    else if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  let phase: string;
  if (pendingRegularInit > 0 || (pendingRestartableInit > 0 && !podIsTerminal)) phase = 'Pending';
  else if (waiting > 0) phase = 'Pending';
  else if (running > 0 && unknown === 0) phase = 'Running';
  else if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) phase = stopped === succeeded ? 'Succeeded' : 'Failed';
    else if (policy === 'Always') phase = 'Running';
    else if (stopped === succeeded) phase = 'Succeeded';
    else if (policy === 'Never') phase = 'Failed';
    else phase = 'Running';
  } else phase = 'Pending';
  // a pod whose containers were stopped for good (deleted before it ran to completion) ends Failed
  if (podIsTerminal && (phase === 'Pending' || phase === 'Running')) phase = 'Failed';
  return phase;
}

type Cond = Pick<PodCondition, 'type' | 'status' | 'reason' | 'message'>;
const fmtList = (names: string[]) => `[${names.join(' ')}]`;

/** kubelet's GenerateContainersReadyCondition. */
export function containersReadyCondition(
  pod: Pod,
  initStatuses: ContainerStatus[],
  statuses: ContainerStatus[],
  phase: string,
): Cond {
  const unknown: string[] = [];
  const unready: string[] = [];
  for (const c of pod.spec?.initContainers ?? []) {
    if (!isRestartableInit(c)) continue;
    const s = byName(initStatuses, c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  for (const c of pod.spec?.containers ?? []) {
    const s = byName(statuses, c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  if ((phase === 'Succeeded' && unknown.length === 0) || phase === 'Failed') {
    return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
  }
  const msgs: string[] = [];
  if (unknown.length) msgs.push(`containers with unknown status: ${fmtList(unknown)}`);
  if (unready.length) msgs.push(`containers with unready status: ${fmtList(unready)}`);
  if (msgs.length)
    return {
      type: 'ContainersReady',
      status: 'False',
      reason: 'ContainersNotReady',
      message: msgs.join(', '),
    };
  return { type: 'ContainersReady', status: 'True' };
}

/** kubelet's GeneratePodReadyCondition: containers ready, then every readiness gate's condition True. */
export function readyCondition(pod: Pod, containersReady: Cond, conditions: PodCondition[]): Cond {
  if (containersReady.status !== 'True') {
    return {
      type: 'Ready',
      status: containersReady.status,
      reason: containersReady.reason,
      message: containersReady.message,
    };
  }
  const msgs: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const c = conditions.find((x) => x.type === gate.conditionType);
    if (!c)
      msgs.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True')
      msgs.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  if (msgs.length)
    return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: msgs.join(', ') };
  return { type: 'Ready', status: 'True' };
}

/** kubelet's GeneratePodInitializedCondition. */
export function initializedCondition(pod: Pod, initStatuses: ContainerStatus[], phase: string): Cond {
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of pod.spec?.initContainers ?? []) {
    const s = byName(initStatuses, c.name);
    if (!s) {
      unknown.push(c.name);
      continue;
    }
    if (isRestartableInit(c)) {
      if (!s.started) incomplete.push(c.name);
    } else if (!(s.state?.terminated && s.state.terminated.exitCode === 0)) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0)
    return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
  const msgs: string[] = [];
  if (unknown.length) msgs.push(`containers with unknown status: ${fmtList(unknown)}`);
  if (incomplete.length) msgs.push(`containers with incomplete status: ${fmtList(incomplete)}`);
  if (msgs.length)
    return {
      type: 'Initialized',
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: msgs.join(', '),
    };
  return { type: 'Initialized', status: 'True' };
}

/** Replaces the kubelet-owned conditions in `existing` (keeping lastTransitionTime when the status is unchanged). */
export function mergeConditions(
  existing: PodCondition[],
  ours: Cond[],
  now: number,
  generation?: number,
): PodCondition[] {
  const out = existing.filter((c) => !ours.some((o) => o.type === c.type)).map((c) => ({ ...c }));
  const merged = ours.map((o) => {
    const prev = existing.find((c) => c.type === o.type);
    return {
      type: o.type,
      status: o.status,
      ...(o.reason ? { reason: o.reason } : {}),
      ...(o.message ? { message: o.message } : {}),
      lastProbeTime: null,
      lastTransitionTime:
        prev && prev.status === o.status && prev.lastTransitionTime ? prev.lastTransitionTime : rfc3339(now),
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
    };
  });
  // kubelet's order first, then the others as they were
  return [...merged, ...out];
}

/**
 * The status a kubelet would write for the pod now. Conditions not owned by the kubelet are kept as they are. With
 * `resize` (pod-resize.ts), containers report the resources allocated to them and the pod a pending resize.
 */
export function desiredPodStatus(pod: Pod, rt: PodRuntime, now: number, resize?: ResizeState): PodStatus {
  const spec = pod.spec ?? {};
  const specInit = (n: string) => spec.initContainers?.find((c) => c.name === n);
  const specReg = (n: string) =>
    withAllocated(
      spec.containers?.find((c) => c.name === n),
      resize,
    );
  const initStatuses = rt.initContainers.map((c) => containerStatus(c, specInit(c.name), now));
  const statuses = rt.containers.map((c) => containerStatus(c, specReg(c.name), now));
  const existing = resize
    ? withoutResizeConditions(pod.status?.conditions ?? [])
    : (pod.status?.conditions ?? []);
  const prevPhase = pod.status?.phase;
  // a terminal phase is final (the kubelet's status manager never leaves it)
  const phase =
    prevPhase === 'Succeeded' || prevPhase === 'Failed'
      ? prevPhase
      : podPhase(pod, initStatuses, statuses, rt.terminal);
  const containersReady = containersReadyCondition(pod, initStatuses, statuses, phase);
  const ours: Cond[] = [
    { type: 'PodReadyToStartContainers', status: rt.terminal && rt.deletion ? 'False' : 'True' },
    initializedCondition(pod, initStatuses, phase),
    readyCondition(pod, containersReady, existing),
    containersReady,
    { type: 'PodScheduled', status: 'True' },
    ...resizeConditions(resize),
  ];
  const generation = pod.metadata.generation;
  const ips = rt.podIP ? [{ ip: rt.podIP }] : [];
  return {
    phase,
    conditions: mergeConditions(existing, ours, now, generation),
    hostIP: rt.hostIP,
    hostIPs: [{ ip: rt.hostIP }],
    ...(rt.podIP ? { podIP: rt.podIP, podIPs: ips } : {}),
    startTime: rfc3339(rt.startTime),
    ...(initStatuses.length ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: statuses,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
}

/** A canonical string of the fields the simulator writes, to tell whether a write is needed. */
export function statusFingerprint(st: PodStatus | undefined): string {
  const s = st ?? {};
  const state = (x: ContainerState | undefined) => {
    if (x?.running) return ['running', x.running.startedAt ?? ''];
    if (x?.terminated) {
      const t = x.terminated;
      return [
        'terminated',
        t.exitCode,
        t.reason ?? '',
        t.message ?? '',
        t.startedAt ?? '',
        t.finishedAt ?? '',
        t.containerID ?? '',
      ];
    }
    if (x?.waiting) return ['waiting', x.waiting.reason ?? '', x.waiting.message ?? ''];
    return [];
  };
  const cs = (list: ContainerStatus[] | null | undefined) =>
    (list ?? []).map((c) => [
      c.name,
      state(c.state),
      state(c.lastState),
      !!c.ready,
      c.restartCount ?? 0,
      c.image ?? '',
      c.imageID ?? '',
      c.containerID ?? '',
      !!c.started,
      (c as { resources?: unknown }).resources ?? null,
    ]);
  const conds = (s.conditions ?? [])
    .filter((c) => KUBELET_CONDITIONS.includes(c.type))
    .map((c) => [c.type, c.status, c.reason ?? '', c.message ?? ''])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return JSON.stringify([
    s.observedGeneration ?? null,
    s.phase ?? '',
    s.hostIP ?? '',
    s.podIP ?? '',
    (s.podIPs ?? []).map((x) => x.ip),
    s.startTime ?? '',
    cs(s.initContainerStatuses),
    cs(s.containerStatuses),
    conds,
  ]);
}
