// The Advanced StatefulSet controller, declared: caches fed by the watcher over the bus, a reconcile queue, and the
// StatefulSet admission webhooks (apps.kruise.io v1beta1 and v1alpha1); the kit (libs/kit) derives and runs the
// rest. Program, Lease and trace service: `regatta-asts`. It never watches the API server.
import { ASTS_POD_FIELDS } from '@regatta/bus';
import { KINDS } from '@regatta/api';
import {
  ASTS_FEATURE_GATES,
  CONTROLLER_NAME,
  MUTATE_STATEFULSET_PATH,
  VALIDATE_STATEFULSET_PATH,
  isStatefulSetPodOrOrphan,
  statefulSetDefaulter,
  storageClassesFrom,
  statefulSetValidator,
  statefulSetForResizedClaim,
  statefulSetWebhookConfigurations,
  statefulSetsForOrphanChange,
  statefulSetReconcilerOf,
} from '@regatta/asts';
import { ControllerBuilder, mutating, runController, validating } from '@regatta/kit';
import { isPreDownloadJobOf } from '@regatta/image-predownload';
import { rolloutSample } from '@regatta/workload';

const asts = ControllerBuilder.controller({
  name: 'asts',
  eventComponent: CONTROLLER_NAME,
  featureGates: ASTS_FEATURE_GATES,
  maxConcurrentReconciles: 3,
})
  .for('statefulsets', KINDS.statefulsets)
  // pods of native apps/v1 StatefulSets and other controllers are never read: only Kruise StatefulSets' and orphans,
  // and of those only the fields the program reads (docs/adr/0060-pod-projection.md); pods are written as patches
  .owns('pods', KINDS.pods, {
    keep: isStatefulSetPodOrOrphan,
    project: ASTS_POD_FIELDS,
    expectations: 'scale-and-updates',
  })
  // every claim of the namespace: with the Retain policy a set's claims carry no owner reference
  .owns('pvcs', KINDS.persistentvolumeclaims)
  .owns('revisions', KINDS.controllerrevisions)
  // orphans named `<set>-<ordinal>`: that set may adopt them
  .watches('pods', KINDS.pods, statefulSetsForOrphanChange, { project: ASTS_POD_FIELDS })
  .watches('pvcs', KINDS.persistentvolumeclaims, statefulSetForResizedClaim) // a resize it waits for moved on
  // image pre-download: the jobs StatefulSets control, read to delete them once a rollout is over (no reconcile)
  .watches('imagepulljobs', KINDS.imagepulljobs, () => [], { keep: isPreDownloadJobOf('StatefulSet') })
  .webhooks(({ client, gates }) => ({
    routes: [
      mutating(MUTATE_STATEFULSET_PATH, statefulSetDefaulter(gates)),
      validating(VALIDATE_STATEFULSET_PATH, statefulSetValidator(gates, storageClassesFrom(client))),
    ],
    configurations: (url, ca, scope) => Object.values(statefulSetWebhookConfigurations(url, ca, scope)),
  }))
  // regatta_rollout_info and regatta_rollout_replicas_* per StatefulSet (docs/operations.md "Metrics")
  .rolloutMetrics((o) => rolloutSample('StatefulSet', o))
  // rollout traces and image pre-download around the StatefulSet reconciler
  .reconciler(statefulSetReconcilerOf);

await runController(asts);
