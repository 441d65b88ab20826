/**
 * The node agent's container meta duty (upstream kruise-daemon `pkg/daemon/containermeta`): for each pod of its node
 * that an `apps.kruise.io` workload controls (or a SidecarSet injected), it reads the pod's containers through the
 * node's CRI RuntimeService, reports them in `apps.kruise.io/runtime-containers-meta` (container ID, restart count,
 * the kubelet's hash, the hash of the env from labels/annotations each runs with, read by `env` exec'ed in it) and,
 * while an in-place update that changed such an env is under way, stops the containers that run with outdated values
 * so that the kubelet starts them again with the new ones — a kubelet restarts a container for an image change, not
 * for a label behind an env. Pods come from the bus (the watcher's pod mirror, kept only for `spec.nodeName`); the
 * plan is `planContainerMetaSet` (libs/inplace-update, shared with the node simulator; docs/adr/0084).
 */
import { KINDS, type Pod } from '@regatta/api';
import { Cache, type Bus } from '@regatta/bus';
import { runPreStopHook, type PreStopCri } from '@regatta/containerrecreaterequest';
import {
  KUBERNETES_CONTAINER_NAME_LABEL,
  KUBERNETES_POD_UID_LABEL,
  type Container as CriContainer,
  type ExecSyncResponse,
} from '@regatta/cri';
import {
  containersNeedingEnv,
  formatRuntimeContainersMeta,
  parseEnvOutput,
  planContainerMetaSet,
  readRuntimeContainersMeta,
  RUNTIME_CONTAINERS_META_KEY,
  type ObservedContainer,
  type RuntimeContainerMeta,
} from '@regatta/inplace-update';
import { isConflict, isNotFound, type KubeClient } from '@regatta/kube';
import type { Pod as LifecyclePod } from '@regatta/lifecycle';
import { KeyedSyncs } from '@regatta/runtime';

/** The CRI calls the duty makes (libs/cri CriRuntimeClient). */
export interface ContainerMetaCri {
  listContainers(o?: {
    filter?: { labelSelector?: Record<string, string> };
    timeoutMs?: number;
  }): Promise<CriContainer[]>;
  execSync(
    id: string,
    cmd: string[],
    timeoutSeconds: number,
    o?: { timeoutMs?: number },
  ): Promise<ExecSyncResponse>;
  stopContainer(id: string, timeoutSeconds: number, o?: { timeoutMs?: number }): Promise<void>;
  /** For httpGet preStop hooks without a host (libs/containerrecreaterequest `PreStopCri`). */
  podSandboxIP?: PreStopCri['podSandboxIP'];
}

export interface ContainerMetaLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  debug(fields: object, msg: string): void;
}

export interface ContainerMetaDutyOptions {
  nodeName: string;
  bus: Bus;
  client: KubeClient;
  cri: ContainerMetaCri;
  log: ContainerMetaLogger;
  /** Gate `InPlaceUpdateEnvFromMetadata` (default true). */
  envFromMetadata?: boolean;
}

/** Annotation of pods injected by a SidecarSet (`sidecarcontrol.SidecarSetHashAnnotation`). */
const SIDECARSET_HASH_ANNOTATION = 'kruise.io/sidecarset-hash';
/** The kubelet's annotations on a container it creates (kubernetes `pkg/kubelet/kuberuntime/labels.go`). */
const CONTAINER_HASH_ANNOTATION = 'io.kubernetes.container.hash';
const RESTART_COUNT_ANNOTATION = 'io.kubernetes.container.restartCount';
/** Upstream `wrapEnvGetter`: `env` may run 3 s; a failed read is retried after 3 s. */
const ENV_EXEC_SECONDS = 3;
const RETRY_MS = 3000;
/** The kubelet's `minimumGracePeriodInSeconds`. */
const MIN_GRACE_SECONDS = 2;

