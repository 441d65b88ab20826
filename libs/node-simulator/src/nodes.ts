// Node registration, Lease heartbeats, node status (conditions, images) and the NotReady switch.
import { quantityValue } from './pod-resize.js';
import { randomUUID } from 'node:crypto';
import type { NodeAddressing } from './addressing.js';
import type { EventRecorder } from './events.js';
import type { Faults } from './faults.js';
import type { ImageService } from './images.js';
import { Informer } from './informer.js';
import {
  type KubeClient,
  isAlreadyExists,
  isNotFound,
  leasePath,
  nodePath,
  retryOnConflict,
} from './kube-client.js';
import {
  FOREIGN_INDEX_BASE,
  adoptionPatch,
  annotatedDown,
  configuredIndexOf,
  shouldRunNode,
  type AdoptionPolicy,
} from './node-adoption.js';
import {
  buildLease,
  buildNode,
  buildNodeStatus,
  desiredTaints,
  microTime,
  missingLabels,
  nodeLabels,
  sameTaints,
  type NodeSpec,
} from './node-object.js';
import type { Node, NodeCondition } from './types.js';

interface NodeState {
  spec: NodeSpec;
  uid: string;
  /** Reported down: the `notReadyNodes` fault or the Node's `sim.regatta.dev/not-ready` annotation. */
  down: boolean;
  annotationDown: boolean;
  conditions: NodeCondition[] | undefined;
  lastStatusAt: number;
  statusDirty: boolean;
  missingLogged: boolean;
  /** Taint writes of this node, one at a time. */
  taintWork: Promise<void>;
}

/** What the node manager needs to run Nodes it did not register (see node-adoption.ts). */
export interface NodeAdoption extends AdoptionPolicy {
  /** The spec an adopted Node is run as. */
  specFor(node: Node, index: number): NodeSpec;
}

/**
 * Image stores per node are the image service's; it may learn about nodes added and removed while running
 * (`addNode` / `removeNode`). Without them an adopted node has no image store: nothing is recorded for it, so
 * `node.status.images` stays empty and `images.pullImage` on it fails with NodeNotFound.
 */
type DynamicImages = { addNode?: (node: string) => void; removeNode?: (node: string) => void };

const message = (err: unknown) => String((err as Error)?.message ?? err);

/** Node status is re-posted at least this many heartbeats apart even when nothing changed. */
const STATUS_EVERY_HEARTBEATS = 6;

export class NodeManager {
  private readonly nodes = new Map<string, NodeState>();
  private heartbeat: NodeJS.Timeout | undefined;
  private statusTimer: NodeJS.Timeout | undefined;
  private readonly readinessListeners: ((node: string, ready: boolean) => void)[] = [];
  private stopped = false;
  private beating: Promise<void> = Promise.resolve();
  private informer: Informer<Node> | undefined;
  private readonly adopting = new Set<string>();
  /** Index (addresses) of every node name run so far; a node deleted and added again keeps its addresses. */
  private readonly indexes = new Map<string, number>();

  constructor(
    private readonly client: KubeClient,
    specs: NodeSpec[],
    private readonly o: {
      heartbeatMs: number;
      faults: Faults;
      images: ImageService;
      events: EventRecorder;
      log: (line: string) => void;
      adoption: NodeAdoption;
    },
  ) {
    for (const spec of specs) {
      this.nodes.set(spec.name, this.newState(spec, false));
      this.indexes.set(spec.name, spec.index);
    }
    o.images.onChange((node) => this.markDirty(node));
    o.faults.onChange(() => this.applyFaults());
  }

  private newState(spec: NodeSpec, annotationDown: boolean): NodeState {
    return {
      spec,
      uid: '',
      down: annotationDown || this.o.faults.check.nodeDown(spec.name),
      annotationDown,
      conditions: undefined,
      lastStatusAt: 0,
      statusDirty: true,
      missingLogged: false,
      taintWork: Promise.resolve(),
    };
  }

  get names(): string[] {
    return [...this.nodes.keys()];
  }

  owns(node: string | undefined): boolean {
    return node !== undefined && this.nodes.has(node);
  }

  isDown(node: string): boolean {
    return this.nodes.get(node)?.down ?? true;
  }

