// Node registration, Lease heartbeats, node status (conditions, images) and the NotReady switch.
import { randomUUID } from 'node:crypto';
import type { NodeAddressing } from './addressing.js';
import type { EventRecorder } from './events.js';
import type { Faults } from './faults.js';
import type { ImageService } from './images.js';
import {
  type KubeClient,
  isAlreadyExists,
  isNotFound,
  leasePath,
  nodePath,
  retryOnConflict,
} from './kube-client.js';
import {
  buildLease,
  buildNode,
  buildNodeStatus,
  desiredTaints,
  microTime,
  nodeLabels,
  sameTaints,
  type NodeSpec,
} from './node-object.js';
import type { Node, NodeCondition } from './types.js';

interface NodeState {
  spec: NodeSpec;
  uid: string;
  down: boolean;
  conditions: NodeCondition[] | undefined;
  lastStatusAt: number;
  statusDirty: boolean;
  missingLogged: boolean;
}

/** Node status is re-posted at least this many heartbeats apart even when nothing changed. */
const STATUS_EVERY_HEARTBEATS = 6;

export class NodeManager {
  private readonly nodes = new Map<string, NodeState>();
  private heartbeat: NodeJS.Timeout | undefined;
  private statusTimer: NodeJS.Timeout | undefined;
  private readonly readinessListeners: ((node: string, ready: boolean) => void)[] = [];
  private stopped = false;
  private beating: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: KubeClient,
    specs: NodeSpec[],
    private readonly o: {
      heartbeatMs: number;
      faults: Faults;
      images: ImageService;
      events: EventRecorder;
      log: (line: string) => void;
    },
  ) {
    for (const spec of specs) {
      this.nodes.set(spec.name, {
        spec,
        uid: '',
        down: o.faults.check.nodeDown(spec.name),
        conditions: undefined,
        lastStatusAt: 0,
        statusDirty: true,
        missingLogged: false,
      });
    }
    o.images.onChange((node) => this.markDirty(node));
    o.faults.onChange(() => this.applyFaults());
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
      node = await retryOnConflict(async () => {
        const cur = await this.client.get<Node>(nodePath(st.spec.name));
        const labels = nodeLabels(st.spec);
        const taints = desiredTaints(cur.spec?.taints, st.spec.taints, st.down, Date.now());
        return this.client.patch<Node>(nodePath(st.spec.name), {
          metadata: {
            resourceVersion: cur.metadata.resourceVersion,
            labels,
            annotations: want.metadata.annotations,
          },
          spec: {
            podCIDR: cur.spec?.podCIDR ?? want.spec?.podCIDR,
            podCIDRs: cur.spec?.podCIDRs ?? want.spec?.podCIDRs,
            taints,
          },
        });
      });
      this.o.log(`adopted existing node ${st.spec.name}`);
    }
    st.uid = node.metadata.uid ?? '';
    st.conditions = node.status?.conditions;
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
    for (const st of this.nodes.values()) {
      if (this.stopped) return;
      if (st.down) continue;
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

  private async reconcileTaints(st: NodeState): Promise<void> {
    await retryOnConflict(async () => {
      const cur = await this.client.get<Node>(nodePath(st.spec.name));
      const taints = desiredTaints(cur.spec?.taints, st.spec.taints, st.down, Date.now());
      if (sameTaints(taints, cur.spec?.taints)) return;
      await this.client.patch(nodePath(st.spec.name), {
        metadata: { resourceVersion: cur.metadata.resourceVersion },
        spec: { taints },
      });
    });
  }

  private applyFaults(): void {
    if (this.stopped) return;
    for (const st of this.nodes.values()) {
      const down = this.o.faults.check.nodeDown(st.spec.name);
      if (down === st.down) continue;
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
        .catch((err: unknown) =>
          this.o.log(
            `switching ${name} ${down ? 'NotReady' : 'Ready'} failed: ${String((err as Error).message ?? err)}`,
          ),
        )
        .finally(() => {
          for (const l of this.readinessListeners) l(name, !down);
        });
    }
  }

  async stop(remove: boolean): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.statusTimer) clearTimeout(this.statusTimer);
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
