// kruise-daemon's container meta controller (pkg/daemon/containermeta upstream), played by the simulated node (on a
// real node the node agent's `containermeta` duty does it through CRI; both plan with libs/inplace-update's
// `planContainerMetaSet`, docs/adr/0084): it
// reports what runs in each container in annotation `apps.kruise.io/runtime-containers-meta` and, for in-place
// updates of env from labels/annotations, kills the containers that run with outdated values so that they restart
// with the new ones. Pure: the pod loop (pods.ts) applies the result.
//
// Upstream behaviour kept here:
// - only pods controlled by an `apps.kruise.io` workload or injected by a SidecarSet; never pods being deleted or
//   without any created container;
// - one entry per created regular container, in spec order; an entry is kept as long as its container ID is the
//   same (so it keeps the hash of what that container was started with); a new container ID gets a new entry with
//   the instance's restart count;
// - `extractedEnvFromMetadataHash` is computed for a running container (upstream: `env` exec'ed in it) and stays;
//   containers without label/annotation envs get the hash of an empty env list, so every running container has one;
// - a container is killed only while the pod's `InPlaceUpdateReady` condition is False, when it runs and its
//   reported hash is set and differs from the hash of the pod's current labels/annotations — whatever
//   `inplace-update-state` says;
// - the annotation is written only when its content changed.
import {
  envFromMetadataHash,
  formatRuntimeContainersMeta,
  planContainerMetaSet,
  readRuntimeContainersMeta,
  type ObservedContainer,
  type RuntimeContainerMeta,
} from '@regatta/inplace-update';
import { metadataEnvRefs } from './downward-env.js';
import type { KruiseDaemonGates } from './options.js';
import { advance } from './runtime.js';
import type { ContainerRuntime, Effect, PodRuntime, RuntimeEnv } from './runtime-state.js';
import type { Container, ObjectMeta, Pod } from './types.js';

/** Annotation of pods injected by a SidecarSet (`sidecarcontrol.SidecarSetHashAnnotation`). */
export const SIDECARSET_HASH_ANNOTATION = 'kruise.io/sidecarset-hash';
/** API group of the workloads whose pods the daemon watches. */
export const KRUISE_APPS_GROUP = 'apps.kruise.io';
/** `plainHash` reported for every container: the kubelet's container hash cannot be computed outside the kubelet. */
export const PLAIN_HASH = 0;

/** Is the pod one the daemon acts on: controlled by an `apps.kruise.io` workload, or injected by a SidecarSet? */
export function watchedByKruiseDaemon(pod: Pod): boolean {
  const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller === true);
  const group = owner && owner.apiVersion.includes('/') ? owner.apiVersion.split('/')[0] : '';
  return group === KRUISE_APPS_GROUP || pod.metadata.annotations?.[SIDECARSET_HASH_ANNOTATION] !== undefined;
}

/** The container in the shape `@regatta/inplace-update` reads (name and env only). */
const envContainer = (c: Container) => ({ name: c.name, env: c.env ?? null });

/** `GetExpectHash`: the env-from-metadata hash the container would get from the pod's current metadata. */
export function expectedEnvHash(c: Container, meta: Pick<ObjectMeta, 'labels' | 'annotations'>): number {
  return envFromMetadataHash(envContainer(c), { labels: meta.labels, annotations: meta.annotations });
}

/** `GetCurrentHash`: the same hash, of the values a container instance was started with (by env name). */
export function startedEnvHash(c: Container, metadataEnv: Readonly<Record<string, string>>): number {
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  for (const r of metadataEnvRefs(c))
    (r.path === 'metadata.labels' ? labels : annotations)[r.key] = metadataEnv[r.name] ?? '';
  return envFromMetadataHash(envContainer(c), { labels, annotations });
}

/** The meta the pod carries now; undefined when absent or unreadable (upstream logs it and reports afresh). */
export function reportedContainersMeta(pod: Pod): RuntimeContainerMeta[] | undefined {
  try {
    return readRuntimeContainersMeta({ metadata: { annotations: pod.metadata.annotations ?? {} } });
  } catch {
    return undefined;
  }
}

const isRunning = (c: ContainerRuntime) => c.state.kind === 'running' && !c.state.killed;

export interface ContainerMetaPlan {
  /** What the daemon reports. */
  meta: RuntimeContainerMeta[];
  /** Regular containers to kill now (their env from metadata is outdated). */
  restart: string[];
}

/**
 * `manageContainerMetaSet`: the meta of the pod's created containers, and the containers to restart — the node
 * agent's planner (libs/inplace-update `planContainerMetaSet`, docs/adr/0084) over the simulated runtime: a running
 * container's env is what it was started with, its kubelet hash is `PLAIN_HASH`.
 */
export function planContainerMeta(
  pod: Pod,
  runtime: PodRuntime,
  previous: readonly RuntimeContainerMeta[] | undefined,
  envFromMetadata: boolean,
): ContainerMetaPlan {
  const observed: ObservedContainer[] = runtime.containers.map((c) => ({
    name: c.name,
    containerID: c.containerID,
    restartCount: c.restartCount,
    running: isRunning(c),
    plainHash: PLAIN_HASH,
    ...(isRunning(c) ? { env: c.metadataEnv } : {}),
  }));
  const { meta, restart } = planContainerMetaSet(
    pod as Parameters<typeof planContainerMetaSet>[0],
    observed,
    previous,
    envFromMetadata,
  );
  return { meta, restart };
}

/** The annotation value to write, or undefined when the pod already reports the same meta. */
export function containersMetaToWrite(
  previous: readonly RuntimeContainerMeta[] | undefined,
  meta: readonly RuntimeContainerMeta[],
): string | undefined {
  const value = formatRuntimeContainersMeta(meta);
  return previous !== undefined && formatRuntimeContainersMeta(previous) === value ? undefined : value;
}

/**
 * One pass of the daemon over a pod whose runtime the kubelet just advanced to `env.now`: plans, kills the
 * containers to restart (the kubelet restarts them in the same pass when their image is present) and returns the
 * runtime after that, the kubelet's effects of the restart, and the annotation value to write (if any).
 */
export function runContainerMetaDaemon(
  pod: Pod,
  runtime: PodRuntime,
  env: RuntimeEnv,
  gates: KruiseDaemonGates,
): { runtime: PodRuntime; effects: Effect[]; annotation: string | undefined } {
  const idle = { runtime, effects: [], annotation: undefined };
  if (!gates.daemonWatchingPod || !watchedByKruiseDaemon(pod)) return idle;
  if (pod.metadata.deletionTimestamp || runtime.deletion || runtime.containers.every((c) => !c.containerID))
    return idle;
  const previous = reportedContainersMeta(pod);
  let plan = planContainerMeta(pod, runtime, previous, gates.inPlaceUpdateEnvFromMetadata);
  let effects: Effect[] = [];
  if (plan.restart.length > 0) {
    const after = advance(pod, runtime, { ...env, restart: new Set(plan.restart) });
    runtime = after.runtime;
    effects = after.effects;
    plan = planContainerMeta(pod, runtime, previous, gates.inPlaceUpdateEnvFromMetadata);
  }
  return { runtime, effects, annotation: containersMetaToWrite(previous, plan.meta) };
}
