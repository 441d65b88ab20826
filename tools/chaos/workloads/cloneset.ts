// R1's CloneSet: identity the instance id label, maxSurge, partition = pods kept at the old revision
// (docs/cloneset.md; OpenKruise pkg/controller/cloneset/sync/cloneset_update.go).
import { CLONESETS } from '../../bench/rollout-watch.js';
import { cloneSetInstanceId, type Bounds } from '../checker.js';
import { cloneSetObject, refOf } from '../cloneset.js';
import { absolute, type RolloutPlan } from '../schedule.js';
import { inPlaceAllowance, replicaStatus, type Workload } from './kind.js';

/** maxUnavailable rounds up when maxSurge is 0, down otherwise; maxSurge rounds up. */
export function cloneSetBounds(plan: RolloutPlan, partition: number | undefined): Bounds {
  const { replicas: n, scaleTo: n2, maxSurge } = plan;
  const roundUp = absolute(maxSurge, n, true) === 0;
  const unavail = (r: number) => absolute(plan.maxUnavailable, r, roundUp);
  const surge = (r: number) => absolute(maxSurge, r, true);
  const inPlace = inPlaceAllowance(plan);
  return {
    minAvailable: Math.min(n, n2) - Math.max(unavail(n), unavail(n2)),
    maxPods: Math.max(n, n2) + Math.max(surge(n), surge(n2)),
    ...(inPlace ? { inPlace } : {}),
    ...(partition !== undefined ? { partition: { maxUpdated: Math.max(0, n2 - partition) } } : {}),
  };
}

export const CLONESET: Workload = {
  id: 'cloneset',
  title: 'CloneSet',
  app: 'cloneset',
  resource: CLONESETS,
  surge: true,
  ref: refOf,
  object: (s) =>
    cloneSetObject({
      ns: s.ns,
      name: s.name,
      replicas: s.replicas,
      type: s.inPlace ? 'InPlaceIfPossible' : 'ReCreate',
      maxUnavailable: s.maxUnavailable,
      maxSurge: s.maxSurge,
      ...(s.partition !== undefined ? { partition: s.partition } : {}),
    }),
  identity: cloneSetInstanceId,
  bounds: cloneSetBounds,
  partitionPatch: (partition) => ({ spec: { updateStrategy: { partition } } }),
  ...replicaStatus,
};