  /** The node's allocatable cpu (millicores) and memory (bytes), for pod resize (pod-resize.ts). */
  allocatable(node: string): { cpu: number; memory: number } | undefined {
    const c = this.nodes.get(node)?.spec.capacity;
    return c ? { cpu: quantityValue(c.cpu, 'cpu'), memory: quantityValue(c.memory, 'memory') } : undefined;
  }

  addressing(node: string): NodeAddressing | undefined {
    return this.nodes.get(node)?.spec.addressing;
  }

  onReadinessChange(listener: (node: string, ready: boolean) => void): void {
    this.readinessListeners.push(listener);
  }

  /** Creates the nodes that do not exist, adopts the ones that do (restart), and posts their status and leases. */
  async register(): Promise<void> {
    const states = [...this.nodes.values()];
    const workers = Array.from({ length: Math.min(8, states.length) }, async (_, w) => {
      for (const [i, st] of states.entries()) if (i % 8 === w) await this.registerOne(st);
    });
    await Promise.all(workers);
  }

  private async registerOne(st: NodeState): Promise<void> {
    const want = buildNode(st.spec);
    let node: Node;
    try {
      node = await this.client.create<Node>('/api/v1/nodes', want);
      this.o.log(`registered node ${st.spec.name}`);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // a restart: the Node keeps what users did to it (labels, taints, cordon); only what it lacks is added
      node = await retryOnConflict(async () => {
        const cur = await this.client.get<Node>(nodePath(st.spec.name));
        return this.client.patch<Node>(nodePath(st.spec.name), {
          metadata: {
            resourceVersion: cur.metadata.resourceVersion,
            labels: missingLabels(cur.metadata.labels, nodeLabels(st.spec)),
            annotations: want.metadata.annotations,
          },
          spec: {
            podCIDR: cur.spec?.podCIDR ?? want.spec?.podCIDR,
            podCIDRs: cur.spec?.podCIDRs ?? want.spec?.podCIDRs,
          },
        });
      });
      this.o.log(`adopted existing node ${st.spec.name}`);
    }
    st.uid = node.metadata.uid ?? '';
    st.conditions = node.status?.conditions;
    st.annotationDown = annotatedDown(node);
    st.down = st.annotationDown || this.o.faults.check.nodeDown(st.spec.name);
    await this.postStatus(st);
    await this.reconcileTaints(st);
    if (!st.down) await this.renewLease(st);
    this.o.events.emit(
      st.spec.name,
      { apiVersion: 'v1', kind: 'Node', name: st.spec.name, uid: st.spec.name },
      'Normal',
      'Starting',
      'Starting kubelet.',
    );
  }

  startHeartbeat(): void {
    let busy = false;
    this.heartbeat = setInterval(() => {
      if (busy) return; // the previous round is still writing
      busy = true;
      this.beating = this.beat()
        .finally(() => (busy = false))
        .catch((err: unknown) => this.o.log(`heartbeat failed: ${String((err as Error).message ?? err)}`));
    }, this.o.heartbeatMs);
    this.heartbeat.unref();
  }

  private async beat(): Promise<void> {
    const now = Date.now();
    for (const st of [...this.nodes.values()]) {
      if (this.stopped) return;
      if (st.down || this.nodes.get(st.spec.name) !== st) continue;
      try {
        await this.renewLease(st);
        if (st.statusDirty || now - st.lastStatusAt >= STATUS_EVERY_HEARTBEATS * this.o.heartbeatMs)
          await this.postStatus(st);
        st.missingLogged = false;
      } catch (err) {
        if (isNotFound(err)) {
          if (!st.missingLogged)
            this.o.log(`node ${st.spec.name} no longer exists; not re-registering it (as kubelet)`);
          st.missingLogged = true;
        } else this.o.log(`heartbeat of ${st.spec.name} failed: ${String((err as Error).message ?? err)}`);
      }
    }
  }

