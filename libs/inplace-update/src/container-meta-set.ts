/**
 * What the node daemon reports in `apps.kruise.io/runtime-containers-meta` and which containers it restarts for an
 * env-from-metadata in-place update (upstream `pkg/daemon/containermeta/container_meta_controller.go`,
 * `manageContainerMetaSet`). Pure: the node agent's `containermeta` duty (libs/image-puller, containers read through
 * CRI) and the node simulator (its own runtime) both call it (docs/adr/0084).
 *
 * - one entry per created container of the pod's spec, in observed order; an entry is kept as long as its container
 *   ID is the same (it keeps the hashes that instance was started with); a new ID gets a new entry with the
 *   instance's restart count and the kubelet's hash of it (`plainHash`);
 * - `extractedEnvFromMetadataHash` is computed once for a running container from the env it runs with (upstream:
 *   `env` exec'ed in it) and then kept;
 * - a container is restarted only while the pod's `InPlaceUpdateReady` condition is False, when it runs, its hash is
 *   set and differs from the hash of the pod's current labels/annotations.
 */
import type { Container, Pod } from '@regatta/lifecycle';
import { deepHashJsonBytes, goJson } from '@regatta/revision';
import { envFromMetadataHash, metadataEnvs } from './container-meta.js';
import { INPLACE_UPDATE_READY } from './keys.js';
import type { RuntimeContainerMeta } from './runtime-meta.js';

/** One created container instance as the node shows it. */
export interface ObservedContainer {
  name: string;
  /** `<runtime>://<id>`, as the pod status shows it. */
  containerID: string;
  restartCount: number;
  running: boolean;
  /** The kubelet's hash of the container it created (`io.kubernetes.container.hash`); 0 where unknown. */
  plainHash: number;
  /** The env the instance runs with, by name, once read (only the metadata envs are looked at). */
  env?: Readonly<Record<string, string>>;
}

export interface ContainerMetaSetPlan {
  /** What the daemon reports. */
  meta: RuntimeContainerMeta[];
  /** Containers to restart now (their env from metadata is outdated). */
  restart: string[];
  /** Running containers whose env hash could not be computed (their env was not read): look again soon. */
  unread: string[];
}

/**
 * The kubelet's `HashContainer` (kubernetes `pkg/kubelet/container/helpers.go`, v1.32 and later): fnv32a over the
 * JSON of the container's name and image only, the way `DeepHashObject` prints a byte slice.
 */
export function kubeletContainerHash(c: { name: string; image?: string | undefined }): number {
  return deepHashJsonBytes(goJson({ image: c.image ?? '', name: c.name }));
}

/** `GetCurrentHash`: `envFromMetadataHash` of the values the container runs with (by env name). */
export function runningEnvFromMetadataHash(c: Container, env: Readonly<Record<string, string>>): number {
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  for (const e of metadataEnvs(c))
    (e.path === 'metadata.labels' ? labels : annotations)[e.key] = env[e.name] ?? '';
  return envFromMetadataHash(c, { labels, annotations });
}

const keptEntry = (previous: readonly RuntimeContainerMeta[] | undefined, id: string) =>
  (previous ?? []).filter((m) => m.containerID === id).pop();

/** The running containers whose env the daemon has to read before planning (no hash kept for that instance). */
export function containersNeedingEnv(
  pod: Pod,
  observed: readonly ObservedContainer[],
  previous: readonly RuntimeContainerMeta[] | undefined,
): string[] {
  const specs = new Set((pod.spec?.containers ?? []).map((c) => c.name));
  return observed
    .filter(
      (o) =>
        o.running &&
        o.containerID !== '' &&
        specs.has(o.name) &&
        !keptEntry(previous, o.containerID)?.hashes.extractedEnvFromMetadataHash,
    )
    .map((o) => o.name);
}

/** `manageContainerMetaSet`: the meta of the pod's created containers, and the containers to restart. */
export function planContainerMetaSet(
  pod: Pod,
  observed: readonly ObservedContainer[],
  previous: readonly RuntimeContainerMeta[] | undefined,
  envFromMetadata: boolean,
): ContainerMetaSetPlan {
  const meta: RuntimeContainerMeta[] = [];
  const restart: string[] = [];
  const unread: string[] = [];
  const updating = (pod.status?.conditions ?? []).some(
    (c) => c.type === INPLACE_UPDATE_READY && c.status === 'False',
  );
  for (const o of observed) {
    const spec = (pod.spec?.containers ?? []).find((s) => s.name === o.name);
    if (!spec || o.containerID === '') continue;
    const kept = keptEntry(previous, o.containerID);
    const entry: RuntimeContainerMeta = kept
      ? { ...kept, hashes: { ...kept.hashes } }
      : {
          name: o.name,
          containerID: o.containerID,
          restartCount: o.restartCount,
          hashes: { plainHash: o.plainHash },
        };
    if (envFromMetadata) {
      if (!entry.hashes.extractedEnvFromMetadataHash && o.running) {
        if (o.env) entry.hashes.extractedEnvFromMetadataHash = runningEnvFromMetadataHash(spec, o.env);
        else unread.push(o.name);
      }
      const reported = entry.hashes.extractedEnvFromMetadataHash ?? 0;
      if (updating && o.running && reported > 0 && reported !== envFromMetadataHash(spec, pod.metadata ?? {}))
        restart.push(o.name);
    }
    meta.push(entry);
  }
  return { meta, restart, unread };
}

/** Parses `env`'s output (`NAME=value` lines) into a map; a value may hold `=`, a line without one is skipped. */
export function parseEnvOutput(stdout: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) env[line.slice(0, i)] = line.slice(i + 1);
  }
  return env;
}
