// The Advanced DaemonSet controller, declared: caches fed by the watcher over the bus (DaemonSets, their pods and
// revisions, the nodes), a reconcile queue, and the DaemonSet admission webhooks; the kit (libs/kit) derives and runs
// the rest. It never watches the API server.
import { ADS_POD_FIELDS } from '@regatta/bus';
import { KINDS } from '@regatta/api';
import {
  CONTROLLER_NAME,
  DAEMONSET_FEATURE_GATES,
  DaemonSetReconciler,
  MUTATE_DAEMONSET_PATH,
  VALIDATE_DAEMONSET_PATH,
  daemonSetDefaulter,
  daemonSetValidator,
  daemonSetWebhookConfigurations,
  daemonSetsForNodeChange,
  daemonSetsForOrphanChange,
  isDaemonSetPodOrOrphan,
} from '@regatta/ads';
import { ImagePreDownloadControl, isPreDownloadJobOf } from '@regatta/image-predownload';
import { RolloutTracer, rolloutSample } from '@regatta/workload';
import { ControllerBuilder, mutating, runController, validating } from '@regatta/kit';

const ads = ControllerBuilder.controller({
  name: 'ads',
  eventComponent: CONTROLLER_NAME,
  featureGates: DAEMONSET_FEATURE_GATES,
  maxConcurrentReconciles: 3,
})
  .for('daemonsets', KINDS.daemonsets)
  // pods of other controllers are never read: only DaemonSets' pods and orphans they may adopt, and of those only the
  // fields the program reads (docs/adr/0060-pod-projection.md); pods are written as patches
  .owns('pods', KINDS.pods, {
    keep: isDaemonSetPodOrOrphan,
    project: ADS_POD_FIELDS,
    expectations: 'scale-and-updates',
  })
  .owns('revisions', KINDS.controllerrevisions)
  // orphans: the DaemonSets that may adopt them
  .watches('pods', KINDS.pods, daemonSetsForOrphanChange, { project: ADS_POD_FIELDS })
  .watches('nodes', KINDS.nodes, daemonSetsForNodeChange) // a node's labels, taints or conditions moved
  // image pre-download: the jobs DaemonSets control, read to delete them once a rollout is over (no reconcile)
  .watches('imagepulljobs', KINDS.imagepulljobs, () => [], { keep: isPreDownloadJobOf('DaemonSet') })
  .webhooks(() => ({
    routes: [
      mutating(MUTATE_DAEMONSET_PATH, daemonSetDefaulter()),
      validating(VALIDATE_DAEMONSET_PATH, daemonSetValidator()),
    ],
    configurations: (url, ca, scope) => Object.values(daemonSetWebhookConfigurations(url, ca, scope)),
  }))
  // regatta_rollout_info and regatta_rollout_replicas_* per DaemonSet (docs/operations.md "Metrics")
  .rolloutMetrics((o) => rolloutSample('DaemonSet', o))
  .reconciler(({ readers, client, expectations, recorder, gates, tracer }) => {
    const rollouts = new RolloutTracer(tracer, { prefix: 'daemonset' });
    const imagePreDownload = new ImagePreDownloadControl({ client, jobs: readers.imagepulljobs, recorder });
    return new DaemonSetReconciler({ ...readers, client, expectations, recorder, gates, rollouts, imagePreDownload });
  });

await runController(ads);