  private async renewLease(st: NodeState): Promise<void> {
    const name = st.spec.name;
    try {
      await this.client.patch(leasePath(name), {
        spec: { holderIdentity: name, renewTime: microTime(Date.now()) },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      if (!st.uid) return;
      try {
        await this.client.create(
          '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases',
          buildLease(name, st.uid, Date.now()),
        );
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
      }
    }
  }

  private async postStatus(st: NodeState): Promise<void> {
    const now = Date.now();
    st.statusDirty = false;
    const status = buildNodeStatus(st.spec, {
      down: st.down,
      images: this.o.images.nodeStatusImages(st.spec.name),
      now,
      prev: st.conditions,
    });
    try {
      const node = await this.client.patch<Node>(`${nodePath(st.spec.name)}/status`, { status });
      st.conditions = node.status?.conditions;
      st.lastStatusAt = now;
    } catch (err) {
      st.statusDirty = true;
      throw err;
    }
  }

  private markDirty(node: string): void {
    const st = this.nodes.get(node);
    if (!st || this.stopped) return;
    st.statusDirty = true;
    if (this.statusTimer) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      for (const s of this.nodes.values()) {
        if (s.statusDirty && !s.down && !this.stopped) {
          this.postStatus(s).catch((err: unknown) => {
            if (!isNotFound(err))
              this.o.log(`status of ${s.spec.name} not posted: ${String((err as Error).message ?? err)}`);
          });
        }
      }
    }, 250);
    this.statusTimer.unref();
  }

  /** Brings the taints the simulator manages (node-object.ts `desiredTaints`) in line; one write at a time. */
  private reconcileTaints(st: NodeState): Promise<void> {
    const work = st.taintWork.then(() =>
      retryOnConflict(async () => {
        const cur = await this.client.get<Node>(nodePath(st.spec.name));
        const taints = desiredTaints(cur.spec?.taints, {
          down: st.down,
          unschedulable: cur.spec?.unschedulable === true,
          now: Date.now(),
        });
        if (sameTaints(taints, cur.spec?.taints)) return;
        await this.client.patch(nodePath(st.spec.name), {
          metadata: { resourceVersion: cur.metadata.resourceVersion },
          spec: { taints },
        });
      }),
    );
    st.taintWork = work.catch(() => undefined);
    return work;
  }

  private applyFaults(): void {
    if (this.stopped) return;
    for (const st of this.nodes.values()) this.updateDown(st);
  }

  /** Switches the node NotReady / Ready when the fault or its annotation says so. */
  private updateDown(st: NodeState): void {
    const down = st.annotationDown || this.o.faults.check.nodeDown(st.spec.name);
    if (down === st.down || this.stopped) return;
    st.down = down;
    this.o.log(`node ${st.spec.name} is now ${down ? 'NotReady' : 'Ready'}`);
    const name = st.spec.name;
    const work = async () => {
      await this.postStatus(st);
      await this.reconcileTaints(st);
      if (!down) await this.renewLease(st);
      this.o.events.emit(
        name,
        { apiVersion: 'v1', kind: 'Node', name, uid: name },
        'Normal',
        down ? 'NodeNotReady' : 'NodeReady',
        `Node ${name} status is now: ${down ? 'NodeNotReady' : 'NodeReady'}`,
      );
    };
    work()
      .catch((err: unknown) => {
        // deleted while switching (kubectl delete node right after the change): nothing left to switch, as a
        // kubelet whose Node is gone; onNodeGone says the node is no longer run
        if (this.gone(st) || isNotFound(err)) return;
        this.o.log(`switching ${name} ${down ? 'NotReady' : 'Ready'} failed: ${message(err)}`);
      })
      .finally(() => {
        if (this.gone(st)) return;
        for (const l of this.readinessListeners) l(name, !down);
      });
  }

  /** The node of this state is no longer run (deleted, or replaced by a new Node of the same name). */
  private gone(st: NodeState): boolean {
    return this.nodes.get(st.spec.name) !== st;
  }

  /**
   * Watches every Node: runs the ones it should adopt (node-adoption.ts), follows annotation and cordon changes
   * of its nodes, and stops running a node that is deleted (its pods are left to the pod garbage collector).
   */
  async watch(): Promise<void> {
    this.informer = new Informer<Node>(
      this.client,
      '/api/v1/nodes',
      { upsert: (n) => this.onNode(n), remove: (n) => this.onNodeGone(n) },
      this.o.log,
    );
    await this.informer.start();
  }

