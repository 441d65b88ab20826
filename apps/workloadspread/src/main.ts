// The WorkloadSpread controller, declared: caches fed by the watcher over the bus (WorkloadSpreads, the workloads
// they may target and their pods, ReplicaSets for Deployments, nodes for pods created before a spread), a reconcile
// queue keeping status and deletion costs, the pod placement webhook and the WorkloadSpread webhook; the kit
// (libs/kit) derives and runs the rest. The pod webhook's configuration follows the WorkloadSpreads, so the API server
// calls it only for the pods of targeted workloads (docs/adr/0081-workloadspread-admission.md).
import { KINDS } from '@regatta/api';
import { OwnWrites } from '@regatta/kube';
import { ControllerBuilder, mutating, runController, validating } from '@regatta/kit';
import {
  AdmittedWorkloadSpreads,
  CONTROLLER_NAME,
  MUTATE_POD_PATH,
  VALIDATE_WORKLOADSPREAD_PATH,
  WORKLOADSPREAD_FEATURE_GATES,
  WorkloadSpreadReconciler,
  isWorkloadPod,
  podWebhookConfiguration,
  spreadsForPodChange,
  spreadsForWorkloadChange,
  workloadSpreadPodDefaulter,
  workloadSpreadValidator,
  workloadSpreadWebhookConfigurations,
} from '@regatta/workloadspread';

const none = () => [];
// the status the webhook and the reconciler write, read back before the cache shows it
const ownWrites = new OwnWrites();

const workloadspread = ControllerBuilder.controller({
  name: 'workloadspread',
  eventComponent: CONTROLLER_NAME,
  featureGates: WORKLOADSPREAD_FEATURE_GATES,
})
  .for('workloadspreads', KINDS.workloadspreads)
  .watches('replicasets', KINDS.replicasets, spreadsForWorkloadChange('ReplicaSet'))
  .watches('pods', KINDS.pods, spreadsForPodChange, { keep: isWorkloadPod })
  .watches('clonesets', KINDS.clonesets, spreadsForWorkloadChange('CloneSet'))
  .watches('deployments', KINDS.deployments, spreadsForWorkloadChange('Deployment'))
  .watches('jobs', KINDS.jobs, spreadsForWorkloadChange('Job'))
  .watches('statefulsets', KINDS.statefulsets, spreadsForWorkloadChange('StatefulSet'))
  .watches('appsstatefulsets', KINDS.appsstatefulsets, spreadsForWorkloadChange('StatefulSet'))
  .watches('nodes', KINDS.nodes, none) // the node of a pod created before its spread
  .webhooks(({ readers, gates, client, log, tracer, webhookConfigurations }) => {
    const admitted = new AdmittedWorkloadSpreads((ns, name) => readers.workloadspreads.get(ns, name));
    const spreads = () => (gates.WorkloadSpread ? [...readers.workloadspreads.list(), ...admitted.list()] : []);
    return {
      routes: [
        mutating(MUTATE_POD_PATH, workloadSpreadPodDefaulter({ readers, admitted: () => admitted.list(), client, ownWrites, tracer })),
        validating(
          VALIDATE_WORKLOADSPREAD_PATH,
          workloadSpreadValidator({
            spreads: (ns) => readers.workloadspreads.list({ namespace: ns }),
            admitted,
            configurations: webhookConfigurations,
            log,
          }),
        ),
      ],
      // recomputed by the kit on every pass: the pod webhook's entries follow the WorkloadSpreads
      configurations: (url, ca, scope) => [podWebhookConfiguration(spreads(), url, ca, scope), workloadSpreadWebhookConfigurations(url, ca, scope)],
      followedReaders: ['workloadspreads'],
    };
  })
  .reconciler(({ readers, client, recorder }) => new WorkloadSpreadReconciler({ readers, client, recorder, ownWrites }));

await runController(workloadspread);
