/**
 * What to do with the subsets (OpenKruise `pkg/controller/uniteddeployment/uniteddeployment_update.go`,
 * `calcNextPartitions`, `getNextUpdate`; docs/uniteddeployment.md "Reconcile"). Pure.
 */
import type { SubsetView } from '../subset/read.js';
import type { UnitedDeployment } from '../types.js';

export interface SubsetTarget {
  revision: string;
  replicas: number;
  partition: number;
  /** `subset.patch` as the workload's annotation holds it ('' when none). */
  patch: string;
  /** Reservation mode: the maxUnavailable written when the subset is updated (not a reason to update). */
  maxUnavailable?: number;
}

/** Why the subset's workload must be rewritten, or undefined when it is as it should be. */
export function updateReason(view: SubsetView, target: SubsetTarget): string | undefined {
  if (view.revision !== target.revision) return 'revision';
  if (view.specReplicas !== target.replicas) return 'replicas';
  if (view.partition !== target.partition) return 'partition';
  if ((view.patch ?? '') !== target.patch) return 'patch';
  if (view.updatedReplicas < view.statusReplicas) return 'rolling';
  return undefined;
}

export interface SubsetsPlan {
  /** Subset names in the spec without a workload, in spec order. */
  create: string[];
  /** Workload names of subsets no longer in the spec. */
  remove: string[];
  /** Subset names whose workload needs an update, sorted by name, with the reason. */
  update: { name: string; reason: string }[];
}

export function planSubsets(
  ud: UnitedDeployment,
  existing: ReadonlyMap<string, SubsetView>,
  target: (name: string) => SubsetTarget,
): SubsetsPlan {
  const names = (ud.spec.topology?.subsets ?? []).map((s) => s.name);
  const inSpec = new Set(names);
  const create = names.filter((n) => !existing.has(n));
  const remove = [...existing.entries()].filter(([n]) => !inSpec.has(n)).map(([, v]) => v.workload.metadata?.name ?? '');
  const update: { name: string; reason: string }[] = [];
  for (const name of [...existing.keys()].filter((n) => inSpec.has(n)).sort()) {
    const reason = updateReason(existing.get(name) as SubsetView, target(name));
    if (reason) update.push({ name, reason });
  }
  return { create, remove, update };
}
