/**
 * Whether a workload's rollout is complete, read from its spec and status only, per kind. The rules follow what
 * kubectl's `rollout status` checks for Deployments, StatefulSets and DaemonSets (k8s.io/kubectl
 * `pkg/polymorphichelpers/rollout_status.go`) and OpenKruise's kubectl-kruise for CloneSet, with each kind's
 * partition: the status must describe the current generation, every pod that should be at the update revision
 * is, and enough of them are ready / available (docs/rollout-cli.md "Following a rollout from the command line").
 * Shared by `regatta rollout status` (libs/rollout-cli) and the controllers' rollout metrics (libs/kit).
 */
import { partitionOf, type IntOrString, type KubeObject } from '@regatta/kube';

/** The workload kinds whose rollouts are followed (`regatta rollout`, the rollout metrics). */
export type RolloutKind = 'CloneSet' | 'StatefulSet' | 'DaemonSet' | 'UnitedDeployment' | 'SidecarSet';

/** A workload as read from the API server; fields are read defensively (any version, any state). */
export interface Workload extends KubeObject {
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export interface RolloutStatus {
  kind: RolloutKind;
  complete: boolean;
  /** What is still pending, in words; empty when complete. */
  pending: string[];
  /** Desired pods (daemon: nodes that should run one). */
  desired: number;
  /** Pods that should end at the update revision (desired minus the partition). */
  expectedUpdated: number;
  updated: number;
  ready: number;
  available: number | undefined;
  /** SidecarSet: matched pods both updated and ready (`status.updatedReadyPods`). */
  updatedReady?: number;
  /** Pods (or nodes) kept at the old revision by the partition. */
  partition: number;
  paused: boolean;
  updateRevision: string | undefined;
  currentRevision: string | undefined;
  generation: number;
  observedGeneration: number;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

function safePartition(p: unknown, replicas: number): number {
  try {
    return partitionOf(p as IntOrString | undefined, replicas);
  } catch {
    return 0;
  }
}

/** The progress of a rollout of `kind`, from the workload's spec and status. */
export function rolloutProgress(kind: RolloutKind, w: Workload): RolloutStatus {
  const spec = obj(w.spec);
  const status = obj(w.status);
  const strategy = obj(spec['updateStrategy']);
  const rolling = obj(strategy['rollingUpdate']);
  const generation = w.metadata?.generation ?? 0;
  const observedGeneration = num(status['observedGeneration']) ?? 0;
  let desired: number;
  let updated: number;
  let ready: number;
  let available: number | undefined;
  let partition: number;
  let paused = false;
  let updatedReady: number | undefined;
  let updateRevision = str(status['updateRevision']);
  const currentRevision = str(status['currentRevision']);
  const pending: string[] = [];

  switch (kind) {
    case 'CloneSet':
    case 'StatefulSet': {
      desired = num(spec['replicas']) ?? 1;
      const source = kind === 'CloneSet' ? strategy : rolling;
      partition = safePartition(source['partition'], desired);
      paused = source['paused'] === true;
      updated = num(status['updatedReplicas']) ?? 0;
      ready = num(status['readyReplicas']) ?? 0;
      available = num(status['availableReplicas']);
      const statusReplicas = num(status['replicas']) ?? 0;
      if (statusReplicas > desired) pending.push(`${statusReplicas - desired} old pods to be removed`);
      break;
    }
    case 'DaemonSet': {
      desired = num(status['desiredNumberScheduled']) ?? 0;
      partition = safePartition(rolling['partition'], desired);
      paused = rolling['paused'] === true;
      updated = num(status['updatedNumberScheduled']) ?? 0;
      ready = num(status['numberReady']) ?? 0;
      available = num(status['numberAvailable']);
      break;
    }
    case 'UnitedDeployment': {
      desired = num(spec['replicas']) ?? 1;
      const partitions = obj(obj(strategy['manualUpdate'])['partitions']);
      partition = Math.min(
        desired,
        Object.values(partitions).reduce<number>((sum, p) => sum + Math.max(0, num(p) ?? 0), 0),
      );
      updated = num(status['updatedReplicas']) ?? 0;
      ready = num(status['readyReplicas']) ?? 0;
      available = undefined;
      updateRevision = str(status['updatedRevision']) ?? str(obj(status['updateStatus'])['updatedRevision']);
      break;
    }
    case 'SidecarSet': {
      // the pods the SidecarSet is injected into; `NotUpdate` leaves them all as they are
      desired = num(status['matchedPods']) ?? 0;
      partition = strategy['type'] === 'NotUpdate' ? desired : safePartition(strategy['partition'], desired);
      paused = strategy['paused'] === true;
      updated = num(status['updatedPods']) ?? 0;
      ready = num(status['readyPods']) ?? 0;
      updatedReady = num(status['updatedReadyPods']) ?? 0;
      available = undefined;
      updateRevision = str(status['latestRevision']);
      break;
    }
  }

  const expectedUpdated = Math.max(0, desired - partition);
  if (observedGeneration < generation || (generation > 0 && observedGeneration === 0)) {
    pending.unshift(`the controller to observe generation ${generation} (status is at ${observedGeneration})`);
  } else {
    if (updated < expectedUpdated) {
      pending.push(`${expectedUpdated - updated} of ${expectedUpdated} pods to be updated${paused ? ' (paused)' : ''}`);
    }
    if (ready < desired) pending.push(`${desired - ready} of ${desired} pods to be ready`);
    if (updatedReady !== undefined && updatedReady < expectedUpdated) {
      pending.push(`${expectedUpdated - updatedReady} of ${expectedUpdated} updated pods to be ready`);
    }
    if (available !== undefined && available < desired) {
      pending.push(`${desired - available} of ${desired} pods to be available`);
    }
  }
  return {
    kind,
    complete: pending.length === 0,
    pending,
    desired,
    expectedUpdated,
    updated,
    ready,
    available,
    ...(updatedReady === undefined ? {} : { updatedReady }),
    partition,
    paused,
    updateRevision,
    currentRevision,
    generation,
    observedGeneration,
  };
}
