// The SidecarSet controller, declared: caches fed by the watcher over the bus (SidecarSets, pods, namespaces,
// revisions), a reconcile queue, the pod injection webhook and the SidecarSet webhooks; the kit (libs/kit) derives and
// runs the rest. It never watches the API server. The pod webhook's configuration follows the SidecarSets, so the API
// server calls it only for the pods they select (docs/adr/0026-sidecarset-blast-radius.md).
import { SIDECARSET_POD_FIELDS } from '@regatta/bus';
import { KINDS } from '@regatta/api';
import {
  AdmittedSidecarSets,
  BarrierReconciler,
  admitAndApply,
  CONTROLLER_NAME,
  barrierRequestsForPodChange,
  isPodRequest,
  MUTATE_POD_PATH,
  MUTATE_SIDECARSET_PATH,
  SIDECARSET_FEATURE_GATES,
  VALIDATE_SIDECARSET_PATH,
  podDefaulter,
  podWebhookConfiguration,
  podWebhookInStepCheck,
  sidecarSetDefaulter,
  sidecarSetValidator,
  sidecarSetWebhookConfigurations,
  SidecarSetUpgradeReconciler,
  sidecarSetForRevisionChange,
  sidecarSetRevisionNamespace,
  sidecarSetsForPod,
  storedSidecarSetRevisions,
  type AnySidecarSet,
  type SidecarSetRevision,
  InjectionPolicyKeeper,
} from '@regatta/sidecarset';
import { rolloutSample } from '@regatta/workload';
import { ControllerBuilder, mutating, runController, validating } from '@regatta/kit';

const none = () => [];

const sidecarset = ControllerBuilder.controller({
  name: 'sidecarset',
  eventComponent: CONTROLLER_NAME,
  featureGates: SIDECARSET_FEATURE_GATES,
})
  .for<'sidecarsets', AnySidecarSet>('sidecarsets', KINDS.sidecarsets)
  // pods are not owned by SidecarSets: they map through their injected-list annotation
  // and pods waiting on a launch barrier are reconciled themselves (namespaced requests: SidecarSets are cluster-scoped);
  // of pods only the fields the program reads (docs/adr/0060-pod-projection.md); pods are written as patches
  .watches(
    'pods',
    KINDS.pods,
    (change, readers) => [
      ...sidecarSetsForPod(change, readers.sidecarsets),
      ...barrierRequestsForPodChange(change),
    ],
    { project: SIDECARSET_POD_FIELDS },
  )
  .watches('namespaces', KINDS.namespaces, none) // namespaceSelector, read by the pod webhook
  // injectionStrategy.revision; the upgrade controller's revisions (in its namespace, labelled with the SidecarSet)
  .watches<'revisions', SidecarSetRevision>(
    'revisions',
    KINDS.controllerrevisions,
    sidecarSetForRevisionChange,
  )
  .webhooks(({ readers, gates, client, log, webhookConfigurations }) => {
    // SidecarSets admitted but not cached yet: effective from their admission (docs/adr/0040-…)
    const admitted = new AdmittedSidecarSets({
      client,
      cached: (name) => readers.sidecarsets.get(undefined, name),
      log,
    });
    const policies = new InjectionPolicyKeeper({ client, log, compile: { sortContainersByName: gates.EnableSortSidecarContainerByName } });
    return {
      routes: [
        mutating(
          MUTATE_POD_PATH,
          podDefaulter({
            sidecarSets: () => admitted.merged(readers.sidecarsets.list()),
            namespaceLabels: (ns) => readers.namespaces.get(undefined, ns)?.metadata?.labels,
            revisions: () => readers.revisions.list(),
            sortContainersByName: gates.EnableSortSidecarContainerByName,
          }),
        ),
        mutating(MUTATE_SIDECARSET_PATH, sidecarSetDefaulter()),
        validating(
          VALIDATE_SIDECARSET_PATH,
          sidecarSetValidator({
            sidecarSets: () => readers.sidecarsets.list(),
            revisions: () => readers.revisions.list(),
            storedRevisions: storedSidecarSetRevisions(client, sidecarSetRevisionNamespace(process.env)),
            admitted: admitAndApply(admitted, webhookConfigurations, log),
            patchPodMetadataDefaultsAllowed: gates.SidecarSetPatchPodMetadataDefaultsAllowed,
          }),
        ),
      ],
      // recomputed by the kit on every pass: the pod webhook's entries follow the SidecarSets
      configurations: (url, ca, scope) => [
        podWebhookConfiguration(
          readers.sidecarsets.list(),
          url,
          ca,
          scope,
          admitted.needingEntries(),
          process.env['POD_NAMESPACE'],
          policies.follow(readers.sidecarsets.list(), scope), // compiled SidecarSets: docs/adr/0089
        ),
        ...sidecarSetWebhookConfigurations(url, ca, scope),
      ],
      // a new or changed SidecarSet gets its entry at once, not at the keeper's next poll (2 s)
      followedReaders: ['sidecarsets'],
    };
  })
  // regatta_rollout_info and regatta_rollout_replicas_* per SidecarSet (docs/operations.md "Metrics")
  .rolloutMetrics((o) => rolloutSample('SidecarSet', o))
  .reconciler(({ readers, client, expectations, recorder, tracer }) => {
    const barriers = new BarrierReconciler({ pods: readers.pods, client });
    const upgrade = new SidecarSetUpgradeReconciler({
      ...readers,
      client,
      expectations,
      recorder,
      tracer, // rollout traces, service regatta-sidecarset
      controllerNamespace: sidecarSetRevisionNamespace(process.env),
      // a new generation is reported observed once new pods get its sidecars (docs/adr/0037-…)
      podWebhookInStep: podWebhookInStepCheck(client, process.env),
    });
    // one queue: a namespaced request is a pod waiting on its launch barrier, the others are SidecarSets
    return { reconcile: (req, ctx) => (isPodRequest(req) ? barriers : upgrade).reconcile(req, ctx) };
  });

await runController(sidecarset);
