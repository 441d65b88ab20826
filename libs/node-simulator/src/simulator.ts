// The node simulator: a kubelet (and container runtime, and volume provisioner) as far as the API server can tell,
// for the nodes it registers.
import { nodeAddressing } from './addressing.js';
import { CriServers, criSocketPath } from './cri-server.js';
import { EventRecorder } from './events.js';
import { Faults } from './faults.js';
import { ImageService } from './images.js';
import { KubeClient, isNotFound, nodePath } from './kube-client.js';
import { adoptedNodeSpec } from './node-adoption.js';
import { simulatedNodeManifest, type NodeManifestOptions } from './node-manifest.js';
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
import type { Node, Pod } from './types.js';
import { VolumeProvisioner } from './volumes.js';

/** `addNode` gave up: the node was created but not run (and Ready) in time. */
export class NodeNotRunError extends Error {
  readonly code = 'REGATTA_SIM_NODE_NOT_RUN';
  constructor(
    readonly node: string,
    timeoutMs: number,
  ) {
    super(`node ${node} was created but not run (Ready) by the simulator within ${timeoutMs} ms`);
    this.name = 'NodeNotRunError';
  }
}

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
  private client: KubeClient | undefined;
  private cri: CriServers | undefined;
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
    this.client = client;
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
    const defaults = {
      prefix,
      zones,
      labels: { ...o.labels },
      capacity: { ...DEFAULT_CAPACITY, ...o.capacity },
      kubeletVersion,
      bootID,
    };
    this.nodes = new NodeManager(client, specs, {
      ...common,
      heartbeatMs: this.timings.heartbeatMs,
      adoption: {
        prefix,
        adoptUnclaimed: o.adoptNodes ?? false,
        specFor: (node: Node, index: number) => adoptedNodeSpec(node, { ...defaults, index }),
      },
    });
    const storageClass = o.storageClass ?? 'standard';
    if (storageClass) {
      this.volumes = new VolumeProvisioner(client, storageClass, o.defaultStorageClass ?? true, this.log);
      await this.volumes.start();
    }
    if (o.criSocketDir) {
      this.cri = new CriServers(o.criSocketDir, this.images, this.log, () => this.podManager);
      await this.cri.start();
    }
    await this.nodes.register();
    this.podManager = new PodManager(client, this.nodes, {
      ...common,
      timings: this.timings,
      kruiseDaemon: { ...DEFAULT_KRUISE_DAEMON, ...o.kruiseDaemon },
    });
    await this.podManager.start();
    await this.nodes.watch();
    this.nodes.startHeartbeat();
    this.log(
      `node simulator up: ${this.nodeNames.length} nodes (${this.nodeNames[0] ?? '-'}…), zones ${zones.join(',')}`,
    );
  }

  /** The CRI ImageService socket of a node (with `criSocketDir`), as a node agent is given it. */
  criSocket(node: string): string | undefined {
    return this.options.criSocketDir ? criSocketPath(this.options.criSocketDir, node) : undefined;
  }

  /** Changes fault switches while running; omitted fields keep their value. */
  setFaults(partial: Partial<SimulatorFaults>): void {
    this.faultSwitches.set(partial);
  }

  get faults(): SimulatorFaults {
    return this.faultSwitches.value;
  }

  /** Whether it runs that node now (one it registered or adopted, not deleted since). */
  ownsNode(name: string): boolean {
    return this.nodes?.owns(name) ?? this.nodeNames.includes(name);
  }

  /** The nodes it runs now: the registered ones still present and the adopted ones. */
  get runningNodes(): string[] {
    return this.nodes?.names ?? [];
  }

  /**
   * Creates a Node for this simulator (annotated with its prefix) and waits until it runs it and reports it Ready.
   * The same as `kubectl create` of `simulatedNodeManifest(name, { prefix })`.
   */
  async addNode(
    name: string,
    o: Omit<NodeManifestOptions, 'prefix'> = {},
    timeoutMs = 30_000,
  ): Promise<Node> {
    const client = this.client;
    if (!client) throw new Error('the simulator is not running');
    await client.create(
      '/api/v1/nodes',
      simulatedNodeManifest(name, { ...o, prefix: this.options.namePrefix ?? 'node' }),
    );
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const node = await client.get<Node>(nodePath(name)).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      const ready = node?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
      if (node && ready && this.ownsNode(name)) return node;
      if (Date.now() > deadline) throw new NodeNotRunError(name, timeoutMs);
      await new Promise((r) => setTimeout(r, 100));
    }
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
      await this.cri?.close();
    })();
    return this.stopping;
  }
}
