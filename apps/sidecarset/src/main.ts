// The SidecarSet controller, declared: caches fed by the watcher over the bus (SidecarSets, pods, namespaces,
// revisions), a reconcile queue, the pod injection webhook and the SidecarSet webhooks; the kit (libs/kit) derives and
// runs the rest. It never watches the API server. The pod webhook's configuration follows the SidecarSets, so the API
// server calls it only for the pods they select (docs/adr/0026-sidecarset-blast-radius.md); the webhooks and the
// reconciler (upgrade and launch barriers) are libs/sidecarset's program.ts.
import { SIDECARSET_POD_FIELDS } from '@regatta/bus';
import { KINDS } from '@regatta/api';
import {
  CONTROLLER_NAME,
  SIDECARSET_FEATURE_GATES,
  sidecarSetForRevisionChange,
  sidecarSetPodMapping,
  sidecarSetReconciler,
  sidecarSetWebhooks,
  type AnySidecarSet,
  type SidecarSetRevision,
} from '@regatta/sidecarset';
import { rolloutSample } from '@regatta/workload';
import { ControllerBuilder, runController } from '@regatta/kit';

const sidecarset = ControllerBuilder.controller({
  name: 'sidecarset',
  eventComponent: CONTROLLER_NAME,
  featureGates: SIDECARSET_FEATURE_GATES,
})
  .for<'sidecarsets', AnySidecarSet>('sidecarsets', KINDS.sidecarsets)
  // pods are not owned by SidecarSets: they map through their injected-list annotation
  // and pods waiting on a launch barrier are reconciled themselves (namespaced requests: SidecarSets are cluster-scoped);
  // of pods only the fields the program reads (docs/adr/0060-pod-projection.md); pods are written as patches
  .watches('pods', KINDS.pods, sidecarSetPodMapping, { project: SIDECARSET_POD_FIELDS })
  .watches('namespaces', KINDS.namespaces, () => []) // namespaceSelector, read by the pod webhook
  // injectionStrategy.revision; the upgrade controller's revisions (in its namespace, labelled with the SidecarSet)
  .watches<'revisions', SidecarSetRevision>(
    'revisions',
    KINDS.controllerrevisions,
    sidecarSetForRevisionChange,
  )
  // a new or changed SidecarSet gets its pod webhook entry at once (followed reader)
  .webhooks((ctx) => sidecarSetWebhooks(ctx))
  // regatta_rollout_info and regatta_rollout_replicas_* per SidecarSet (docs/operations.md "Metrics")
  .rolloutMetrics((o) => rolloutSample('SidecarSet', o))
  .reconciler((ctx) => sidecarSetReconciler(ctx));

await runController(sidecarset);
