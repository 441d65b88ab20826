/** CloneSet status computation (`pkg/controller/cloneset/cloneset_status.go`; docs/cloneset.md "Status"), pure. */
import { type IntOrString, labelSelectorToString, partitionOf, type LabelSelector } from '@regatta/kube';
import { type Pod, getPodCondition } from '@regatta/lifecycle';
import { isPodAtRevision } from '@regatta/revision';
import { isCloneSetPodAvailable, isPodUpdateReady } from '@regatta/rollout';
import {
  REPLICA_COUNTERS,
  type StatusCadenceRules,
  replicasChangedPromptly,
  replicasSettled,
} from '@regatta/workload';

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

/**
 * How long until the next pod that is ready, but not yet for `minReadySeconds`, turns available (ms; 0 when there is
 * none: no minReadySeconds, or the pods not available are so for another reason, e.g. their lifecycle state).
 * OpenKruise requeues after the whole `minReadySeconds` whenever `availableReplicas` differs from `readyReplicas`
 * (`pkg/controller/cloneset/cloneset_controller.go`, `DurationStore.Push`); a pod that turned ready after the first
 * one would then be seen available up to `minReadySeconds` late. This counts from each pod's Ready transition instead
 * (k8s `podutil.IsPodAvailable` needs ready for longer than minReadySeconds: one millisecond more),
 * docs/adr/0070-prompt-status-changes.md.
 */
export function msUntilNextAvailable(pods: readonly Pod[], minReadySeconds: number, now: Date): number {
  if (minReadySeconds <= 0) return 0;
  let next = Number.POSITIVE_INFINITY;
  for (const p of pods) {
    if (!isCloneSetPodAvailable(p, 0, now) || isCloneSetPodAvailable(p, minReadySeconds, now)) continue;
    const since = Date.parse(getPodCondition(p, 'Ready')?.lastTransitionTime ?? '');
    if (!Number.isFinite(since)) continue; // never available (k8s: no transition time)
    next = Math.min(next, Math.max(since + minReadySeconds * 1000 - now.getTime() + 1, 1));
  }
  return Number.isFinite(next) ? next : 0;
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
 * When a status change is written (docs/adr/0050-workload-status-write-cadence.md): any field but the replica counts,
 * and a status where every replica the spec asks for is updated, ready and available as far as the partition allows
 * (the rollout or scale done), at once; a change of `replicas`, `readyReplicas` or `availableReplicas` while no
 * rollout is under way (pods created or gone, turning ready, available after minReadySeconds) within the prompt
 * interval (docs/adr/0070-prompt-status-changes.md); the rest, a rollout's progress, on the status write interval.
 */
export function cloneSetStatusCadence(specReplicas: number): StatusCadenceRules<ComputedCloneSetStatus> {
  return {
    counters: REPLICA_COUNTERS,
    settled: (n) => replicasSettled(n, specReplicas, n.expectedUpdatedReplicas),
    prompt: (stored, n) => replicasChangedPromptly(stored, n, n.expectedUpdatedReplicas),
  };
}
