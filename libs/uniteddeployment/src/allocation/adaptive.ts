/**
 * The default Adaptive allocator, OpenKruise `adaptiveAllocator` (`pkg/controller/uniteddeployment/allocator.go`):
 * the min/max allocation with bounds adjusted by what runs — an unschedulable subset keeps only its ready pods (the
 * rest moves on to later subsets), and a schedulable subset never loses ready pods.
 */
import type { Subset } from '@regatta/api';
import type { ExistingSubsets } from './existing-subset.js';
import { allocateByMinMax, rawMinMax } from './min-max.js';

export function allocateAdaptive(
  udReplicas: number,
  subsets: readonly Subset[],
  existing: ExistingSubsets,
): Record<string, number> {
  const bounds = rawMinMax(udReplicas, subsets);
  for (const s of subsets) {
    const b = bounds.get(s.name);
    if (!b) continue;
    const current = existing[s.name];
    const unschedulable = current?.unschedulable === true;
    const ready = current?.readyReplicas ?? 0;
    let { min, max } = b;
    if (unschedulable && current) {
      // it may keep its running pods only (min can end above max: pass 2 then adds nothing)
      min = Math.max(ready, min);
      max = Math.min(ready, max);
    }
    if (!unschedulable && ready > min) min = Math.min(ready, max);
    bounds.set(s.name, { min, max });
  }
  return allocateByMinMax(
    udReplicas,
    bounds,
    subsets.map((s) => s.name),
  );
}
