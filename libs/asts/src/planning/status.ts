/**
 * The StatefulSet status (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `computeReplicaStatus`,
 * `updateStatus`, `statefulset_resize_pvc.go` `updatePVCStatus`; `stateful_set_utils.go` `completeRollingUpdate`,
 * `inconsistentStatus`): counts over the slots and condemned pods, the claims per template, and whether the stored
 * status must be written.
 */
import { resizeInfeasibleConditionChanged } from '@regatta/inplace-update';
import { type Condition, type KubeObject, type LabelSelector, labelSelectorToString } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { podRevision } from '@regatta/revision';
import {
  REPLICA_COUNTERS,
  type StatusCadenceRules,
  replicasChangedPromptly,
  replicasSettled,
} from '@regatta/workload';
import type { StatefulSetStatus } from '../statefulset-object.js';
import { claimCompatibleAndReady } from './claim-resize.js';
import type { PersistentVolumeClaim } from './identity.js';
import { isCreated, isRunningAndReady, isTerminating, runningAndAvailable } from './pod-state.js';

export interface ReplicaCounts {
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  updatedAvailableReplicas: number;
}

/** `computeReplicaStatus` over every list (slots may hold undefined); revisions compared by exact name. */
export function countReplicas(
  lists: readonly (readonly (Pod | undefined)[])[],
  minReadySeconds: number,
  currentRevision: string,
  updateRevision: string,
  now: Date,
): ReplicaCounts {
  const c: ReplicaCounts = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    updatedAvailableReplicas: 0,
  };
  for (const list of lists) {
    for (const pod of list) {
      if (!pod) continue;
      const rev = podRevision(pod);
      if (isCreated(pod)) c.replicas++;
      if (isRunningAndReady(pod)) {
        c.readyReplicas++;
        const available = runningAndAvailable(pod, minReadySeconds, now).available;
        if (rev === updateRevision) {
          c.updatedReadyReplicas++;
          if (available) c.updatedAvailableReplicas++;
        }
        if (available) c.availableReplicas++;
      }
      if (isCreated(pod) && !isTerminating(pod)) {
        if (rev === currentRevision) c.currentReplicas++;
        if (rev === updateRevision) c.updatedReplicas++;
      }
    }
  }
  return c;
}

export interface VolumeClaimStatus {
  volumeClaimName: string;
  compatibleReplicas: number;
  compatibleReadyReplicas: number;
}

/** `IsPVCCompatibleAndReady` as the status counts it: ready only when compatible too. */
export function claimCompatibility(
  claim: PersistentVolumeClaim,
  template: PersistentVolumeClaim,
): { compatible: boolean; ready: boolean } {
  const { compatible, ready } = claimCompatibleAndReady(claim, template);
  return { compatible, ready: compatible && ready };
}

/**
 * `updatePVCStatus`: per volumeClaimTemplate, how many of the pods' claims (found, not being deleted) are compatible
 * and ready. `claimOf(template, pod)` finds a pod's claim.
 */
export function volumeClaimsStatus(
  templates: readonly PersistentVolumeClaim[],
  pods: readonly (Pod | undefined)[],
  claimOf: (templateName: string, pod: Pod) => PersistentVolumeClaim | undefined,
): VolumeClaimStatus[] {
  return templates.map((t) => {
    const name = t.metadata?.name ?? '';
    const s: VolumeClaimStatus = { volumeClaimName: name, compatibleReplicas: 0, compatibleReadyReplicas: 0 };
    for (const p of pods) {
      if (!p) continue;
      const claim = claimOf(name, p);
      if (!claim || claim.metadata?.deletionTimestamp) continue;
      const { compatible, ready } = claimCompatibility(claim, t);
      if (compatible) s.compatibleReplicas++;
      if (compatible && ready) s.compatibleReadyReplicas++;
    }
    return s;
  });
}

export interface ComputedStatus extends ReplicaCounts {
  observedGeneration: number;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  labelSelector: string;
  volumeClaims: VolumeClaimStatus[];
  conditions?: Condition[];
}

export interface StatusParts {
  generation: number;
  counts: ReplicaCounts;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  selector: LabelSelector | null | undefined;
  volumeClaims: VolumeClaimStatus[];
  rollingUpdate: boolean;
}

/** The status to store, with `completeRollingUpdate` applied. */
export function computeStatus(p: StatusParts): ComputedStatus {
  const s: ComputedStatus = {
    observedGeneration: p.generation,
    ...p.counts,
    currentRevision: p.currentRevision,
    updateRevision: p.updateRevision,
    collisionCount: p.collisionCount,
    labelSelector: p.selector ? labelSelectorToString(p.selector) : '',
    volumeClaims: p.volumeClaims,
  };
  if (p.rollingUpdate && s.updatedReplicas === s.replicas && s.readyReplicas === s.replicas) {
    s.currentReplicas = s.updatedReplicas;
    s.currentRevision = s.updateRevision;
  }
  return s;
}

/**
 * `inconsistentStatus`: a newer generation, a changed count (not updatedReady/updatedAvailable), revision,
 * labelSelector, or volumeClaims entry. Conditions alone do not make a write (OpenKruise's rule; a new failure
 * condition is written with the next change), but for Regatta's PodResizeInfeasible, appearing or going.
 */
export function statusChanged(stored: StatefulSetStatus | undefined, next: ComputedStatus): boolean {
  const s = stored ?? {};
  if (
    next.observedGeneration > (s.observedGeneration ?? 0) ||
    next.replicas !== (s.replicas ?? 0) ||
    next.currentReplicas !== (s.currentReplicas ?? 0) ||
    next.readyReplicas !== (s.readyReplicas ?? 0) ||
    next.availableReplicas !== (s.availableReplicas ?? 0) ||
    next.updatedReplicas !== (s.updatedReplicas ?? 0) ||
    next.currentRevision !== (s.currentRevision ?? '') ||
    next.updateRevision !== (s.updateRevision ?? '') ||
    next.labelSelector !== (s.labelSelector ?? '') ||
    // Regatta's PodResizeInfeasible appears and goes with its own write (docs/adr/0087-in-place-resource-resize.md)
    resizeInfeasibleConditionChanged(s.conditions, next.conditions)
  )
    return true;
  const byName = new Map(next.volumeClaims.map((v) => [v.volumeClaimName, v]));
  for (const v of s.volumeClaims ?? []) {
    const n = byName.get(v.volumeClaimName);
    if (
      !n ||
      n.compatibleReplicas !== v.compatibleReplicas ||
      n.compatibleReadyReplicas !== v.compatibleReadyReplicas
    )
      return true;
  }
  return false;
}

export type { KubeObject };

/**
 * When a status change is written (docs/adr/0050-workload-status-write-cadence.md): the replica counts and the claims'
 * counts may wait for the status write interval; any other field, and a status where every replica is ready and
 * available and the partition's share is updated (the rollout or scale done), is written at once; a change of
 * `replicas`, `readyReplicas` or `availableReplicas` while no rollout is under way, within the prompt interval
 * (docs/adr/0070-prompt-status-changes.md).
 */
export function statefulSetStatusCadence(
  specReplicas: number,
  partition: number,
): StatusCadenceRules<ComputedStatus> {
  const expectedUpdated = Math.max(0, specReplicas - partition);
  return {
    counters: [...REPLICA_COUNTERS, 'volumeClaims'],
    settled: (n) => replicasSettled(n, specReplicas, expectedUpdated),
    prompt: (stored, n) => replicasChangedPromptly(stored, n, expectedUpdated),
  };
}
