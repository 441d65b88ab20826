/**
 * What to do with the subsets (OpenKruise `pkg/controller/uniteddeployment/uniteddeployment_update.go`,
 * `calcNextPartitions`, `getNextUpdate`; docs/uniteddeployment.md "Reconcile"). Pure.
 */
import type { SubsetView } from '../subset/read.js';
import type { UnitedDeployment } from '../types.js';

/** `manualUpdate.partitions[s]` (0 when absent or the type is not Manual), capped at the subset's next replicas. */
export function nextPartitions(ud: UnitedDeployment, nextReplicas: Readonly<Record<string, number>>): Record<string, number> {
  const type = ud.spec.updateStrategy?.type;
  const manual = !type || type === 'Manual';
  const partitions = manual ? (ud.spec.updateStrategy?.manualUpdate?.partitions ?? {}) : {};
  const out: Record<string, number> = {};
  for (const s of ud.spec.topology?.subsets ?? []) {
    out[s.name] = Math.min(partitions[s.name] ?? 0, nextReplicas[s.name] ?? 0);
  }
  return out;
}

export interface SubsetTarget {
  revision: string;
  replicas: number;
  partition: number;
  /** `subset.patch` as the workload's annotation holds it ('' when none). */
  patch: string;
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