  private onNode(node: Node): void {
    if (this.stopped) return;
    const name = node.metadata.name ?? '';
    const st = this.nodes.get(name);
    if (st && st.uid && node.metadata.uid && node.metadata.uid !== st.uid) {
      // deleted and created again between two events: a new node of the same name
      this.forgetNode(name);
    } else if (st) {
      if (!st.uid) st.uid = node.metadata.uid ?? '';
      const annotationDown = annotatedDown(node);
      if (annotationDown !== st.annotationDown) {
        st.annotationDown = annotationDown;
        this.updateDown(st);
      }
      const want = desiredTaints(node.spec?.taints, {
        down: st.down,
        unschedulable: node.spec?.unschedulable === true,
        now: Date.now(),
      });
      if (!sameTaints(want, node.spec?.taints)) {
        this.reconcileTaints(st).catch((err: unknown) => {
          if (!isNotFound(err)) this.o.log(`taints of ${name} not updated: ${message(err)}`);
        });
      }
      return;
    }
    if (!shouldRunNode(node, this.o.adoption) || this.adopting.has(name)) return;
    this.adopting.add(name);
    this.adopt(node)
      .catch((err: unknown) => {
        // deleted while being adopted: nothing to run (its delete event may have come before the adoption's state)
        if (isNotFound(err)) {
          if (!this.informer?.get(name)) this.forgetNode(name);
          return;
        }
        this.o.log(`adopting node ${name} failed: ${message(err)}; retrying`);
        const t = setTimeout(() => {
          const latest = this.informer?.get(name);
          if (latest) this.onNode(latest);
        }, 2_000);
        t.unref();
      })
      .finally(() => this.adopting.delete(name));
  }

  private indexFor(name: string): number {
    let index = this.indexes.get(name) ?? configuredIndexOf(name, this.o.adoption.prefix);
    if (index === undefined) {
      index = FOREIGN_INDEX_BASE;
      const used = new Set(this.indexes.values());
      while (used.has(index)) index++;
    }
    this.indexes.set(name, index);
    return index;
  }

  /** Claims the Node (resourceVersion precondition) and runs it like one it registered. */
  private async adopt(seen: Node): Promise<void> {
    const name = seen.metadata.name ?? '';
    const index = this.indexFor(name);
    const claimed = await retryOnConflict(async () => {
      let cur: Node;
      try {
        cur = await this.client.get<Node>(nodePath(name));
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
      if (!shouldRunNode(cur, this.o.adoption)) return undefined;
      const spec = this.o.adoption.specFor(cur, index);
      const node = await this.client.patch<Node>(nodePath(name), adoptionPatch(cur, spec));
      return { node, spec };
    });
    if (!claimed || this.stopped || this.nodes.has(name)) return;
    const { node, spec } = claimed;
    const st = this.newState(spec, annotatedDown(node));
    st.uid = node.metadata.uid ?? '';
    st.conditions = node.status?.conditions;
    this.nodes.set(name, st);
    (this.o.images as DynamicImages).addNode?.(name);
    this.o.log(`adopted node ${name} (index ${index}, zone ${spec.zone})`);
    if (!st.down) await this.renewLease(st);
    await this.postStatus(st);
    await this.reconcileTaints(st);
    this.o.events.emit(
      name,
      { apiVersion: 'v1', kind: 'Node', name, uid: name },
      'Normal',
      'Starting',
      'Starting kubelet.',
    );
    // the pod loop picks up pods already bound to it
    for (const l of this.readinessListeners) l(name, !st.down);
  }

  private onNodeGone(node: Node): void {
    const name = node.metadata.name ?? '';
    const st = this.nodes.get(name);
    if (!st || this.stopped) return;
    if (st.uid && node.metadata.uid && node.metadata.uid !== st.uid) return;
    this.forgetNode(name);
    this.o.log(
      `node ${name} was deleted; no longer running it (its pods are left to the pod garbage collector)`,
    );
  }

  private forgetNode(name: string): void {
    this.nodes.delete(name);
    (this.o.images as DynamicImages).removeNode?.(name);
  }

  async stop(remove: boolean): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.statusTimer) clearTimeout(this.statusTimer);
    await this.informer?.stop();
    await this.beating;
    if (!remove) return;
    for (const st of this.nodes.values()) {
      for (const path of [leasePath(st.spec.name), nodePath(st.spec.name)]) {
        try {
          await this.client.delete(path);
        } catch (err) {
          if (!isNotFound(err))
            this.o.log(`deleting ${path} failed: ${String((err as Error).message ?? err)}`);
        }
      }
    }
  }
}

export const newBootId = () => randomUUID();
