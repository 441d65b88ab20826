/**
 * Which allocator a UnitedDeployment uses and its next replicas and partitions per subset (OpenKruise
 * `NewReplicaAllocator`, `calcNextPartitions`; `pkg/controller/uniteddeployment/allocator.go`,
 * `uniteddeployment_controller.go`).
 */
import type { UnitedDeploymentSpec } from '@regatta/api';
import { allocateAdaptive } from './adaptive.js';
import type { ExistingSubsets } from './existing-subset.js';
import { allocateMinMax } from './min-max.js';
import { allocateWithReservation } from './reservation.js';
import { allocateSpecific } from './specific.js';

export type AllocatorKind = 'reservation' | 'adaptive' | 'minMax' | 'specific';

/** `Adaptive` schedule strategy. */
export function isAdaptive(spec: UnitedDeploymentSpec): boolean {
  return spec.topology?.scheduleStrategy?.type === 'Adaptive';
}

/** `Adaptive` with `reserveUnschedulablePods`. */
export function reservesUnschedulablePods(spec: UnitedDeploymentSpec): boolean {
  return isAdaptive(spec) && spec.topology?.scheduleStrategy?.adaptive?.reserveUnschedulablePods === true;
}

/** Reservation, then Adaptive, then min/max (any subset has min or max), else specific. */
export function allocatorKind(spec: UnitedDeploymentSpec): AllocatorKind {
  if (reservesUnschedulablePods(spec)) return 'reservation';
  if (isAdaptive(spec)) return 'adaptive';
  const subsets = spec.topology?.subsets ?? [];
  if (subsets.some((s) => s.minReplicas != null || s.maxReplicas != null)) return 'minMax';
  return 'specific';
}

/**
 * Next replicas of every subset in the spec. `existing` describes the subsets whose workload exists (their
 * replicas, ready pods and, with Adaptive, whether they are unschedulable / reserved). Throws
 * {@link ReplicaAllocationError} when the spec cannot be allocated (the event `Failed SpecifySubsetReplicas`).
 */
export function allocateReplicas(
  spec: UnitedDeploymentSpec,
  existing: ExistingSubsets = {},
): Record<string, number> {
  const subsets = spec.topology?.subsets ?? [];
  switch (allocatorKind(spec)) {
    case 'reservation':
      return allocateWithReservation(spec.replicas ?? 0, subsets, existing);
    case 'adaptive':
      return allocateAdaptive(spec.replicas ?? 0, subsets, existing);
    case 'minMax':
      return allocateMinMax(spec.replicas ?? 0, subsets);
    case 'specific':
      return allocateSpecific(spec.replicas ?? -1, subsets, existing);
  }
}

/**
 * Next partition of every subset: `manualUpdate.partitions[name]` (0 when absent or the strategy is not Manual),
 * at most the subset's next replicas.
 */
export function nextPartitions(
  spec: UnitedDeploymentSpec,
  nextReplicas: Readonly<Record<string, number>>,
): Record<string, number> {
  const out: Record<string, number> = {};
  const partitions =
    spec.updateStrategy?.type === 'Manual' ? spec.updateStrategy.manualUpdate?.partitions : undefined;
  for (const s of spec.topology?.subsets ?? []) {
    let p = partitions?.[s.name] ?? 0;
    const replicas = nextReplicas[s.name];
    if (replicas !== undefined && p > replicas) p = replicas;
    out[s.name] = p;
  }
  return out;
}
