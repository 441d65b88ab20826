/**
 * The specific allocator (replica mode: subsets with `replicas` or nothing), OpenKruise `specificAllocator`
 * (`pkg/controller/uniteddeployment/allocator.go`): specified subsets get their number (or percentage of
 * `spec.replicas`); the rest is split evenly over the others, the remainder going to the subsets that already have
 * the most pods, so pods stay where they are.
 */
import type { Subset } from '@regatta/api';
import { ReplicaAllocationError } from '../errors.js';
import type { ExistingSubsets } from './existing-subset.js';
import { parseSubsetReplicasOr } from './parse.js';

/** `udReplicas` is `spec.replicas`, or -1 when unset. */
export function specifiedSubsetReplicas(udReplicas: number, subsets: readonly Subset[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of subsets) {
    if (s.replicas == null) continue;
    // a value that cannot be read leaves the subset unspecified (upstream logs it)
    const n = parseSubsetReplicasOr(udReplicas, s.replicas, -1);
    if (n >= 0) out.set(s.name, n);
  }
  return out;
}

function byReplicasThenName(
  a: { name: string; replicas: number },
  b: { name: string; replicas: number },
): number {
  if (a.replicas !== b.replicas) return a.replicas - b.replicas;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Next replicas per subset. `udReplicas` is `spec.replicas` or -1 when unset. Throws
 * {@link ReplicaAllocationError} when the specified replicas exceed `spec.replicas`, fall short of it while every
 * subset is specified, or are missing for a subset while `spec.replicas` is unset.
 */
export function allocateSpecific(
  udReplicas: number,
  subsets: readonly Subset[],
  existing: ExistingSubsets,
): Record<string, number> {
  const infos = subsets
    .map((s) => ({ name: s.name, replicas: existing[s.name]?.replicas ?? 0, specified: false }))
    .sort(byReplicasThenName);
  const specified = specifiedSubsetReplicas(udReplicas, subsets);

  let specifiedSum = 0;
  for (const n of specified.values()) specifiedSum += n;
  const specifiedCount = infos.filter((i) => specified.has(i.name)).length;
  if (udReplicas !== -1) {
    if (specifiedSum > udReplicas) {
      throw new ReplicaAllocationError(
        `specified subsets' replica (${specifiedSum}) is greater than UnitedDeployment replica (${udReplicas})`,
      );
    }
    if (specifiedSum < udReplicas && specifiedCount === infos.length) {
      throw new ReplicaAllocationError(
        `specified subsets' replica (${specifiedSum}) is less than UnitedDeployment replica (${udReplicas})`,
      );
    }
  } else if (specifiedCount !== infos.length) {
    throw new ReplicaAllocationError(
      'all subsets must be specified when UnitedDeployment replica is unspecified',
    );
  }

  let taken = 0;
  for (const info of infos) {
    const n = specified.get(info.name);
    if (n === undefined) continue;
    info.replicas = n;
    info.specified = true;
    taken += n;
  }
  let left = infos.length - specifiedCount;
  if (left > 0) {
    const rest = udReplicas - taken;
    const average = Math.trunc(rest / left);
    let remainder = rest % left;
    for (let i = infos.length - 1; i >= 0 && left > 0; i--) {
      const info = infos[i];
      if (!info || info.specified) continue;
      info.replicas = remainder > 0 ? average + 1 : average;
      if (remainder > 0) remainder--;
      left--;
    }
  }
  return Object.fromEntries(infos.map((i) => [i.name, i.replicas]));
}
