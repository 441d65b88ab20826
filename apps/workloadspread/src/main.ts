// The WorkloadSpread controller, declared: caches fed by the watcher over the bus (WorkloadSpreads, the workloads
// they may target and their pods, ReplicaSets for Deployments, nodes for pods created before a spread), a reconcile
// queue keeping status and deletion costs, the pod placement webhook and the WorkloadSpread webhook; the kit
// (libs/kit) derives and runs the rest. The pod webhook's configuration follows the WorkloadSpreads, so the API server
// calls it only for the pods of targeted workloads (docs/adr/0081-workloadspread-admission.md).
import { KINDS } from '@regatta/api';
import { OwnWrites } from '@regatta/kube';
import { ControllerBuilder, runController } from '@regatta/kit';
import {
  CONTROLLER_NAME,
  WORKLOADSPREAD_FEATURE_GATES,
  WorkloadSpreadReconciler,
  isWorkloadPod,
  spreadsForPodChange,
  spreadsForWorkloadChange,
  workloadSpreadWebhooks,
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
  // the pod placement webhook (its configuration follows the WorkloadSpreads) and the WorkloadSpread webhook
  .webhooks((ctx) => workloadSpreadWebhooks(ctx, ownWrites))
  .reconciler(
    ({ readers, client, recorder }) => new WorkloadSpreadReconciler({ readers, client, recorder, ownWrites }),
  );

await runController(workloadspread);
