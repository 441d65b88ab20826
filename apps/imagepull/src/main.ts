// The image pre-warming program, declared: two controllers run side by side (as in kruise-manager) — ImagePullJob
// (jobs, their target NodeImages, the pods of podSelector jobs) and NodeImage (one per Node) — fed by the watcher
// over the bus, with the ImagePullJob and NodeImage admission webhooks. The per-node pullers are separate programs
// (apps/imagepull-agent). It never watches the API server. With an issuer seed (the chart's
// `bus.nodeAgentAuth: callout`) it also answers the bus's auth callout for those agents (docs/adr/0059).
import { bucketName, IMAGEPULL_POD_FIELDS, readAuthCalloutSettings, registrationKey, runAuthCallout } from '@regatta/bus';
import { KINDS } from '@regatta/api';
import { agentInstance, NODEIMAGE_KIND, REGISTRATION_CONTROLLER } from '@regatta/image-puller';
import {
  IMAGEPULL_FEATURE_GATES,
  ImagePullJobReconciler,
  MUTATE_IMAGEPULLJOB_PATH,
  MUTATE_NODEIMAGE_PATH,
  NodeImageReconciler,
  VALIDATE_IMAGEPULLJOB_PATH,
  VALIDATE_NODEIMAGE_PATH,
  imagePullJobDefaulter,
  imagePullJobValidator,
  imagePullJobsEnabled,
  imagePullSettings,
  imagePullWebhookConfigurations,
  jobsForNodeImageChange,
  jobsForPodChange,
  nodeImageDefaulter,
  nodeImageForNodeChange,
  nodeImageValidator,
  nodeImagesForJobDelete,
} from '@regatta/imagepull';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { createLogger } from '@regatta/telemetry';
import { ControllerBuilder, mutating, runControllers, validating } from '@regatta/kit';

const settings = imagePullSettings();
const scheduled = (o: KubeObject) => !!(o as { spec?: { nodeName?: string } }).spec?.nodeName;

const imagePullJobs = ControllerBuilder.controller({
  name: 'imagepulljob',
  eventComponent: 'imagepulljob-controller',
  featureGates: IMAGEPULL_FEATURE_GATES,
  maxConcurrentReconciles: 3,
})
  .for('imagepulljobs', KINDS.imagepulljobs, { predicates: [] }) // its status writes too: completion starts the TTL
  // podSelector jobs follow their pods' nodes; of the scheduled pods only the fields libs/imagepull reads
  // (docs/adr/0060-pod-projection.md); it never writes a pod
  .watches('pods', KINDS.pods, jobsForPodChange, { keep: scheduled, project: IMAGEPULL_POD_FIELDS })
  .watches('nodeimages', KINDS.nodeimages, jobsForNodeImageChange)
  .webhooks(({ gates }) => ({
    routes: [
      mutating(MUTATE_IMAGEPULLJOB_PATH, imagePullJobDefaulter()),
      validating(VALIDATE_IMAGEPULLJOB_PATH, imagePullJobValidator(gates)),
      mutating(MUTATE_NODEIMAGE_PATH, nodeImageDefaulter()),
      validating(VALIDATE_NODEIMAGE_PATH, nodeImageValidator(gates)),
    ],
    configurations: (url, ca, scope) => Object.values(imagePullWebhookConfigurations(url, ca, scope)),
  }))
  .reconciler(({ readers, client, recorder, gates, tracer }) =>
    imagePullJobsEnabled(gates)
      ? new ImagePullJobReconciler({
          ...readers,
          client,
          recorder, // InvalidSpec: a stored job that fails validation (docs/imagepull.md)
          tracer, // each job's root span (docs/adr/0046)
          daemonConfigNamespace: settings.daemonConfigNamespace,
          tagPolicy: settings,
        })
      : { reconcile: async () => ({}) },
  );

const nodeImages = ControllerBuilder.controller({
  name: 'nodeimage',
  eventComponent: 'nodeimage-controller',
  featureGates: IMAGEPULL_FEATURE_GATES,
  maxConcurrentReconciles: 3,
  ignoreNamespaceScope: true, // NodeImages belong to nodes, not to namespaces
})
  .for('nodeimages', KINDS.nodeimages, { predicates: [] }) // status changes too: tag TTLs run from completion
  .watches('nodes', KINDS.nodes, nodeImageForNodeChange)
  .watches('imagepulljobs', KINDS.imagepulljobs, nodeImagesForJobDelete) // a deleted job's tags lose their owner
  .reconciler(({ readers, client, recorder, gates }) =>
    gates.KruiseDaemon
      ? new NodeImageReconciler({ ...readers, client, recorder, ...settings })
      : { reconcile: async () => ({}) },
  );

const calloutSettings = readAuthCalloutSettings();
const callout = calloutSettings
  ? await runAuthCallout({
      settings: calloutSettings,
      name: 'regatta-imagepull/auth-callout',
      client: KubeClient.fromDefault({ fieldManager: 'regatta-imagepull', userAgent: 'regatta-imagepull/auth-callout' }),
      log: createLogger({ name: 'regatta-imagepull' }).child({ component: 'auth-callout' }),
      bucket: bucketName(NODEIMAGE_KIND),
      registration: (node) => registrationKey(REGISTRATION_CONTROLLER, agentInstance(node)),
    })
  : undefined;
try {
  await runControllers('imagepull', [imagePullJobs, nodeImages]);
} finally {
  await callout?.stop();
}
