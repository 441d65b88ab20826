/**
 * The UnitedDeployment's status from its subsets (OpenKruise `uniteddeployment_controller.go` `calculateStatus`,
 * `updateUnitedDeployment`; docs/uniteddeployment.md "Status"), in the v1alpha1 shape: `subsetStatuses`, plus
 * `subsetReplicas` and `updateStatus` derived from them. Pure.
 */
import { jsonEqual, setCondition } from '@regatta/kube';
import { REASONS, UnitedDeploymentConditions } from '../keys.js';
import type { SubsetView } from '../subset/read.js';
import type { SubsetStatus, UDCondition, UnitedDeployment, UnitedDeploymentStatus } from '../types.js';

/** `initStatus`: a `subsetStatuses` entry for every subset of the spec (kept in spec order). */
export function initSubsetStatuses(ud: UnitedDeployment): SubsetStatus[] {
  const old = ud.status?.subsetStatuses ?? [];
  return (ud.spec.topology?.subsets ?? []).map(
    (s) => old.find((o) => o.name === s.name) ?? { name: s.name, replicas: 0, readyReplicas: 0, partition: 0 },
  );
}

/** `setUpdatedCondition`. */
export function withUpdatedCondition(conditions: readonly UDCondition[], current: string, expected: string, now: Date): UDCondition[] {
  const updated = current === expected;
  const c: UDCondition = {
    type: UnitedDeploymentConditions.UnitedDeploymentUpdated,
    status: updated ? 'True' : 'False',
    reason: updated ? REASONS.RevisionUpdated : REASONS.RevisionUpdating,
    message: updated ? `updated to revision ${expected}` : `updating to revision ${expected}`,
  };
  const old = conditions.find((x) => x.type === c.type);
  if (old && old.status === c.status) return [...conditions];
  return setCondition(conditions, c, now);
}

export interface StatusInput {
  ud: UnitedDeployment;
  existing: ReadonlyMap<string, SubsetView>;
  subsetStatuses: readonly SubsetStatus[];
  conditions: readonly UDCondition[];
  nextReplicas: Readonly<Record<string, number>>;
  nextPartitions: Readonly<Record<string, number>>;
  reservedPods?: Readonly<Record<string, number>>;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  labelSelector: string;
}

export function computeStatus(input: StatusInput): UnitedDeploymentStatus {
  let replicas = 0;
  let readyReplicas = 0;
  let updatedReplicas = 0;
  let updatedReadyReplicas = 0;
  let reservedPods = 0;
  const subsetStatuses = input.subsetStatuses.map((s) => ({ ...s }));
  for (const [name, v] of input.existing) {
    const reserved = input.reservedPods?.[name] ?? 0;
    replicas += v.statusReplicas - reserved;
    reservedPods += reserved;
    readyReplicas += v.readyReplicas;
    updatedReplicas += v.updatedReplicas;
    updatedReadyReplicas += v.updatedReadyReplicas;
    const ss = subsetStatuses.find((x) => x.name === name);
    if (ss) {
      ss.replicas = input.nextReplicas[name] ?? 0;
      ss.readyReplicas = v.readyReplicas;
      ss.partition = input.nextPartitions[name] ?? 0;
      if (reserved > 0 || ss.reservedPods !== undefined) ss.reservedPods = reserved;
    }
  }
  let currentRevision = input.ud.status?.currentRevision || input.currentRevision;
  if (currentRevision !== input.updateRevision && updatedReadyReplicas >= replicas) currentRevision = input.updateRevision;
  const conditions = input.conditions.filter((c) => c.type !== UnitedDeploymentConditions.SubsetFailure);
  return {
    observedGeneration: input.ud.metadata?.generation ?? 0,
    replicas,
    readyReplicas,
    updatedReplicas,
    updatedReadyReplicas,
    ...(reservedPods > 0 ? { reservedPods } : {}),
    ...(input.ud.status?.collisionCount != null ? { collisionCount: input.ud.status.collisionCount } : {}),
    currentRevision,
    updatedRevision: input.updateRevision,
    subsetStatuses,
    subsetReplicas: Object.fromEntries(subsetStatuses.map((s) => [s.name, s.replicas])) as Record<string, number>,
    conditions,
    updateStatus: {
      updatedRevision: input.updateRevision,
      currentPartitions: Object.fromEntries(subsetStatuses.map((s) => [s.name, s.partition])) as Record<string, number>,
    },
    labelSelector: input.labelSelector,
  };
}

/** Whether anything the controller owns differs from the stored status (`updateUnitedDeployment`'s comparison). */
export function statusChanged(stored: UnitedDeploymentStatus | undefined, next: UnitedDeploymentStatus): boolean {
  if (!stored) return true;
  const pick = (s: UnitedDeploymentStatus) => ({
    observedGeneration: s.observedGeneration ?? 0,
    replicas: s.replicas ?? 0,
    readyReplicas: s.readyReplicas ?? 0,
    updatedReplicas: s.updatedReplicas ?? 0,
    updatedReadyReplicas: s.updatedReadyReplicas ?? 0,
    reservedPods: s.reservedPods ?? 0,
    currentRevision: s.currentRevision ?? '',
    updatedRevision: s.updatedRevision ?? '',
    v1alpha1UpdatedRevision: s.updateStatus?.updatedRevision ?? '',
    currentPartitions: s.updateStatus?.currentPartitions ?? {},
    subsetReplicas: s.subsetReplicas ?? {},
    subsetStatuses: s.subsetStatuses ?? [],
    conditions: s.conditions ?? [],
    labelSelector: s.labelSelector ?? '',
  });
  return !jsonEqual(pick(stored) as never, pick(next) as never);
}

/** The status as a merge patch: keys of the stored maps no longer present are removed (`null`). */
export function statusMergePatch(stored: UnitedDeploymentStatus | undefined, next: UnitedDeploymentStatus): Record<string, unknown> {
  const removed = (old: Record<string, number> | undefined, now: Record<string, number> | undefined) =>
    Object.fromEntries(Object.keys(old ?? {}).filter((k) => !(k in (now ?? {}))).map((k) => [k, null]));
  return {
    ...next,
    reservedPods: next.reservedPods ?? (stored?.reservedPods ? 0 : undefined),
    subsetReplicas: { ...removed(stored?.subsetReplicas, next.subsetReplicas), ...next.subsetReplicas },
    updateStatus: {
      ...next.updateStatus,
      currentPartitions: {
        ...removed(stored?.updateStatus?.currentPartitions ?? undefined, next.updateStatus?.currentPartitions),
        ...next.updateStatus?.currentPartitions,
      },
    },
  };
}