/** Whether kruise-daemon acts on the pod: controlled by an `apps.kruise.io` workload, or injected by a SidecarSet. */
export function watchedByNodeDaemon(pod: Pod): boolean {
  const owner = (pod.metadata?.ownerReferences ?? []).find((o) => o.controller === true);
  const group = owner?.apiVersion.includes('/') ? owner.apiVersion.split('/')[0] : '';
  return group === 'apps.kruise.io' || pod.metadata?.annotations?.[SIDECARSET_HASH_ANNOTATION] !== undefined;
}

/**
 * The newest instance of each container of the pod among `list`, as the pod status names it (`<runtime>://<id>`,
 * the runtime taken from the status, containerd by default). Pure.
 */
export function observedContainers(pod: Pod, list: readonly CriContainer[]): ObservedContainer[] {
  const newest = new Map<string, CriContainer>();
  for (const c of list) {
    const name = c.labels?.[KUBERNETES_CONTAINER_NAME_LABEL] ?? c.metadata?.name ?? '';
    const had = newest.get(name);
    if (!had || Number(c.createdAt) >= Number(had.createdAt)) newest.set(name, c);
  }
  const prefix = (name: string) =>
    (pod.status?.containerStatuses ?? []).find((s) => s.name === name)?.containerID?.split('://')[0] ||
    'containerd';
  return [...newest.entries()].map(([name, c]) => {
    const restarts = Number(c.annotations?.[RESTART_COUNT_ANNOTATION]);
    const hash = parseInt(c.annotations?.[CONTAINER_HASH_ANNOTATION] ?? '', 16);
    return {
      name,
      containerID: `${prefix(name)}://${c.id}`,
      restartCount: Number.isFinite(restarts) ? restarts : (c.metadata?.attempt ?? 0),
      running: c.state === 'CONTAINER_RUNNING',
      plainHash: Number.isFinite(hash) ? hash : 0,
    };
  });
}

export class ContainerMetaDuty {
  readonly cache: Cache<Pod>;
  /** One sync per pod at a time; a change during a sync runs it again after. */
  private readonly syncs = new KeyedSyncs({
    sync: (key) => this.sync(key),
    onError: (err, key) => this.o.log.warn({ err, pod: key }, 'container meta sync failed; retrying'),
    retryMs: RETRY_MS,
  });
  /** Containers this duty is stopping (their IDs). */
  private readonly stopping = new Set<string>();

  constructor(private readonly o: ContainerMetaDutyOptions) {
    this.cache = new Cache<Pod>(o.bus, KINDS.pods, {
      keep: (p) => (p as Pod).spec?.nodeName === o.nodeName,
      onError: (err) => o.log.warn({ err }, 'pod cache'),
    });
    this.cache.onChange((change) => {
      const p = change.object as Pod;
      this.schedule(`${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`, 0);
    });
  }

  get hasSynced(): boolean {
    return this.cache.hasSynced;
  }

  async start(): Promise<void> {
    await this.cache.start();
    for (const p of this.cache.list())
      this.schedule(`${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`, 0);
  }

  async stop(): Promise<void> {
    await this.syncs.stop();
    await this.cache.stop();
  }

  private schedule(key: string, delayMs: number): void {
    this.syncs.schedule(key, delayMs);
  }

