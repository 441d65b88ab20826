// Benchmark 5 (issue 10): an image change rolled out over N pods by an Advanced StatefulSet (Regatta's asts
// controller: podManagementPolicy Parallel, rollingUpdate podUpdatePolicy InPlaceIfPossible, maxUnavailable
// 20 %) and by a native apps/v1 StatefulSet doing the same change with its rolling update (pods recreated one
// at a time, highest ordinal first), in the same cluster and the same run, with the same simulated time t
// for a container to start or restart. Bounds: ceil(N/batch)·t in place, N·t for the native one. Both use
// Parallel pod management, so that creating N pods does not take N·t before the measured part. The run is
// the rollout benchmarks' common one (rollout-run.ts).
import { defaultStatefulSet, type StatefulSet } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import {
  IMAGE_OLD,
  MAX_PODS_PER_NODE,
  batchOf,
  benchPodSpec,
  rolloutBoundS,
  type Ctx,
  type RolloutResult,
} from './rollout-config.js';
import { OPENKRUISE_VERSION } from '../compat/versions.js';
import { kruisePeerSide } from './peer-config.js';
import { runRollout, type Side } from './rollout-run.js';
import { KRUISE_STATEFULSETS, STATEFULSETS, type StatefulSetObj } from './rollout-watch.js';

export const ASTS_MAX_UNAVAILABLE = '20%';

/** The status says every pod is at the update revision and ready (Kruise's and apps/v1 StatefulSets alike). */
export const statefulSetDone =
  (n: number) =>
  (o: KubeObject, gen: number): boolean => {
    const s = (o as StatefulSetObj).status;
    return (
      (s?.observedGeneration ?? 0) >= gen &&
      s?.replicas === n &&
      s.readyReplicas === n &&
      s.updatedReplicas === n &&
      !!s.updateRevision &&
      s.currentRevision === s.updateRevision
    );
  };

export const describeStatefulSet = (o: KubeObject | undefined): string => {
  const s = (o as StatefulSetObj | undefined)?.status;
  return s
    ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ` +
        `ready ${s.readyReplicas}, available ${s.availableReplicas}, updated ${s.updatedReplicas}, ` +
        `current ${s.currentRevision}, update ${s.updateRevision}`
    : 'no status';
};

export async function benchAstsRollout(ctx: Ctx): Promise<RolloutResult> {
  const { replicas: n, restartMs: t } = ctx;
  const batch = batchOf(ASTS_MAX_UNAVAILABLE, n);
  const boundS = rolloutBoundS(n, batch, t);
  const nativeBoundS = rolloutBoundS(n, 1, t);
  const template = (app: string, extra: Record<string, unknown> = {}) => ({
    metadata: { labels: { app } },
    spec: benchPodSpec(IMAGE_OLD, extra),
  });
  // no webhook runs here, so the set is sent as the mutating webhook would leave it; an in-place update needs
  // the InPlaceUpdateReady readiness gate in the template (the validating webhook requires it, docs/asts.md)
  const asts = defaultStatefulSet<StatefulSet>({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'bench', namespace: 'bench-asts' },
    spec: {
      replicas: n,
      serviceName: 'bench',
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'bench-asts' } },
      template: template('bench-asts', { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] }),
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          podUpdatePolicy: 'InPlaceIfPossible',
          maxUnavailable: ASTS_MAX_UNAVAILABLE,
          partition: 0,
        },
      },
    },
  });
  const regatta: Side = {
    name: 'Advanced StatefulSet',
    label: 'Advanced StatefulSet in place',
    object: asts,
    resource: KRUISE_STATEFULSETS,
    batch,
    boundS,
    done: statefulSetDone(n),
    describe: describeStatefulSet,
  };
  return runRollout(ctx, {
    title:
      `Rollout of an image change over N = ${n} pods, t = ${(t / 1000).toFixed(1)} s for a container to be ready ` +
      `after an in-place restart or a new pod's start. Advanced StatefulSet: Parallel, InPlaceIfPossible, ` +
      `maxUnavailable ${ASTS_MAX_UNAVAILABLE} (batch ${batch}), bound ceil(N/batch)·t = ${boundS.toFixed(1)} s; ` +
      `StatefulSet: rolling update one pod at a time (recreated), bound N·t = ${nativeBoundS.toFixed(1)} s`,
    nodes: Math.max(3, Math.ceil((2 * n) / MAX_PODS_PER_NODE)),
    maxPods: MAX_PODS_PER_NODE,
    app: 'asts',
    regatta,
    // --peer=kruise: the identical set, in a namespace of its own, with kruise-manager as its controller
    ...(ctx.peer ? { peer: kruisePeerSide(regatta, 'statefulset-controller', OPENKRUISE_VERSION) } : {}),
    native: {
      name: 'StatefulSet',
      label: 'StatefulSet RollingUpdate (baseline)',
      object: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'bench', namespace: 'bench-sts' },
        spec: {
          replicas: n,
          serviceName: 'bench',
          podManagementPolicy: 'Parallel',
          selector: { matchLabels: { app: 'bench-sts' } },
          template: template('bench-sts'),
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        },
      } as KubeObject,
      resource: STATEFULSETS,
      batch: 1,
      boundS: nativeBoundS,
      done: statefulSetDone(n),
      describe: describeStatefulSet,
    },
  });
}
