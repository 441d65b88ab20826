// The PodUnavailableBudget program, declared (upstream `pkg/controller/podunavailablebudget`, `pkg/control/pubcontrol`,
// `pkg/webhook/pod/validating`): caches fed by the watcher over the bus (budgets, pods, the workloads they count), a
// reconcile queue keeping each budget's status and marking the pods it guards, and the pod webhook that spends the
// budget on their deletion, eviction and in-place update. The API server calls the webhook only for guarded pods
// (docs/adr/0080-pod-unavailable-budget-admission.md). It never watches the API server (docs/podunavailablebudget.md).
// The budget store and the guarded pods the webhook and the reconciler share are libs/podunavailablebudget's
// `PubProgram`.
import { KINDS } from '@regatta/api';
import { PUB_POD_FIELDS } from '@regatta/bus';
import { ControllerBuilder, runController } from '@regatta/kit';
import {
  CONTROLLER_NAME,
  PUB_FEATURE_GATES,
  PubProgram,
  pubWorkloadMapping,
} from '@regatta/podunavailablebudget';

const pub = new PubProgram();

const podunavailablebudget = ControllerBuilder.controller({
  name: 'podunavailablebudget',
  eventComponent: CONTROLLER_NAME,
  featureGates: PUB_FEATURE_GATES,
  maxConcurrentReconciles: 3, // upstream --podunavailablebudget-workers
})
  .for('pubs', KINDS.podunavailablebudgets)
  // a workload created, deleted or rescaled changes the replicas its budget counts
  .watches('deployments', KINDS.deployments, pubWorkloadMapping('apps', 'Deployment'))
  .watches('replicasets', KINDS.replicasets, () => [])
  .watches('appsstatefulsets', KINDS.appsstatefulsets, pubWorkloadMapping('apps', 'StatefulSet'))
  .watches('clonesets', KINDS.clonesets, pubWorkloadMapping('apps.kruise.io', 'CloneSet'))
  .watches('statefulsets', KINDS.statefulsets, pubWorkloadMapping('apps.kruise.io', 'StatefulSet'))
  // of pods only the fields the program reads (docs/adr/0060-pod-projection.md); it writes pods as patches only
  .watches('pods', KINDS.pods, pub.podMapping, { project: PUB_POD_FIELDS })
  // the pod webhook (DELETE, eviction, in-place UPDATE of guarded pods) and the PodUnavailableBudget webhook
  .webhooks(pub.webhooks)
  .reconciler(pub.reconciler);

await runController(podunavailablebudget);