  /** One look at a pod; returns when to look again (undefined: on its next change). */
  private async sync(key: string): Promise<number | undefined> {
    const [namespace, name] = key.split('/') as [string, string];
    const pod = this.cache.get(namespace, name);
    if (!pod || pod.metadata?.deletionTimestamp || !watchedByNodeDaemon(pod)) return undefined;
    const uid = pod.metadata?.uid ?? '';
    const list = await this.o.cri.listContainers({
      filter: { labelSelector: { [KUBERNETES_POD_UID_LABEL]: uid } },
      timeoutMs: 10_000,
    });
    const observed = observedContainers(pod, list);
    if (observed.length === 0) return undefined;
    let previous: RuntimeContainerMeta[] | undefined;
    try {
      previous = readRuntimeContainersMeta(pod as LifecyclePod);
    } catch (err) {
      // as upstream: an unreadable annotation is reported afresh
      this.o.log.debug({ err, pod: key }, 'runtime-containers-meta unreadable; reporting afresh');
    }
    const lpod = pod as LifecyclePod;
    const envFromMetadata = this.o.envFromMetadata ?? true;
    if (envFromMetadata) {
      const need = new Set(containersNeedingEnv(lpod, observed, previous));
      for (const c of observed) {
        if (!need.has(c.name)) continue;
        const env = await this.readEnv(c.containerID, key, c.name);
        if (env) c.env = env;
      }
    }
    const plan = planContainerMetaSet(lpod, observed, previous, envFromMetadata);
    const value = formatRuntimeContainersMeta(plan.meta);
    if (previous === undefined || formatRuntimeContainersMeta(previous) !== value)
      await this.writeMeta(pod, value);
    const grace = Math.max(pod.spec?.terminationGracePeriodSeconds ?? 30, MIN_GRACE_SECONDS);
    for (const containerName of plan.restart) {
      const c = observed.find((x) => x.name === containerName);
      if (!c || this.stopping.has(c.containerID)) continue;
      this.stopping.add(c.containerID);
      this.o.log.info(
        { pod: key, container: containerName, containerID: c.containerID, grace },
        'restarting the container: its env from metadata is outdated',
      );
      // the preStop hook and the stop run beside the syncs (a grace period may be long); the kubelet starts the
      // container again
      const id = c.containerID.split('://')[1] ?? '';
      const spec = (pod.spec?.containers ?? []).find((x) => x.name === containerName);
      const podSandboxId = list.find((x) => x.id === id)?.podSandboxId;
      void runPreStopHook(this.o.cri, id, spec?.lifecycle?.preStop, grace, this.o.log, {
        ...(podSandboxId ? { podSandboxId } : {}),
        ...(spec?.ports ? { ports: spec.ports } : {}),
      })
        .then((left) => this.o.cri.stopContainer(id, left, { timeoutMs: (left + 30) * 1000 }))
        .catch((err: unknown) => this.o.log.warn({ err, pod: key, container: containerName }, 'stop failed'))
        .finally(() => {
          this.stopping.delete(c.containerID);
          this.schedule(key, 0);
        });
    }
    return plan.unread.length > 0 ? RETRY_MS : undefined;
  }

  /** `env` exec'ed in the container (upstream `wrapEnvGetter`); undefined when it cannot be read now. */
  private async readEnv(
    containerID: string,
    pod: string,
    container: string,
  ): Promise<Record<string, string> | undefined> {
    try {
      const res = await this.o.cri.execSync(containerID.split('://')[1] ?? '', ['env'], ENV_EXEC_SECONDS, {
        timeoutMs: (ENV_EXEC_SECONDS + 5) * 1000,
      });
      if (res.exitCode !== 0) throw new Error(`env exited with ${res.exitCode}: ${res.stderr.toString()}`);
      return parseEnvOutput(res.stdout.toString());
    } catch (err) {
      this.o.log.warn({ err, pod, container }, 'env of the container not read; retrying');
      return undefined;
    }
  }

  private async writeMeta(pod: Pod, value: string): Promise<void> {
    try {
      await this.o.client.patch(
        {
          apiVersion: 'v1',
          kind: 'Pod',
          namespace: pod.metadata?.namespace ?? '',
          name: pod.metadata?.name ?? '',
        },
        {
          metadata: {
            uid: pod.metadata?.uid,
            annotations: { [RUNTIME_CONTAINERS_META_KEY]: value },
          },
        },
        { type: 'merge' },
      );
    } catch (err) {
      // gone, or another pod of that name (the uid precondition): nothing to report for it
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }
}
