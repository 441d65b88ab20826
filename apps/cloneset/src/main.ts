// The CloneSet controller, declared: caches fed by the watcher over the bus, a reconcile queue, and the CloneSet
// admission webhooks; the kit (libs/kit) derives and runs the rest. It never watches the API server.
import { CLONESET_POD_FIELDS } from '@regatta/bus';
import { KINDS } from '@regatta/api';
import {
  CLONESET_FEATURE_GATES,
  CONTROLLER_NAME,
  CloneSetReconciler,
  MUTATE_CLONESET_PATH,
  VALIDATE_CLONESET_PATH,
  cloneSetDefaulter,
  cloneSetsForOrphanChange,
  cloneSetValidator,
  cloneSetWebhookConfigurations,
  isCloneSetPodOrOrphan,
} from '@regatta/cloneset';
import { ImagePreDownloadControl, isPreDownloadJobOf } from '@regatta/image-predownload';
import { RolloutTracer, rolloutSample } from '@regatta/workload';
import { ControllerBuilder, mutating, runController, validating } from '@regatta/kit';

const cloneset = ControllerBuilder.controller({
  name: 'cloneset',
  eventComponent: CONTROLLER_NAME,
  featureGates: CLONESET_FEATURE_GATES,
  maxConcurrentReconciles: 3,
})
  .for('clonesets', KINDS.clonesets)
  // pods of other controllers (Deployments, Jobs…) are never read: only CloneSets' pods and orphans it may adopt, and
  // of those only the fields the program reads (docs/adr/0060-pod-projection.md); pods are written as patches
  .owns('pods', KINDS.pods, {
    keep: isCloneSetPodOrOrphan,
    project: CLONESET_POD_FIELDS,
    expectations: 'scale-and-updates',
  })
  .owns('pvcs', KINDS.persistentvolumeclaims, { expectations: 'scale' })
  .owns('revisions', KINDS.controllerrevisions)
  // orphans: the CloneSets that may adopt them
  .watches('pods', KINDS.pods, cloneSetsForOrphanChange, { project: CLONESET_POD_FIELDS })
  // image pre-download: the jobs CloneSets control, read to delete them once a rollout is over (no reconcile)
  .watches('imagepulljobs', KINDS.imagepulljobs, () => [], { keep: isPreDownloadJobOf('CloneSet') })
  .webhooks(({ readers }) => ({
    routes: [
      mutating(MUTATE_CLONESET_PATH, cloneSetDefaulter()),
      validating(
        VALIDATE_CLONESET_PATH,
        cloneSetValidator((ns, name) => readers.pods.get(ns, name)),
      ),
    ],
    configurations: (url, ca, scope) => Object.values(cloneSetWebhookConfigurations(url, ca, scope)),
  }))
  // regatta_rollout_info and regatta_rollout_replicas_* per CloneSet (docs/operations.md "Metrics")
  .rolloutMetrics((o) => rolloutSample('CloneSet', o))
  .reconciler(({ readers, client, expectations, recorder, gates, tracer }) => {
    const rollouts = new RolloutTracer(tracer);
    const imagePreDownload = new ImagePreDownloadControl({ client, jobs: readers.imagepulljobs, recorder });
    return new CloneSetReconciler({ ...readers, client, expectations, recorder, gates, rollouts, imagePreDownload });
  });

await runController(cloneset);
