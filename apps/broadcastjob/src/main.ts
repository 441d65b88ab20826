// The BroadcastJob controller, declared: caches fed by the watcher over the bus (BroadcastJobs, their pods, the
// nodes), a reconcile queue, and the BroadcastJob webhooks; the kit (libs/kit) derives and runs the rest. It never
// watches the API server (docs/broadcastjob.md).
import { KINDS } from '@regatta/api';
import {
  BROADCASTJOB_FEATURE_GATES,
  BroadcastJobReconciler,
  CONTROLLER_NAME,
  MUTATE_BROADCASTJOB_PATH,
  VALIDATE_BROADCASTJOB_PATH,
  broadcastJobDefaulter,
  broadcastJobValidator,
  broadcastJobWebhookConfigurations,
  isBroadcastJobPod,
  jobsForNodeChange,
} from '@regatta/broadcastjob';
import { ControllerBuilder, mutating, runController, validating } from '@regatta/kit';

const broadcastjob = ControllerBuilder.controller({
  name: 'broadcastjob',
  eventComponent: CONTROLLER_NAME,
  featureGates: BROADCASTJOB_FEATURE_GATES,
  maxConcurrentReconciles: 3, // upstream --broadcastjob-workers
})
  .for('jobs', KINDS.broadcastjobs)
  // only the jobs' pods; each create and delete is expected until the cache shows it
  .owns('pods', KINDS.pods, { keep: isBroadcastJobPod, expectations: 'scale' })
  .watches('nodes', KINDS.nodes, jobsForNodeChange) // a node added, removed, relabelled, tainted or cordoned
  .webhooks(({ gates }) => ({
    routes: [
      mutating(MUTATE_BROADCASTJOB_PATH, broadcastJobDefaulter({ templateNoDefaults: gates.TemplateNoDefaults })),
      validating(VALIDATE_BROADCASTJOB_PATH, broadcastJobValidator()),
    ],
    configurations: (url, ca, scope) => Object.values(broadcastJobWebhookConfigurations(url, ca, scope)),
  }))
  .reconciler(({ readers, client, expectations, recorder, tracer }) => {
    // a trace per job, a span per node's pod (service regatta-broadcastjob)
    return new BroadcastJobReconciler({ ...readers, client, expectations, recorder, tracer });
  });

await runController(broadcastjob);
