// The node simulator: a kubelet (and container runtime, and volume provisioner) as far as the API server can tell,
// for the nodes it registers.
import { nodeAddressing } from './addressing.js';
import { EventRecorder } from './events.js';
import { Faults } from './faults.js';
import { ImageService } from './images.js';
import { KubeClient } from './kube-client.js';
import type { NodeSpec } from './node-object.js';
import { NodeManager, newBootId } from './nodes.js';
import {
  DEFAULT_KRUISE_DAEMON,
  DEFAULT_TIMINGS,
  DEFAULT_ZONES,
  type NodeSimulatorOptions,
  type SimulatorFaults,
  type SimulatorTimings,
} from './options.js';
import { PodManager } from './pods.js';
import type { Pod } from './types.js';
import { VolumeProvisioner } from './volumes.js';

export const DEFAULT_CAPACITY = { cpu: '8', memory: '32Gi', pods: '110' };

export function nodeNamesFor(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
}

export class NodeSimulator {
  /** `${namePrefix}1` … `${namePrefix}N`. */
  readonly nodeNames: string[];
  readonly timings: SimulatorTimings;
  /** Per-node image service (pull, list, remove); node.status.images follows it. */
  readonly images: ImageService;
  private readonly faultSwitches: Faults;
  private nodes: NodeManager | undefined;
  private podManager: PodManager | undefined;
  private volumes: VolumeProvisioner | undefined;
  private events: EventRecorder | undefined;
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly options: NodeSimulatorOptions,
    private readonly log: (line: string) => void,
  ) {
    const prefix = options.namePrefix ?? 'node';
    if (!Number.isInteger(options.nodes) || options.nodes < 0)
      throw new Error(`nodes must be a non-negative integer, got ${options.nodes}`);
    this.nodeNames = nodeNamesFor(prefix, options.nodes);
    this.timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.faultSwitches = new Faults(options.faults);
    this.images = new ImageService(this.nodeNames, this.faultSwitches, () => this.timings.imagePullMs);
  }

  /** Registers (or adopts) the nodes, starts heartbeats, the pod loop and the volume provisioner. */
  static async start(options: NodeSimulatorOptions): Promise<NodeSimulator> {
    const log = options.log ?? (() => undefined);
    const sim = new NodeSimulator(options, log);
    try {
      await sim.run();
    } catch (err) {
      await sim.stop().catch(() => undefined);
      throw err;
    }
    return sim;
  }

  private async run(): Promise<void> {
    const o = this.options;
    const prefix = o.namePrefix ?? 'node';
    const zones = o.zones?.length ? o.zones : DEFAULT_ZONES;
    const client = new KubeClient(o.kubeconfig);
    let kubeletVersion = 'v0.0.0';
    try {
      kubeletVersion = (await client.get<{ gitVersion?: string }>('/version')).gitVersion ?? kubeletVersion;
    } catch (err) {
      this.log(`could not read the API server version: ${String((err as Error).message ?? err)}`);
    }
    const bootID = newBootId();
    const specs: NodeSpec[] = this.nodeNames.map((name, i) => ({
      name,
      index: i + 1,
      prefix,
      zone: zones[i % zones.length] ?? 'zone-a',
      labels: { ...o.labels },
      capacity: { ...DEFAULT_CAPACITY, ...o.capacity },
      taints: (o.taints ?? []).map((t) => ({ ...t })),
      addressing: nodeAddressing(prefix, i + 1),
      kubeletVersion,
      bootID,
    }));
    this.events = new EventRecorder(client, o.events ?? true, this.log);
    const common = { faults: this.faultSwitches, images: this.images, events: this.events, log: this.log };
    this.nodes = new NodeManager(client, specs, { ...common, heartbeatMs: this.timings.heartbeatMs });
    const storageClass = o.storageClass ?? 'standard';
    if (storageClass) {
      this.volumes = new VolumeProvisioner(client, storageClass, o.defaultStorageClass ?? true, this.log);
      await this.volumes.start();
    }
    await this.nodes.register();
    this.podManager = new PodManager(client, this.nodes, {
      ...common,
      timings: this.timings,
      kruiseDaemon: { ...DEFAULT_KRUISE_DAEMON, ...o.kruiseDaemon },
    });
    await this.podManager.start();
    this.nodes.startHeartbeat();
    this.log(
      `node simulator up: ${this.nodeNames.length} nodes (${this.nodeNames[0] ?? '-'}…), zones ${zones.join(',')}`,
    );
  }

  /** Changes fault switches while running; omitted fields keep their value. */
  setFaults(partial: Partial<SimulatorFaults>): void {
    this.faultSwitches.set(partial);
  }

  get faults(): SimulatorFaults {
    return this.faultSwitches.value;
  }

  ownsNode(name: string): boolean {
    return this.nodeNames.includes(name);
  }

  /** The pods bound to this simulator's nodes, as last seen. */
  pods(): Pod[] {
    return this.podManager?.pods() ?? [];
  }

  /** Stops everything; nodes stay registered (and go stale) unless `removeNodesOnStop`. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.podManager?.stop();
      await this.volumes?.stop();
      await this.nodes?.stop(this.options.removeNodesOnStop ?? false);
      await this.events?.stop();
    })();
    return this.stopping;
  }
}
