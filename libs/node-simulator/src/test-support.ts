// Helpers for the unit tests of the pure parts (not exported from the package).
import { RUNTIME_CONTAINERS_META_KEY } from '@regatta/inplace-update';
import { runContainerMetaDaemon } from './container-meta.js';
import { faultView, mergeFaults, NO_FAULTS } from './faults.js';
import { normalizeImage } from './image-ref.js';
import type { KruiseDaemonGates, SimulatorFaults, SimulatorTimings } from './options.js';
import { desiredPodStatus } from './pod-status.js';
import { advance } from './runtime.js';
import { newPodRuntime, type Effect, type PodRuntime } from './runtime-state.js';
import type { Pod, PodStatus } from './types.js';

export const T0 = Date.parse('2026-01-01T00:00:00Z');

export const TIMINGS: SimulatorTimings = {
  podStartMs: 1000,
  containerRestartMs: 500,
  imagePullMs: 300,
  podStopMs: 200,
  heartbeatMs: 10_000,
  initContainerMs: 100,
  crashRunMs: 300,
  crashBackoffMs: 1000,
  imagePullBackoffMs: 1000,
  plegRelistMs: 1000,
};

export function pod(spec: Pod['spec'], meta: Partial<Pod['metadata']> = {}): Pod {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'uid-1', generation: 1, ...meta },
    spec: { nodeName: 'node1', restartPolicy: 'Always', ...spec },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] },
  };
}

/** Drives one pod through time like the pod loop does, feeding each status back into the pod. */
export class PodSim {
  rt: PodRuntime | undefined;
  readonly images = new Set<string>();
  readonly effects: Effect[] = [];
  faults: SimulatorFaults;
  /** When set, kruise-daemon's container meta controller runs after the kubelet, as in the pod loop. */
  daemon: KruiseDaemonGates | undefined;
  /** When set, the ConfigMaps the node reads (`namespace/name` → data) for env `configMapKeyRef`. */
  configMaps: Map<string, Record<string, string>> | undefined;

  constructor(
    public pod: Pod,
    faults: Partial<SimulatorFaults> = {},
    public timings: SimulatorTimings = TIMINGS,
  ) {
    this.faults = mergeFaults(NO_FAULTS, faults);
  }

  /** CRI StopContainer calls to apply at the next `at` (container name → grace period in ms), as the pod loop does. */
  readonly criStops = new Map<string, number>();

  at(offsetMs: number): PodStatus {
    const now = T0 + offsetMs;
    const stops = this.criStops.size
      ? {
          restart: new Set(this.criStops.keys()),
          restartGraceMs: new Map(this.criStops),
          restartMessage: new Map([...this.criStops.keys()].map((n) => [n, ''])),
        }
      : {};
    this.criStops.clear();
    const env = {
      ...stops,
      now,
      timings: this.timings,
      faults: faultView(this.faults),
      hasImage: (i: string) => this.images.has(normalizeImage(i)),
      ...(this.configMaps
        ? { configMapData: (ns: string, name: string) => this.configMaps?.get(`${ns}/${name}`) }
        : {}),
    };
    this.rt ??= newPodRuntime(this.pod, { podIP: '10.244.1.2', hostIP: '172.18.0.1' }, env);
    const kubelet = advance(this.pod, this.rt, env);
    const daemon = this.daemon
      ? runContainerMetaDaemon(this.pod, kubelet.runtime, env, this.daemon)
      : { runtime: kubelet.runtime, effects: [], annotation: undefined };
    const runtime = daemon.runtime;
    this.rt = runtime;
    const effects = [...kubelet.effects, ...daemon.effects];
    for (const e of effects) if (e.kind === 'imagePresent') this.images.add(normalizeImage(e.image));
    this.effects.push(...effects);
    const status = desiredPodStatus(this.pod, runtime, now);
    this.pod = { ...this.pod, status };
    if (daemon.annotation !== undefined)
      this.setMetadata({ annotations: { [RUNTIME_CONTAINERS_META_KEY]: daemon.annotation } });
    return status;
  }

  /** Merges labels/annotations into the pod's metadata (what a controller's patch does). */
  setMetadata(m: { labels?: Record<string, string>; annotations?: Record<string, string> }): void {
    const meta = this.pod.metadata;
    this.pod = {
      ...this.pod,
      metadata: {
        ...meta,
        labels: { ...meta.labels, ...m.labels },
        annotations: { ...meta.annotations, ...m.annotations },
      },
    };
  }

  /** Sets (or adds) a pod condition another writer owns. */
  setCondition(type: string, status: string): void {
    const conditions = (this.pod.status?.conditions ?? []).filter((c) => c.type !== type);
    this.pod = { ...this.pod, status: { ...this.pod.status, conditions: [...conditions, { type, status }] } };
  }

  setImage(container: string, image: string): void {
    const spec = structuredClone(this.pod.spec ?? {});
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])])
      if (c.name === container) c.image = image;
    this.pod = { ...this.pod, spec };
  }

  events(reason?: string): string[] {
    return this.effects.flatMap((e) =>
      e.kind === 'event' && (!reason || e.reason === reason) ? [`${e.reason}: ${e.message}`] : [],
    );
  }
}

export const cond = (st: PodStatus, type: string) => st.conditions?.find((c) => c.type === type);
export const cs = (st: PodStatus, name: string) => st.containerStatuses?.find((c) => c.name === name);
export const ics = (st: PodStatus, name: string) => st.initContainerStatuses?.find((c) => c.name === name);
