// R1's Advanced DaemonSet (docs/ads.md): one pod per node of the node simulator, identity the node (the pod's
// required `matchFields metadata.name In [<node>]`, or its nodeName); maxUnavailable and maxSurge of the nodes,
// rounded up, both 0 → maxUnavailable 1; while surging an old and a new pod may share a node; the partition is the
// number of nodes kept at the old revision; no scale change (OpenKruise pkg/controller/daemonset/daemonset_update.go).
import { defaultDaemonSet, type DaemonSet, type Pod } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { benchPodSpec, IMAGE_OLD } from '../../bench/rollout-config.js';
import { KRUISE_DAEMONSETS, type DaemonSetObj } from '../../bench/rollout-watch.js';
import type { Bounds } from '../checker.js';
import type { WorkloadObj } from '../observer.js';
import { absolute, type RolloutPlan } from '../schedule.js';
import { inPlaceAllowance, type Workload, type WorkloadShape } from './kind.js';

/** The node a daemon pod is for: its required node affinity's `metadata.name`, else where it was bound. */
export function nodeOf(p: Pod): string {
  const affinity = p.spec?.affinity as
    | {
        nodeAffinity?: {
          requiredDuringSchedulingIgnoredDuringExecution?: {
            nodeSelectorTerms?: { matchFields?: { key: string; operator: string; values?: string[] }[] }[];
          };
        };
      }
    | undefined;
  const terms = affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  for (const t of terms ?? [])
    for (const f of t.matchFields ?? [])
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1)
        return f.values[0] ?? '';
  return p.spec?.nodeName ?? '';
}

/** A surge needs maxUnavailable 0 (the validation refuses both, OpenKruise apis/apps/v1beta1 daemonset validation). */
export function adsPlan(p: RolloutPlan): RolloutPlan {
  return absolute(p.maxSurge, p.replicas, true) > 0 ? { ...p, maxUnavailable: 0 } : p;
}

export function adsBounds(plan: RolloutPlan, partition: number | undefined): Bounds {
  const n = plan.replicas;
  const surge = absolute(plan.maxSurge, n, true);
  const unavail =
    surge === 0
      ? Math.max(1, absolute(plan.maxUnavailable, n, true))
      : absolute(plan.maxUnavailable, n, true);
  const inPlace = inPlaceAllowance(plan);
  return {
    minAvailable: n - unavail,
    maxPods: n + surge,
    perIdentity: surge > 0 ? 2 : 1,
    ...(inPlace ? { inPlace } : {}),
    ...(partition !== undefined ? { partition: { maxUpdated: Math.max(0, n - partition) } } : {}),
  };
}

export function adsObject(s: WorkloadShape): KubeObject {
  const labels = { app: s.name };
  const set: DaemonSet = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'DaemonSet',
    metadata: { name: s.name, namespace: s.ns },
    spec: {
      selector: { matchLabels: labels },
      // the controller gives its pods the InPlaceUpdateReady gate itself (docs/ads.md)
      template: { metadata: { labels }, spec: benchPodSpec(IMAGE_OLD) },
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          rollingUpdateType: s.inPlace ? 'InPlaceIfPossible' : 'Standard',
          maxUnavailable: s.maxUnavailable,
          maxSurge: s.maxSurge,
          partition: s.partition ?? 0,
        },
      },
    },
  };
  return defaultDaemonSet(set);
}

const status = (o: WorkloadObj | undefined) =>
  (o as DaemonSetObj | undefined)?.status as
    | (NonNullable<DaemonSetObj['status']> & { updateRevision?: string; daemonSetHash?: string })
    | undefined;

export const ADS: Workload = {
  id: 'ads',
  title: 'Advanced DaemonSet',
  app: 'ads',
  resource: KRUISE_DAEMONSETS,
  surge: true,
  changes: ['in-place', 'recreate', 'partition'],
  perNode: true,
  plan: adsPlan,
  ref: (ns, name) => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', namespace: ns, name }),
  object: adsObject,
  identity: nodeOf,
  bounds: adsBounds,
  partitionPatch: (partition) => ({ spec: { updateStrategy: { rollingUpdate: { partition } } } }),
  done: (o, generation, n) => {
    const s = status(o);
    return (
      (s?.observedGeneration ?? 0) >= generation &&
      s?.desiredNumberScheduled === n &&
      s.currentNumberScheduled === n &&
      s.updatedNumberScheduled === n &&
      s.numberReady === n &&
      s.numberAvailable === n &&
      (s.numberMisscheduled ?? 0) === 0
    );
  },
  stepDone: (o, generation, updated, n) => {
    const s = status(o);
    return (
      (s?.observedGeneration ?? 0) >= generation &&
      (s?.updatedNumberScheduled ?? 0) >= updated &&
      s?.numberAvailable === n
    );
  },
  updateRevision: (o) => status(o)?.updateRevision ?? status(o)?.daemonSetHash ?? '',
  describe: (o) => {
    const s = status(o);
    return s
      ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, desired ${s.desiredNumberScheduled}, ` +
          `scheduled ${s.currentNumberScheduled}, ready ${s.numberReady}, available ${s.numberAvailable}, updated ` +
          `${s.updatedNumberScheduled}, update ${s.updateRevision}`
      : 'no status';
  },
};
