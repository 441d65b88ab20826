// R1's Advanced StatefulSet (docs/asts.md): `podManagementPolicy: Parallel`, `rollingUpdate.maxUnavailable`
// (floor, at least 1), no maxSurge; pods `<set>-<ordinal>`, identity the ordinal (ordinals 0 … replicas − 1, no
// reserved ones); the partition keeps ordinals below it at the old revision (OpenKruise
// pkg/controller/statefulset/stateful_set_control.go).
import { defaultStatefulSet, type Pod, type StatefulSet } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { benchPodSpec, IMAGE_OLD } from '../../bench/rollout-config.js';
import { KRUISE_STATEFULSETS } from '../../bench/rollout-watch.js';
import type { Bounds } from '../checker.js';
import { absolute, type RolloutPlan } from '../schedule.js';
import { inPlaceAllowance, replicaStatus, type Workload, type WorkloadShape } from './kind.js';

/** The ordinal of a pod named `<set>-<n>`, as a string; empty for any other name. */
export function ordinalOf(p: Pod): string {
  return /-(\d+)$/.exec(p.metadata?.name ?? '')?.[1] ?? '';
}

export function astsBounds(plan: RolloutPlan, partition: number | undefined): Bounds {
  const { replicas: n, scaleTo: n2 } = plan;
  const unavail = (r: number) => Math.max(1, absolute(plan.maxUnavailable, r));
  const inPlace = inPlaceAllowance(plan);
  return {
    minAvailable: Math.min(n, n2) - Math.max(unavail(n), unavail(n2)),
    maxPods: Math.max(n, n2),
    ordinalsBelow: Math.max(n, n2),
    ...(inPlace ? { inPlace } : {}),
    ...(partition !== undefined ? { partition: { oldBelow: partition } } : {}),
  };
}

export function astsObject(s: WorkloadShape): KubeObject {
  const labels = { app: s.name };
  const set: StatefulSet = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: s.name, namespace: s.ns },
    spec: {
      replicas: s.replicas,
      serviceName: s.name,
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: labels },
      // the validating webhook requires the InPlaceUpdateReady gate for in-place updates (docs/asts.md)
      template: {
        metadata: { labels },
        spec: benchPodSpec(IMAGE_OLD, { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] }),
      },
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          podUpdatePolicy: s.inPlace ? 'InPlaceIfPossible' : 'ReCreate',
          maxUnavailable: s.maxUnavailable,
          partition: s.partition ?? 0,
        },
      },
    },
  };
  return defaultStatefulSet(set);
}

export const ASTS: Workload = {
  id: 'asts',
  title: 'Advanced StatefulSet',
  app: 'asts',
  resource: KRUISE_STATEFULSETS,
  surge: false,
  ref: (ns, name) => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', namespace: ns, name }),
  object: astsObject,
  identity: ordinalOf,
  bounds: astsBounds,
  partitionPatch: (partition) => ({ spec: { updateStrategy: { rollingUpdate: { partition } } } }),
  ...replicaStatus,
};
