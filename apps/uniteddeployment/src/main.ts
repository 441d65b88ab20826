// The UnitedDeployment controller, declared: caches fed by the watcher over the bus (UnitedDeployments, the four kinds
// a subset can be, the subsets' pods, revisions), a reconcile queue, and the UnitedDeployment admission webhooks; the
// kit (libs/kit) derives and runs the rest. apps/v1 StatefulSets and Deployments are run by kube-controller-manager,
// CloneSets and Advanced StatefulSets by Regatta's programs. It never watches the API server.
import { UD_POD_FIELDS } from '@regatta/bus';
import { KINDS } from '@regatta/api';
import {
  CONTROLLER_NAME,
  MUTATE_UNITED_DEPLOYMENT_PATH,
  UNITED_DEPLOYMENT_FEATURE_GATES,
  UnitedDeploymentReconciler,
  VALIDATE_UNITED_DEPLOYMENT_PATH,
  isSubsetPod,
  unitedDeploymentDefaulter,
  unitedDeploymentValidator,
  unitedDeploymentWebhookConfigurations,
  unitedDeploymentsForPod,
} from '@regatta/uniteddeployment';
import { rolloutSample } from '@regatta/workload';
import { ControllerBuilder, mutating, runController, validating } from '@regatta/kit';

const uniteddeployment = ControllerBuilder.controller({
  name: 'uniteddeployment',
  eventComponent: CONTROLLER_NAME,
  featureGates: UNITED_DEPLOYMENT_FEATURE_GATES,
  maxConcurrentReconciles: 3,
})
  .for('uniteddeployments', KINDS.uniteddeployments)
  .owns('statefulsets', KINDS.appsstatefulsets, { expectations: 'scale' })
  .owns('advancedstatefulsets', KINDS.statefulsets, { expectations: 'scale' })
  .owns('clonesets', KINDS.clonesets, { expectations: 'scale' })
  .owns('deployments', KINDS.deployments, { expectations: 'scale' })
  .owns('revisions', KINDS.controllerrevisions)
  // the subsets' pods (never other pods), of those only the fields the program reads
  // (docs/adr/0060-pod-projection.md): a change re-reads the UnitedDeployments that select them
  .watches('pods', KINDS.pods, unitedDeploymentsForPod, { keep: isSubsetPod, project: UD_POD_FIELDS })
  .webhooks(({ gates }) => {
    const webhookGates = { templateNoDefaults: gates.TemplateNoDefaults };
    return {
      routes: [
        mutating(MUTATE_UNITED_DEPLOYMENT_PATH, unitedDeploymentDefaulter(webhookGates)),
        validating(VALIDATE_UNITED_DEPLOYMENT_PATH, unitedDeploymentValidator()),
      ],
      configurations: (url, ca, scope) =>
        Object.values(unitedDeploymentWebhookConfigurations(url, ca, scope)),
    };
  })
  // regatta_rollout_info and regatta_rollout_replicas_* per UnitedDeployment (docs/operations.md "Metrics")
  .rolloutMetrics((o) => rolloutSample('UnitedDeployment', o))
  .reconciler(
    ({ readers, client, expectations, recorder, tracer }) =>
      new UnitedDeploymentReconciler({ ...readers, client, expectations, recorder, tracer }),
  );

await runController(uniteddeployment);
