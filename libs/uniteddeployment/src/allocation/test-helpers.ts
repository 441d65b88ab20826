/** Builders shared by the allocation tables (test-only; not exported from the index). */
import type { Subset, UnitedDeploymentSpec } from '@regatta/api';

/** -1 means unset, as in OpenKruise's tables. */
export const opt = (n: number | undefined): number | undefined => (n === undefined || n < 0 ? undefined : n);

export function subsetsWithBounds(
  min: readonly number[] | undefined,
  max: readonly number[] | undefined,
  count: number,
): Subset[] {
  return Array.from({ length: count }, (_, i) => {
    const s: Subset = { name: `subset-${i}` };
    const lo = opt(min?.[i]);
    const hi = opt(max?.[i]);
    if (lo !== undefined) s.minReplicas = lo;
    if (hi !== undefined) s.maxReplicas = hi;
    return s;
  });
}

export function specOf(
  replicas: number | undefined,
  subsets: Subset[],
  extra: Partial<UnitedDeploymentSpec> = {},
): UnitedDeploymentSpec {
  return {
    selector: { matchLabels: { app: 'demo' } },
    ...(replicas !== undefined && { replicas }),
    topology: { subsets, ...extra.topology },
    ...(extra.updateStrategy && { updateStrategy: extra.updateStrategy }),
  };
}

export const inOrder = (alloc: Record<string, number>, count: number): number[] =>
  Array.from({ length: count }, (_, i) => alloc[`subset-${i}`] ?? NaN);
