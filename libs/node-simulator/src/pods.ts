// The kubelet's pod loop for the simulated nodes: watch the pods bound to them, run their containers
// (runtime.ts), write what a kubelet reports (pod-status.ts) to the status subresource, stop and delete
// pods that are being deleted.
//
// One cluster-wide watch of bound pods (fieldSelector spec.nodeName!=), filtered by node name, rather than
// one watch per node (what a real kubelet does): a simulator usually owns every node of its cluster, and one
// connection, one list and one 30 s inactivity reconnect serve any number of nodes. Several simulators sharing a
// cluster each see all bound pods and ignore the ones not on their own nodes.
import { CriStatusError, GrpcStatus, type ContainerStatus } from '@regatta/cri';
import type { InvolvedObject } from '@regatta/kube';
import { RUNTIME_CONTAINERS_META_KEY } from '@regatta/inplace-update';
import { hostPortConflict, isRejected, rejectedStatus } from './admission.js';
import { configMapNamesOf } from './config-env.js';
import { runContainerMetaDaemon } from './container-meta.js';
import { CriStops } from './cri-stops.js';
import type { EventRecorder } from './events.js';
import type { Faults } from './faults.js';
import type { ImageService } from './images.js';
import { Informer } from './informer.js';
import { isConflict, isNotFound, podPath, type KubeClient } from './kube-client.js';
import type { NodeManager } from './nodes.js';
import type { KruiseDaemonGates, SimulatorTimings } from './options.js';
import { desiredPodStatus, rfc3339, statusFingerprint } from './pod-status.js';
import { PodIps } from './pod-ips.js';
import { PodResizes } from './pod-resizes.js';
import { KeyedQueue } from './queue.js';
import { advance, nextDeadline } from './runtime.js';
import { criContainersOfPod } from './runtime-cri.js';
import { newPodRuntime, type PodRuntime, type RuntimeEnv } from './runtime-state.js';
import type { ObjectMeta, Pod } from './types.js';

