// Benchmark 4: an image change rolled out over N pods, by a CloneSet in place (Regatta's cloneset
// controller, InPlaceIfPossible; `--rollout-type` picks another update strategy type, ReCreate for a recreate)
// and by a native Deployment (kube-controller-manager, RollingUpdate: pods recreated), in the same cluster and
// the same run, with the same disruption budget
// (maxUnavailable 10 %) and the same simulated time t for a container to start (new pod) or restart
// (in place). Measured: duration from the image patch to done, against the bound ceil(N/batch)·t; the
// controllers' API writes per pod (from the API server's audit log, by user agent); the controllers'
// CPU seconds and peak memory; the largest number of pods unavailable at once. The run is the rollout
// benchmarks' common one (rollout-run.ts); this file says what the two sides are.
import { defaultCloneSet, type CloneSet } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import {
  IMAGE_OLD,
  MAX_PODS_PER_NODE,
  MAX_UNAVAILABLE,
  batchOf,
  benchPodSpec,
  cloneSetRollout,
  rolloutBoundS,
  type CloneSetRollout,
  type Ctx,
  type RolloutResult,
} from './rollout-config.js';
import { OPENKRUISE_VERSION } from '../compat/versions.js';
import { kruisePeerSide } from './peer-config.js';
import { runRollout, type Side } from './rollout-run.js';
import { CLONESETS, DEPLOYMENTS, type CloneSetObj, type DeploymentObj } from './rollout-watch.js';

export type { RolloutConfig, RolloutResult } from './rollout-config.js';
export { reportRollout } from './rollout-report.js';

/** Benchmark 4 with the CloneSet rolled out as `how` says (main.ts `--rollout-type`; InPlaceIfPossible by default). */
export async function benchRollout(
  ctx: Ctx,
  how: CloneSetRollout = cloneSetRollout('InPlaceIfPossible'),
): Promise<RolloutResult> {
  const { replicas: n, restartMs: t } = ctx;
  const batch = batchOf(MAX_UNAVAILABLE, n);
  const boundS = rolloutBoundS(n, batch, t);
  // no webhook runs here, so the CloneSet is sent as the mutating webhook would leave it
  const cloneSet = defaultCloneSet<CloneSet>({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'bench', namespace: 'bench-cloneset' },
    spec: {
      replicas: n,
      selector: { matchLabels: { app: 'bench-cs' } },
      template: { metadata: { labels: { app: 'bench-cs' } }, spec: benchPodSpec(IMAGE_OLD) },
      updateStrategy: {
        type: how.type,
        maxUnavailable: MAX_UNAVAILABLE,
        maxSurge: 0,
        partition: 0,
      },
    },
  });
  const regatta: Side = {
    name: 'CloneSet',
    label: how.label,
    object: cloneSet,
    resource: CLONESETS,
    batch,
    boundS,
    done: cloneSetDone(n),
    describe: describeCloneSet,
  };
  return runRollout(ctx, {
    title:
      `Rollout of an image change over N = ${n} pods, maxUnavailable ${MAX_UNAVAILABLE} (batch ${batch}), ` +
      `t = ${(t / 1000).toFixed(1)} s for ${how.t}; bound ceil(N/batch)·t = ${boundS.toFixed(1)} s for both`,
    nodes: Math.max(3, Math.ceil((2 * n) / MAX_PODS_PER_NODE)),
    maxPods: MAX_PODS_PER_NODE,
    app: 'cloneset',
    writesGoalPerPod: how.writesGoalPerPod,
    regatta,
    // --peer=kruise: the identical CloneSet, in a namespace of its own, with kruise-manager as its controller
    ...(ctx.peer ? { peer: kruisePeerSide(regatta, 'cloneset-controller', OPENKRUISE_VERSION) } : {}),
    native: {
      name: 'Deployment',
      label: 'Deployment RollingUpdate (baseline)',
      object: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'bench', namespace: 'bench-deployment' },
        spec: {
          replicas: n,
          selector: { matchLabels: { app: 'bench-deploy' } },
          strategy: {
            type: 'RollingUpdate',
            rollingUpdate: { maxUnavailable: MAX_UNAVAILABLE, maxSurge: 0 },
          },
          template: { metadata: { labels: { app: 'bench-deploy' } }, spec: benchPodSpec(IMAGE_OLD) },
        },
      } as KubeObject,
      resource: DEPLOYMENTS,
      batch,
      boundS,
      done: (o, gen) => {
        const s = (o as DeploymentObj).status;
        return (
          (s?.observedGeneration ?? 0) >= gen &&
          s?.updatedReplicas === n &&
          s.readyReplicas === n &&
          s.availableReplicas === n &&
          s.replicas === n
        );
      },
      describe: (o) => {
        const s = (o as DeploymentObj | undefined)?.status;
        return s
          ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ` +
              `ready ${s.readyReplicas}, available ${s.availableReplicas}, updated ${s.updatedReplicas}`
          : 'no status';
      },
    },
  });
}

/** A CloneSet's status says all N pods run the template of `generation` and are ready. */
const cloneSetDone =
  (n: number) =>
  (o: KubeObject, gen: number): boolean => {
    const s = (o as CloneSetObj).status;
    return (
      (s?.observedGeneration ?? 0) >= gen &&
      s?.updatedReadyReplicas === n &&
      s.readyReplicas === n &&
      s.replicas === n &&
      !!s.updateRevision &&
      s.currentRevision === s.updateRevision
    );
  };

function describeCloneSet(o: KubeObject | undefined): string {
  const s = (o as CloneSetObj | undefined)?.status;
  return s
    ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ` +
        `ready ${s.readyReplicas}, updated ${s.updatedReplicas}, updatedReady ${s.updatedReadyReplicas}, ` +
        `current ${s.currentRevision}, update ${s.updateRevision}`
    : 'no status';
}
