/** CloneSet status computation (`pkg/controller/cloneset/cloneset_status.go`; docs/cloneset.md "Status"), pure. */
import { type IntOrString, labelSelectorToString, partitionOf, type LabelSelector } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { isPodAtRevision } from '@regatta/revision';
import { isCloneSetPodAvailable, isPodUpdateReady } from '@regatta/rollout';
import { REPLICA_COUNTERS, type StatusCadenceRules, replicasSettled } from '@regatta/workload';

/** The status fields the controller computes (the CRD requires the five counters on every write). */
export interface ComputedCloneSetStatus {
  observedGeneration: number;
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  updatedAvailableReplicas: number;
  expectedUpdatedReplicas: number;
  updateRevision: string;
  currentRevision: string;
  collisionCount: number;
  labelSelector: string;
  conditions?: unknown[];
}

export interface StatusInput {
  generation: number;
  specReplicas: number;
  partition: IntOrString | null | undefined;
  minReadySeconds: number;
  selector: LabelSelector | null | undefined;
  /** Active pods owned by the CloneSet. */
  pods: readonly Pod[];
  updateRevision: string;
  /** The stored current revision (before this status). */
  currentRevision: string;
  collisionCount: number;
  conditions?: unknown[];
  now: Date;
}

/** Computes the status of a CloneSet from its active pods. */
export function computeStatus(input: StatusInput): ComputedCloneSetStatus {
  const { pods, now, updateRevision } = input;
  let ready = 0;
  let available = 0;
  let updated = 0;
  let updatedReady = 0;
  let updatedAvailable = 0;
  for (const p of pods) {
    const isUpdated = isPodAtRevision(p, updateRevision);
    const isReady = isPodUpdateReady(p, 0, now);
    const isAvailable = isCloneSetPodAvailable(p, input.minReadySeconds, now);
    if (isReady) ready++;
    if (isAvailable) available++;
    if (isUpdated) {
      updated++;
      if (isReady) updatedReady++;
      if (isAvailable) updatedAvailable++;
    }
  }
  const replicas = pods.length;
  let partition: number;
  try {
    partition = partitionOf(input.partition, input.specReplicas);
  } catch {
    partition = 0;
  }
  const currentRevision =
    updated === replicas && replicas === input.specReplicas ? updateRevision : input.currentRevision;
  return {
    observedGeneration: input.generation,
    replicas,
    readyReplicas: ready,
    availableReplicas: available,
    updatedReplicas: updated,
    updatedReadyReplicas: updatedReady,
    updatedAvailableReplicas: updatedAvailable,
    expectedUpdatedReplicas: input.specReplicas - partition,
    updateRevision,
    currentRevision,
    collisionCount: input.collisionCount,
    labelSelector: input.selector ? labelSelectorToString(input.selector) : '',
    ...(input.conditions && input.conditions.length > 0 ? { conditions: input.conditions } : {}),
  };
}

const COMPARED: (keyof ComputedCloneSetStatus)[] = [
  'observedGeneration',
  ...REPLICA_COUNTERS,
  'expectedUpdatedReplicas',
  'updateRevision',
  'currentRevision',
  'collisionCount',
  'labelSelector',
];

/** True when the stored status differs from the computed one in a field the controller owns. */
export function statusChanged(
  stored: Record<string, unknown> | undefined,
  next: ComputedCloneSetStatus,
): boolean {
  if (!stored) return true;
  for (const k of COMPARED) if (stored[k] !== next[k]) return true;
  return JSON.stringify(stored['conditions'] ?? []) !== JSON.stringify(next.conditions ?? []);
}

/**
 * When a status change is written (docs/adr/0050-workload-status-write-cadence.md): the replica counts may wait for
 * the workload's status write interval; any other field, and a status where every replica the spec asks for is
 * updated, ready and available as far as the partition allows (the rollout or scale done), is written at once.
 */
export function cloneSetStatusCadence(specReplicas: number): StatusCadenceRules<ComputedCloneSetStatus> {
  return {
    counters: REPLICA_COUNTERS,
    settled: (n) => replicasSettled(n, specReplicas, n.expectedUpdatedReplicas),
  };
}
