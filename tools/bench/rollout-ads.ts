// Benchmark 6 (issue 11): an image change rolled out over the daemon pods of N simulated nodes by an Advanced
// DaemonSet (Regatta's ads controller: rollingUpdateType InPlaceIfPossible, maxUnavailable 20 %) and by a
// native apps/v1 DaemonSet rolling the same change with maxUnavailable 20 % (pods recreated), in the same
// cluster and the same run, with the same simulated time t for a container to start or restart. Both
// controllers round a percentage of nodes up, so both bounds are ceil(N/batch)·t. The run is the rollout
// benchmarks' common one (rollout-run.ts).
import { defaultDaemonSet, type DaemonSet } from '@regatta/api';
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
import { DAEMONSETS, KRUISE_DAEMONSETS, type DaemonSetObj } from './rollout-watch.js';

export const ADS_MAX_UNAVAILABLE = '20%';

/** The status says a pod of the template of `generation` runs and is available on every node. */
export const daemonSetDone =
  (n: number) =>
  (o: KubeObject, gen: number): boolean => {
    const s = (o as DaemonSetObj).status;
    return (
      (s?.observedGeneration ?? 0) >= gen &&
      s?.desiredNumberScheduled === n &&
      s.currentNumberScheduled === n &&
      s.updatedNumberScheduled === n &&
      s.numberReady === n &&
      s.numberAvailable === n
    );
  };

export const describeDaemonSet = (o: KubeObject | undefined): string => {
  const s = (o as DaemonSetObj | undefined)?.status;
  return s
    ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, ` +
        `desired ${s.desiredNumberScheduled}, scheduled ${s.currentNumberScheduled}, ready ${s.numberReady}, ` +
        `available ${s.numberAvailable}, updated ${s.updatedNumberScheduled}`
    : 'no status';
};

/** `ctx.replicas` is the number of simulated nodes: one daemon pod each. */
export async function benchAdsRollout(ctx: Ctx): Promise<RolloutResult> {
  const { replicas: n, restartMs: t } = ctx;
  const batch = batchOf(ADS_MAX_UNAVAILABLE, n, true);
  const boundS = rolloutBoundS(n, batch, t);
  const template = (app: string) => ({ metadata: { labels: { app } }, spec: benchPodSpec(IMAGE_OLD) });
  // no webhook runs here, so the DaemonSet is sent as the mutating webhook would leave it (the controller adds
  // the InPlaceUpdateReady gate to its pods itself, docs/ads.md)
  const ads = defaultDaemonSet<DaemonSet>({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'DaemonSet',
    metadata: { name: 'bench', namespace: 'bench-ads' },
    spec: {
      selector: { matchLabels: { app: 'bench-ads' } },
      template: template('bench-ads'),
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          rollingUpdateType: 'InPlaceIfPossible',
          maxUnavailable: ADS_MAX_UNAVAILABLE,
          maxSurge: 0,
          partition: 0,
        },
      },
    },
  });
  const regatta: Side = {
    name: 'Advanced DaemonSet',
    label: 'Advanced DaemonSet in place',
    object: ads,
    resource: KRUISE_DAEMONSETS,
    batch,
    boundS,
    done: daemonSetDone(n),
    describe: describeDaemonSet,
  };
  return runRollout(ctx, {
    title:
      `Rollout of an image change over the daemon pods of N = ${n} simulated nodes, maxUnavailable ` +
      `${ADS_MAX_UNAVAILABLE} (batch ${batch}, rounded up), t = ${(t / 1000).toFixed(1)} s for a container to ` +
      `be ready after an in-place restart (Advanced DaemonSet) or a new pod's start (DaemonSet); bound ` +
      `ceil(N/batch)·t = ${boundS.toFixed(1)} s for both`,
    nodes: n,
    maxPods: MAX_PODS_PER_NODE,
    app: 'ads',
    regatta,
    // --peer=kruise: the identical set, in a namespace of its own, with kruise-manager as its controller
    ...(ctx.peer ? { peer: kruisePeerSide(regatta, 'daemonset-controller', OPENKRUISE_VERSION) } : {}),
    native: {
      name: 'DaemonSet',
      label: 'DaemonSet RollingUpdate (baseline)',
      object: {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'bench', namespace: 'bench-ds' },
        spec: {
          selector: { matchLabels: { app: 'bench-ds' } },
          template: template('bench-ds'),
          updateStrategy: {
            type: 'RollingUpdate',
            rollingUpdate: { maxUnavailable: ADS_MAX_UNAVAILABLE, maxSurge: 0 },
          },
        },
      } as KubeObject,
      resource: DAEMONSETS,
      batch,
      boundS,
      done: daemonSetDone(n),
      describe: describeDaemonSet,
    },
  });
}
