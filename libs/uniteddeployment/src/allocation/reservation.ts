/**
 * The reservation allocator (Adaptive with `reserveUnschedulablePods`), OpenKruise `reservationAllocator` /
 * `allocateByMinMaxMapAndReservation` (`pkg/controller/uniteddeployment/allocator.go`): reserved pods stay in their
 * subset, and as many temporary pods are added to the next schedulable subsets; when the reserved pods become
 * healthy, the temporary ones are scaled away.
 */
import type { Subset } from '@regatta/api';
import { isAllocatable, type ExistingSubsets } from './existing-subset.js';
import { rawMinMax, UNLIMITED_REPLICAS } from './min-max.js';

/** One subset during the allocation. */
class SubsetRecord {
  allocated = 0;
  constructor(
    /** Replicas that can still be placed there with success; below 0, that many pods are expected to stay pending. */
    private maxAllocatable: number,
  ) {}

  /**
   * Raise the subset to `to` (at most `rest` more); returns how much of `rest` that used up. Replicas beyond what
   * the subset can run are allocated but not counted as used: they are placed again in later subsets (temporary
   * pods).
   */
  allocate(to: number, rest: number): number {
    let add = Math.min(to - this.allocated, rest);
    this.allocated += add;
    this.maxAllocatable -= add;
    if (this.maxAllocatable < 0) {
      add += this.maxAllocatable;
      return Math.max(0, add);
    }
    return add;
  }
}

export function allocateWithReservation(
  udReplicas: number,
  subsets: readonly Subset[],
  existing: ExistingSubsets,
): Record<string, number> {
  const bounds = rawMinMax(udReplicas, subsets);
  const names = subsets.map((s) => s.name);
  const records = new Map<string, SubsetRecord>();
  for (const name of names) {
    const s = existing[name];
    records.set(
      name,
      new SubsetRecord(!s || isAllocatable(s) ? UNLIMITED_REPLICAS : s.replicas - (s.reservedPods ?? 0)),
    );
  }
  const result = (): Record<string, number> =>
    Object.fromEntries(names.map((n) => [n, records.get(n)?.allocated ?? 0]));

  let rest = udReplicas;
  for (const name of names) {
    rest -= records.get(name)?.allocate(bounds.get(name)?.min ?? 0, rest) ?? 0;
    if (rest <= 0) return result();
  }
  for (const name of names) {
    const s = existing[name];
    const to = !s || !s.unschedulable ? (bounds.get(name)?.max ?? UNLIMITED_REPLICAS) : s.replicas;
    rest -= records.get(name)?.allocate(to, rest) ?? 0;
    if (rest <= 0) return result();
  }
  return result();
}
