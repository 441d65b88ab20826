/**
 * The rollout trace of a DaemonSet (docs/ads.md "Following a rollout", docs/adr/0007): a rollout begins when the
 * template's hash differs from the one in the status; one span per node whose pod reached the new hash and became
 * available (from the in-place update's start, or the new pod's creation); the end once every node runs an
 * available new pod.
 */
import { readInPlaceUpdateState } from '@regatta/inplace-update';
import type { Pod } from '@regatta/lifecycle';
import type { ReconcileContext } from '@regatta/runtime';
import type { RolloutRecord, RolloutTraceControl } from '@regatta/workload';
import { type DaemonSetObject, type DaemonSetRollout, nameOf, statusHash } from '../daemonset-object.js';
import {
  type NodeFacts,
  compareDaemonPods,
  isDaemonPodAvailable,
  isPodAtHash,
  isTerminating,
  nodesToDaemonPods,
  partitionNodes,
} from '../planning/index.js';
import type { DaemonSetStatusOut } from './status.js';

export async function beginRollout(
  traces: RolloutTraceControl,
  ds: DaemonSetObject,
  key: string,
  hash: string,
  rollout: DaemonSetRollout,
  log: ReconcileContext['log'],
): Promise<RolloutRecord | undefined> {
  const record = await traces.sync(
    ds,
    key,
    {
      from: statusHash(ds) ?? hash,
      to: hash,
      strategy: rollout.type === 'OnDelete' ? 'OnDelete' : rollout.rollingUpdateType,
      replicas: ds.status?.desiredNumberScheduled ?? 0,
      partition: String(rollout.partition ?? 0),
    },
    log,
  );
  return record && record.to === hash ? record : undefined;
}

/** Remembers which pods already have their span, per rollout (process-local; a restart may miss a few). */
export class NodeSpans {
  readonly #seen = new Map<string, { to: string; pods: Set<string> }>();

  /** Emits the spans of newly available new pods and follows the rollout's holds and end. */
  async follow(
    traces: RolloutTraceControl,
    input: {
      ds: DaemonSetObject;
      key: string;
      record: RolloutRecord | undefined;
      nodes: readonly NodeFacts[];
      pods: readonly Pod[];
      status: DaemonSetStatusOut;
      rollout: DaemonSetRollout;
      now: Date;
      log: ReconcileContext['log'];
    },
  ): Promise<void> {
    const { record, status, rollout, now } = input;
    if (!record) return;
    let seen = this.#seen.get(input.key);
    if (!seen || seen.to !== record.to) {
      seen = { to: record.to, pods: new Set() };
      this.#seen.set(input.key, seen);
    }
    const byNode = nodesToDaemonPods(input.pods.filter((p) => !isTerminating(p)));
    let updatedReady = 0;
    const start = Date.parse(record.start);
    for (const node of input.nodes) {
      if (!node.eligibility.shouldRun) continue;
      const oldest = [...(byNode.get(node.name) ?? [])].sort(compareDaemonPods)[0];
      if (!oldest || !isPodAtHash(oldest, status.updateRevision)) continue;
      if (!isDaemonPodAvailable(oldest, rollout.minReadySeconds, now)) continue;
      updatedReady++;
      const name = nameOf(oldest);
      if (seen.pods.has(name)) continue;
      seen.pods.add(name);
      const state = readInPlaceUpdateState(oldest);
      const inPlace = state?.updateTimestamp ? Date.parse(state.updateTimestamp) : Number.NaN;
      const began = Number.isNaN(inPlace) ? Date.parse(oldest.metadata?.creationTimestamp ?? '') : inPlace;
      if (Number.isNaN(began) || began < start - 1000) continue;
      traces.podSpan(record, name, Number.isNaN(inPlace) ? 'recreate' : 'in-place', new Date(began), now);
    }
    const desired = status.desiredNumberScheduled;
    const partition = partitionNodes(rollout.partition, desired);
    await traces.follow(
      input.ds,
      input.key,
      record,
      {
        updateRevision: status.updateRevision,
        currentRevision: status.updatedNumberScheduled === desired ? status.updateRevision : record.from,
        replicas: desired,
        updatedReplicas: status.updatedNumberScheduled,
        updatedReadyReplicas: updatedReady,
        expectedUpdatedReplicas: Math.max(desired - partition, 0),
        paused: rollout.paused,
      },
      input.log,
    );
  }

  forget(key: string): void {
    this.#seen.delete(key);
  }
}
