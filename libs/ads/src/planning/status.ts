/**
 * The DaemonSet status (docs/ads.md "Status"; OpenKruise `pkg/controller/daemonset/daemonset_controller.go`
 * `updateDaemonSetStatus` / `storeDaemonSetStatus`): counts over the nodes, each node judged by its oldest pod.
 */
import { type IntOrString, partitionOf } from '@regatta/kube';
import { type Pod, isPodReady } from '@regatta/lifecycle';
import { isInPlaceUpdateReady } from '@regatta/inplace-update';
import { isPodAvailable } from '@regatta/rollout';
import type { StatusCadenceRules } from '@regatta/workload';
import type { NodeFacts } from './manage.js';
import { compareDaemonPods, isTerminating } from './node-pods.js';
import { isPodAtHash } from './revision-hash.js';

export interface DaemonSetCounts {
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  updatedNumberScheduled: number;
  numberAvailable: number;
  numberUnavailable: number;
}

export interface CountsInput {
  nodes: readonly NodeFacts[];
  nodeToPods: ReadonlyMap<string, readonly Pod[]>;
  hash: string;
  templateGeneration?: string;
  minReadySeconds: number;
  now: Date;
}

/** Available as the DaemonSet counts it: available for minReadySeconds and `InPlaceUpdateReady` absent or True. */
export function isDaemonPodAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  return isPodAvailable(pod, minReadySeconds, now) && isInPlaceUpdateReady(pod);
}

export function computeCounts(input: CountsInput): DaemonSetCounts {
  const c: DaemonSetCounts = {
    desiredNumberScheduled: 0,
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    numberReady: 0,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
    numberUnavailable: 0,
  };
  for (const node of input.nodes) {
    const pods = (input.nodeToPods.get(node.name) ?? []).filter((p) => !isTerminating(p));
    const scheduled = pods.length > 0;
    if (node.eligibility.shouldRun) {
      c.desiredNumberScheduled++;
      if (!scheduled) continue;
      c.currentNumberScheduled++;
      const oldest = [...pods].sort(compareDaemonPods)[0] as Pod;
      if (isPodReady(oldest)) {
        c.numberReady++;
        if (isDaemonPodAvailable(oldest, input.minReadySeconds, input.now)) c.numberAvailable++;
      }
      if (isPodAtHash(oldest, input.hash, input.templateGeneration)) c.updatedNumberScheduled++;
    } else if (scheduled) {
      c.numberMisscheduled++;
    }
  }
  c.numberUnavailable = c.desiredNumberScheduled - c.numberAvailable;
  return c;
}

/** `storeDaemonSetStatus`'s test: nothing to write when the counts, the hash and observedGeneration are current. */
export function statusUnchanged(
  stored: Record<string, unknown> | undefined,
  counts: DaemonSetCounts,
  hash: string,
  generation: number,
  collisionCount: number,
): boolean {
  const s = stored ?? {};
  for (const [k, v] of Object.entries(counts)) if ((s[k] ?? 0) !== v) return false;
  if (((s['observedGeneration'] as number | undefined) ?? 0) < generation) return false;
  if ((s['collisionCount'] ?? 0) !== collisionCount) return false;
  // the hash under both names: v1alpha1 readers see daemonSetHash (docs/adr/0023-daemonset-hash-stored-for-v1alpha1-readers.md)
  return s['updateRevision'] === hash && s['daemonSetHash'] === hash;
}

/** The node counts that say where pods run and how many serve (ADR 0070), not how far a rollout is. */
const SCALE_COUNTS = [
  'desiredNumberScheduled',
  'currentNumberScheduled',
  'numberMisscheduled',
  'numberReady',
  'numberAvailable',
  'numberUnavailable',
] as const;

/**
 * When a status change is written (docs/adr/0050-workload-status-write-cadence.md): the node counts may wait for the
 * status write interval; the hash, collision count, observedGeneration, and a status where every node that should
 * run a pod runs one that is ready and available, with the partition's share updated (the rollout done), at once; a
 * change of the counts but `updatedNumberScheduled` while no rollout is under way (nodes gained or lost, pods turning
 * ready or available), within the prompt interval (docs/adr/0070-prompt-status-changes.md).
 */
export function daemonSetStatusCadence(partition: IntOrString | null): StatusCadenceRules<DaemonSetCounts> {
  const held = (desired: number): number => {
    try {
      return partitionOf(partition, desired);
    } catch {
      return 0;
    }
  };
  return {
    counters: [...SCALE_COUNTS, 'updatedNumberScheduled'],
    settled: (n) => {
      const desired = n.desiredNumberScheduled;
      return (
        n.numberMisscheduled === 0 &&
        n.currentNumberScheduled === desired &&
        n.numberReady === desired &&
        n.numberAvailable === desired &&
        n.numberUnavailable === 0 &&
        n.updatedNumberScheduled >= desired - held(desired)
      );
    },
    prompt: (stored, n) => {
      // a rollout under way: fewer nodes run an updated pod than the partition lets through
      const rolling =
        n.updatedNumberScheduled <
        Math.min(n.desiredNumberScheduled - held(n.desiredNumberScheduled), n.currentNumberScheduled);
      return !rolling && SCALE_COUNTS.some((k) => (stored[k] ?? 0) !== n[k]);
    },
  };
}
