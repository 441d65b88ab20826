// The SidecarSet controller, declared: caches fed by the watcher over the bus (SidecarSets, pods, namespaces,
// revisions), a reconcile queue, the pod injection webhook and the SidecarSet webhooks; the kit (libs/kit) derives and
// runs the rest. It never watches the API server.
import { KINDS } from '@regatta/bus';
import {
  CONTROLLER_NAME,
  SidecarSetUpgradeReconciler,
  sidecarSetForRevisionChange,
  sidecarSetRevisionNamespace,
  sidecarSetsForPod,
} from '@regatta/sidecarset';
import { ControllerBuilder, runController } from '@regatta/kit';

const sidecarset = ControllerBuilder.controller({ name: 'sidecarset', eventComponent: CONTROLLER_NAME })
  .for('sidecarsets', KINDS.sidecarsets)
  // pods are not owned by SidecarSets: they map through their injected-list annotation
  .watches('pods', KINDS.pods, (change, readers) => sidecarSetsForPod(change, readers.sidecarsets))
  // revisions live in the controller's namespace, labelled with the SidecarSet's name
  .watches('revisions', KINDS.controllerrevisions, sidecarSetForRevisionChange)
  .watches('namespaces', KINDS.namespaces, () => [])
  .reconciler(
    ({ readers, client, expectations, recorder, tracer }) =>
      new SidecarSetUpgradeReconciler({
        ...readers,
        client,
        expectations,
        recorder,
        tracer, // rollout traces, service regatta-sidecarset
        controllerNamespace: sidecarSetRevisionNamespace(process.env),
      }),
  );

await runController(sidecarset);
