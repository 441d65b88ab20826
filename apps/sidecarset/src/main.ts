// The SidecarSet controller, declared: caches fed by the watcher over the bus (SidecarSets, pods, namespaces,
// revisions), a reconcile queue, the pod injection webhook and the SidecarSet webhooks; the kit (libs/kit) derives and
// runs the rest. It never watches the API server.
import { KINDS } from '@regatta/bus';
import { CONTROLLER_NAME, sidecarSetsForPodChange } from '@regatta/sidecarset';
import { ControllerBuilder, runController } from '@regatta/kit';

const sidecarset = ControllerBuilder.controller({ name: 'sidecarset', eventComponent: CONTROLLER_NAME })
  .for('sidecarsets', KINDS.sidecarsets)
  // pods are not owned by SidecarSets: they map through their injected-list annotation
  .watches('pods', KINDS.pods, sidecarSetsForPodChange)
  .reconciler(() => ({
    // TODO(scs-upgrade): the upgrade reconciler (libs/sidecarset/src/upgrade)
    reconcile: async () => ({}),
  }));

await runController(sidecarset);