interface ConfigMap {
  metadata: ObjectMeta;
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

/** Pods synced (status written) concurrently by one simulator. */
const QUEUE_CONCURRENCY = 8;

const keyOf = (p: Pod) => `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;

/** The pod an event is about. */
const podRef = (pod: Pod, uid: string): InvolvedObject => ({
  kind: 'Pod',
  apiVersion: 'v1',
  namespace: pod.metadata.namespace,
  name: pod.metadata.name ?? '',
  uid,
});

/** Resource versions are opaque, but etcd-backed ones are increasing integers; newer wins, else the informer's. */
function newer(a: Pod | undefined, b: Pod | undefined): Pod | undefined {
  if (!a) return b;
  if (!b) return a;
  try {
    return BigInt(a.metadata.resourceVersion ?? '0') >= BigInt(b.metadata.resourceVersion ?? '0') ? a : b;
  } catch {
    return a;
  }
}

export class PodManager {
  private readonly informer: Informer<Pod>;
  /** ConfigMaps for env `valueFrom.configMapKeyRef` (config-env.ts); a change wakes the pods that read it. */
  private readonly configMaps: Informer<ConfigMap>;
  private readonly queue: KeyedQueue;
  private readonly runtimes = new Map<string, PodRuntime>();
  /** Each pod's resize: what its node allocated to its containers, and a resize that waits (pod-resizes.ts). */
  private readonly resizes = new PodResizes({
    pods: () => this.informer.list(),
    running: (uid) => this.runtimes.get(uid)?.terminal === false,
    allocatable: (node) => this.nodes.allocatable(node),
  });
  private readonly keyUid = new Map<string, { uid: string; node: string }>();
  private readonly fromWrites = new Map<string, Pod>();
  private readonly written = new Map<string, { desired: string; returned: string }>();
  private readonly deleteIssued = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly ips = new PodIps((node) => this.nodes.addressing(node));
  private stopped = false;
  /** CRI StopContainer calls not applied yet and their callers (cri-stops.ts). */
  private readonly criStops = new CriStops();

  constructor(
    private readonly client: KubeClient,
    private readonly nodes: NodeManager,
    private readonly o: {
      timings: SimulatorTimings;
      kruiseDaemon: KruiseDaemonGates;
      faults: Faults;
      images: ImageService;
      events: EventRecorder;
      log: (line: string) => void;
    },
  ) {
    this.queue = new KeyedQueue(
      (key) => this.sync(key),
      QUEUE_CONCURRENCY,
      (key, err, attempt) => {
        if (!this.stopped && (attempt <= 3 || attempt % 20 === 0)) {
          o.log(`pod ${key}: sync failed (attempt ${attempt}): ${String((err as Error).message ?? err)}`);
        }
      },
    );
    this.informer = new Informer<Pod>(
      client,
      '/api/v1/pods',
      {
        upsert: (p) => {
          if (this.nodes.owns(p.spec?.nodeName)) this.queue.add(keyOf(p));
        },
        remove: (p) => {
          if (this.nodes.owns(p.spec?.nodeName)) this.forget(keyOf(p));
        },
      },
      o.log,
      { fieldSelector: 'spec.nodeName!=' },
    );
    const wake = (cm: ConfigMap) => {
      const ns = cm.metadata.namespace;
      const name = cm.metadata.name ?? '';
      for (const p of this.informer.list(ns)) {
        if (!this.nodes.owns(p.spec?.nodeName)) continue;
        const containers = [...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])];
        if (configMapNamesOf(containers).has(name)) this.queue.add(keyOf(p));
      }
    };
    this.configMaps = new Informer<ConfigMap>(
      client,
      '/api/v1/configmaps',
      { upsert: wake, remove: wake },
      o.log,
    );
    nodes.onReadinessChange((node) => {
      for (const p of this.informer.list()) if (p.spec?.nodeName === node) this.queue.add(keyOf(p));
    });
  }

  async start(): Promise<void> {
    await this.configMaps.start();
    await this.informer.start();
  }

  private current(key: string): Pod | undefined {
    const [ns, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const cached = this.informer.get(name, ns);
    if (!cached) return undefined;
    const written = this.fromWrites.get(key);
    if (written && written.metadata.uid !== cached.metadata.uid) {
      this.fromWrites.delete(key);
      return cached;
    }
    return newer(written, cached);
  }

  private dropRuntime(uid: string, node: string): void {
    const rt = this.runtimes.get(uid);
    if (rt) this.ips.release(node, rt.podIP);
    this.runtimes.delete(uid);
    this.resizes.forget(uid);
    this.criStops.wake(uid, undefined);
    this.written.delete(uid);
    this.deleteIssued.delete(uid);
  }

  private forget(key: string): void {
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
    this.fromWrites.delete(key);
    const known = this.keyUid.get(key);
    if (known) this.dropRuntime(known.uid, known.node);
    this.keyUid.delete(key);
  }

  private schedule(key: string, at: number | null): void {
    const old = this.timers.get(key);
    if (old) clearTimeout(old);
    this.timers.delete(key);
    if (at === null || this.stopped) return;
    const t = setTimeout(
      () => {
        this.timers.delete(key);
        this.queue.add(key);
      },
      Math.max(0, at - Date.now()) + 2,
    );
    t.unref();
    this.timers.set(key, t);
  }

  private env(node: string, now: number): RuntimeEnv {
    return {
      now,
      timings: this.o.timings,
      faults: this.o.faults.check,
      hasImage: (image) => this.o.images.hasImage(node, image),
      configMapData: (namespace, name) => {
        const cm = this.configMaps.get(name, namespace);
        return cm ? { ...(cm.binaryData ?? {}), ...(cm.data ?? {}) } : undefined;
      },
    };
  }

  private async sync(key: string): Promise<void> {
    if (this.stopped) return;
    const pod = this.current(key);
    if (!pod) {
      this.forget(key);
      return;
    }
    const node = pod.spec?.nodeName;
    const uid = pod.metadata.uid;
    if (!node || !uid || !this.nodes.owns(node)) return;
    const known = this.keyUid.get(key);
    if (known && known.uid !== uid) this.dropRuntime(known.uid, known.node);
    this.keyUid.set(key, { uid, node });

    if (this.nodes.isDown(node)) {
      await this.markNotReady(key, pod);
      return;
    }
    if (!this.runtimes.has(uid) && (await this.admit(key, pod, node))) return;
    const now = Date.now();
    const env = this.env(node, now);
    let rt = this.runtimes.get(uid);
    rt ??= newPodRuntime(pod, this.ips.assign(pod, node), env);
    const stops = this.criStops.take(uid);
    // an in-place resize (pods/resize): actuated, deferred or infeasible; RestartContainer containers restart
    const resize = this.resizes.sync(pod, uid, node, rt.terminal || rt.deletion !== null);
    const restartMessage = new Map([...(stops?.keys() ?? [])].map((n) => [n, '']));
    for (const n of resize.restart) restartMessage.set(n, `Container ${n} resize requires restart`);
    const kubelet = advance(
      pod,
      rt,
      restartMessage.size > 0
        ? {
            ...env,
            restart: new Set(restartMessage.keys()),
            ...(stops ? { restartGraceMs: stops } : {}),
            restartMessage,
          }
        : env,
    );
    // kruise-daemon's container meta controller: may kill containers whose env from metadata is outdated
    const daemon = runContainerMetaDaemon(pod, kubelet.runtime, env, this.o.kruiseDaemon);
    const runtime = daemon.runtime;
    this.runtimes.set(uid, runtime);
    this.criStops.wake(uid, runtime);
    for (const e of [...kubelet.effects, ...daemon.effects]) {
      if (e.kind === 'imagePresent') this.o.images.record(node, e.image, now);
      else {
        this.o.events.emit(
          node,
          { ...podRef(pod, uid), fieldPath: e.fieldPath },
          e.type,
          e.reason,
          e.message,
        );
      }
    }

    const desired = desiredPodStatus(pod, runtime, now, resize.state);
    const fpDesired = statusFingerprint(desired);
    const fpCurrent = statusFingerprint(pod.status);
    const w = this.written.get(uid);
    const upToDate =
      fpCurrent === fpDesired || (w !== undefined && w.desired === fpDesired && w.returned === fpCurrent);
    if (!upToDate || daemon.annotation !== undefined) {
      // pods/status takes label and annotation changes too: the daemon's annotation rides along
      const annotations =
        daemon.annotation === undefined
          ? {}
          : { annotations: { [RUNTIME_CONTAINERS_META_KEY]: daemon.annotation } };
      const ok = await this.writeStatus(
        key,
        pod,
        { metadata: { uid, resourceVersion: pod.metadata.resourceVersion, ...annotations }, status: desired },
        fpDesired,
      );
      if (!ok) return;
      if (!upToDate) runtime.reportedAt = now;
    }
    if (runtime.deletion && runtime.terminal) await this.completeDeletion(pod);
    const still = this.informer.get(pod.metadata.name ?? '', pod.metadata.namespace);
    if (!still || still.metadata.uid !== uid) {
      this.forget(key); // deleted while this sync was writing
      if (still) this.queue.add(key);
      return;
    }
    // a deferred resize is tried again (the kubelet retries when the node's pods change)
    const deadline = nextDeadline(runtime, now);
    const retry = this.resizes.retryAt(resize.state, now);
    this.schedule(key, deadline === null ? retry : retry === null ? deadline : Math.min(deadline, retry));
  }

  /**
   * kubelet admission of a pod it does not run yet (src/admission.ts). True when the pod is rejected (now or
   * before): it never runs, and once deleted its deletion is completed at once (no container to stop).
   */
  private async admit(key: string, pod: Pod, node: string): Promise<boolean> {
    if (isRejected(pod)) {
      if (pod.metadata.deletionTimestamp) await this.completeDeletion(pod);
      return true;
    }
    // a pod already started (a restarted simulator adopting it) was admitted before
    if (pod.status?.containerStatuses?.length) return false;
    const admitted = this.informer
      .list()
      .filter(
        (p) => p.spec?.nodeName === node && this.runtimes.get(p.metadata.uid ?? '')?.terminal === false,
      );
    if (!hostPortConflict(pod, admitted)) return false;
    const status = rejectedStatus();
    const uid = pod.metadata.uid ?? '';
    this.o.events.emit(node, podRef(pod, uid), 'Warning', status.reason ?? '', status.message ?? '');
    await this.writeStatus(
      key,
      pod,
      { metadata: { uid, resourceVersion: pod.metadata.resourceVersion }, status },
      null,
    );
    return true;
  }

  private async completeDeletion(pod: Pod): Promise<void> {
    const uid = pod.metadata.uid ?? '';
    if (this.deleteIssued.has(uid)) return;
    this.deleteIssued.add(uid);
    try {
      await this.client.delete(podPath(pod.metadata.namespace ?? '', pod.metadata.name ?? ''), {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        gracePeriodSeconds: 0,
        preconditions: { uid },
      });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) {
        this.deleteIssued.delete(uid);
        throw err;
      }
    }
  }

  /** Merge-patches the status subresource with a resourceVersion + UID precondition. False: re-sync queued. */
  private async writeStatus(
    key: string,
    pod: Pod,
    patch: unknown,
    fpDesired: string | null,
  ): Promise<boolean> {
    const uid = pod.metadata.uid ?? '';
    const path = podPath(pod.metadata.namespace ?? '', pod.metadata.name ?? '');
    try {
      const updated = await this.client.patch<Pod>(`${path}/status`, patch, 'merge');
      if (fpDesired !== null)
        this.written.set(uid, { desired: fpDesired, returned: statusFingerprint(updated.status) });
      this.fromWrites.set(key, updated);
      return true;
    } catch (err) {
      if (isNotFound(err)) {
        this.forget(key);
        return false;
      }
      if (isConflict(err)) {
        // someone else wrote the pod (a controller flipped a condition…): read it and compute again
        try {
          const fresh = await this.client.get<Pod>(path);
          if (fresh.metadata.uid === uid) this.fromWrites.set(key, fresh);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        this.queue.add(key);
        return false;
      }
      throw err;
    }
  }

  /** The node is down: its kubelet does nothing; like the node lifecycle controller, mark the pods not Ready. */
  private async markNotReady(key: string, pod: Pod): Promise<void> {
    this.schedule(key, null);
    const conds = pod.status?.conditions ?? [];
    const ready = conds.find((c) => c.type === 'Ready');
    if (!ready || ready.status === 'False') return;
    const now = Date.now();
    const conditions = conds.map((c) =>
      c.type === 'Ready'
        ? {
            ...c,
            status: 'False',
            reason: 'NodeNotReady',
            message: 'node is not ready',
            lastTransitionTime: rfc3339(now),
          }
        : c,
    );
    await this.writeStatus(
      key,
      pod,
      {
        metadata: { uid: pod.metadata.uid, resourceVersion: pod.metadata.resourceVersion },
        status: { conditions },
      },
      null,
    );
  }

  /** CRI ListContainers of a node: every container instance of the pods it runs. */
  criContainers(node: string): ContainerStatus[] {
    const out: ContainerStatus[] = [];
    for (const p of this.informer.list()) {
      if (p.spec?.nodeName !== node) continue;
      const rt = this.runtimes.get(p.metadata.uid ?? '');
      if (rt) out.push(...criContainersOfPod(p, rt));
    }
    return out;
  }

  /**
   * CRI StopContainer on a node: the container is stopped as the kubelet stops one (its preStop hook, SIGTERM,
   * SIGKILL after `graceSeconds`) and, as with any exit, restarted per the pod's restartPolicy. Resolves once it
   * has stopped; an unknown id answers NOT_FOUND, an already stopped one resolves at once.
   */
  async stopCriContainer(node: string, id: string, graceSeconds: number): Promise<void> {
    for (const p of this.informer.list()) {
      if (p.spec?.nodeName !== node) continue;
      const uid = p.metadata.uid ?? '';
      const rt = this.runtimes.get(uid);
      if (!rt) continue;
      if (!criContainersOfPod(p, rt).some((c) => c.id === id)) continue;
      const done = this.criStops.request(uid, rt, id, graceSeconds);
      if (!done) return; // exited already
      this.queue.add(keyOf(p));
      return done;
    }
    throw new CriStatusError(GrpcStatus.NOT_FOUND, `container "${id}" not found on node ${node}`);
  }

  /** Pods of this simulator's nodes (from the watch cache). */
  pods(): Pod[] {
    return this.informer.list().filter((p) => this.nodes.owns(p.spec?.nodeName));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.criStops.stop();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.informer.stop();
    await this.configMaps.stop();
    await this.queue.stop();
  }
}
