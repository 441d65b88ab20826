/** What the allocators know about a subset whose workload exists (OpenKruise `Subset`, `pkg/controller/uniteddeployment/subset.go`). */
export interface ExistingSubset {
  /** The workload's `spec.replicas`. */
  replicas: number;
  /** The workload's `status.readyReplicas`. */
  readyReplicas: number;
  /** Adaptive: the subset cannot take more pods now (timed-out pending pods, or reserved pods). */
  unschedulable?: boolean;
  /** Reservation: its `Schedulable` condition was False before this pass. */
  markedAsUnschedulable?: boolean;
  /** Reservation: pods of the subset counted as reserved. */
  reservedPods?: number;
}

/** Existing subsets by subset name (subsets in the spec without a workload are absent). */
export type ExistingSubsets = Readonly<Record<string, ExistingSubset>>;

/** A subset may get pods: neither unschedulable nor marked as such. */
export function isAllocatable(s: ExistingSubset): boolean {
  return !s.unschedulable && !s.markedAsUnschedulable;
}
