// The ResourceDistribution controller, declared: caches fed by the watcher over the bus (ResourceDistributions, the
// Secrets and ConfigMaps they control, namespaces), a reconcile queue, and the ResourceDistribution webhooks; the kit
// (libs/kit) derives and runs the rest. It never watches the API server; it reads a distribution and the content of
// its copies from the API server, because the bus carries Secret data only as a keyed hash (docs/resourcedistribution.md).
import { KINDS, RESOURCE_DISTRIBUTION_GATE, type ResourceDistribution } from '@regatta/api';
import {
  CONTROLLER_NAME,
  RESOURCE_DISTRIBUTION_FEATURE_GATES,
  ResourceDistributionReconciler,
  distributionsForNamespaceChange,
  isDistributedCopy,
  resourceDistributionWebhooks,
} from '@regatta/resourcedistribution';
import { ControllerBuilder, runController } from '@regatta/kit';

const resourcedistribution = ControllerBuilder.controller({
  name: 'resourcedistribution',
  eventComponent: CONTROLLER_NAME,
  featureGates: RESOURCE_DISTRIBUTION_FEATURE_GATES,
  maxConcurrentReconciles: 3,
})
  .for<'distributions', ResourceDistribution>('distributions', KINDS.resourcedistributions)
  // only the copies some ResourceDistribution controls; a foreign object of the same name is met at create time
  .owns('secrets', KINDS.secrets, { keep: isDistributedCopy })
  .owns('configmaps', KINDS.configmaps, { keep: isDistributedCopy })
  .watches('namespaces', KINDS.namespaces, (change, readers) =>
    distributionsForNamespaceChange(change, readers.distributions.list()),
  )
  // the defaulter, and the validator that dry-runs the embedded resource (403 while the gate is off)
  .webhooks((ctx) => resourceDistributionWebhooks(ctx))
  .reconciler(({ readers, client, recorder, gates, tracer }) => {
    return new ResourceDistributionReconciler({
      recorder, // InvalidSpec: a stored distribution that fails validation (docs/resourcedistribution.md)
      namespaces: readers.namespaces,
      secrets: readers.secrets,
      configmaps: readers.configmaps,
      client,
      tracer, // one span per round, a child per namespace written; service regatta-resourcedistribution
      enabled: gates[RESOURCE_DISTRIBUTION_GATE], // off: the controller does nothing, the webhook answers 403
    });
  });

await runController(resourcedistribution);
