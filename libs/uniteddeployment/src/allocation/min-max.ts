/**
 * The capacity (min/max) allocator, OpenKruise `minMaxAllocator` / `allocateByMinMaxMap`
 * (`pkg/controller/uniteddeployment/allocator.go`): in subset order, first every subset's `minReplicas`, then up to
 * every subset's `maxReplicas`, until `spec.replicas` is used up.
 */
import type { Subset } from '@regatta/api';
import { ReplicaAllocationError } from '../errors.js';
import { parseSubsetReplicasOr } from './parse.js';

/** What an unset `maxReplicas` stands for. */
export const UNLIMITED_REPLICAS = 2 ** 31 - 1;

export interface MinMax {
  min: number;
  max: number;
}

/**
 * `minReplicas` (0 when unset) and `maxReplicas` (unlimited when unset) of every subset, in spec order. A value that
 * cannot be read counts as 0 (as upstream, which ignores the parse error). Throws {@link ReplicaAllocationError} when
 * a subset's min is above its max.
 */
export function rawMinMax(udReplicas: number, subsets: readonly Subset[]): Map<string, MinMax> {
  const out = new Map<string, MinMax>();
  subsets.forEach((s, index) => {
    const min = s.minReplicas == null ? 0 : parseSubsetReplicasOr(udReplicas, s.minReplicas, 0);
    const max =
      s.maxReplicas == null ? UNLIMITED_REPLICAS : parseSubsetReplicasOr(udReplicas, s.maxReplicas, 0);
    if (min > max) {
      throw new ReplicaAllocationError(
        `subset[${index}].maxReplicas(${max}) must be more than or equal to minReplicas(${min})`,
      );
    }
    out.set(s.name, { min, max });
  });
  return out;
}

/** Pass 1: each subset's min while replicas remain; pass 2: up to each subset's max. */
export function allocateByMinMax(
  udReplicas: number,
  bounds: ReadonlyMap<string, MinMax>,
  subsetNames: readonly string[],
): Record<string, number> {
  const out: Record<string, number> = {};
  let allocated = 0;
  for (const name of subsetNames) {
    const add = Math.max(0, Math.min(bounds.get(name)?.min ?? 0, udReplicas - allocated));
    out[name] = add;
    allocated += add;
  }
  if (allocated >= udReplicas) return out;
  for (const name of subsetNames) {
    const b = bounds.get(name) ?? { min: 0, max: UNLIMITED_REPLICAS };
    const add = Math.max(0, Math.min(b.max - b.min, udReplicas - allocated));
    out[name] = (out[name] ?? 0) + add;
    allocated += add;
  }
  return out;
}

/** The min/max allocator (`spec.replicas` unset counts as 0). */
export function allocateMinMax(udReplicas: number, subsets: readonly Subset[]): Record<string, number> {
  return allocateByMinMax(
    udReplicas,
    rawMinMax(udReplicas, subsets),
    subsets.map((s) => s.name),
  );
}
