// The image pre-warming program, declared: two controllers run side by side (as in kruise-manager) — ImagePullJob
// (jobs, their target NodeImages, the pods of podSelector jobs) and NodeImage (one per Node) — fed by the watcher
// over the bus, with the ImagePullJob and NodeImage admission webhooks. The per-node pullers are separate programs
// (apps/imagepull-agent). It never watches the API server. With an issuer seed (the chart's
// `bus.nodeAgentAuth: callout`) it also answers the bus's auth callout for those agents (docs/adr/0059).
import { bucketName, IMAGEPULL_POD_FIELDS, registrationKey } from '@regatta/bus';
import { KINDS } from '@regatta/api';
import { agentInstance, NODEIMAGE_KIND, REGISTRATION_CONTROLLER } from '@regatta/image-puller';
import {
  IMAGEPULL_FEATURE_GATES,
  imagePullJobReconcilerOf,
  imagePullSettings,
  imagePullWebhooks,
  isScheduledPod,
  jobsForNodeImageChange,
  jobsForPodChange,
  nodeImageForNodeChange,
  nodeImageReconcilerOf,
  nodeImagesForJobDelete,
} from '@regatta/imagepull';
import { ControllerBuilder, busAuthCallout, runControllers } from '@regatta/kit';

const settings = imagePullSettings();

const imagePullJobs = ControllerBuilder.controller({
  name: 'imagepulljob',
  eventComponent: 'imagepulljob-controller',
  featureGates: IMAGEPULL_FEATURE_GATES,
  maxConcurrentReconciles: 3,
})
  .for('imagepulljobs', KINDS.imagepulljobs, { predicates: [] }) // its status writes too: completion starts the TTL
  // podSelector jobs follow their pods' nodes; of the scheduled pods only the fields libs/imagepull reads
  // (docs/adr/0060-pod-projection.md); it never writes a pod
  .watches('pods', KINDS.pods, jobsForPodChange, { keep: isScheduledPod, project: IMAGEPULL_POD_FIELDS })
  .watches('nodeimages', KINDS.nodeimages, jobsForNodeImageChange)
  .webhooks(imagePullWebhooks) // ImagePullJob and NodeImage, mutating and validating
  .reconciler((ctx) => imagePullJobReconcilerOf(ctx, settings)); // off with ImagePullJobGate or KruiseDaemon

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
  .reconciler((ctx) => nodeImageReconcilerOf(ctx, settings)); // off with KruiseDaemon

// the node agents' auth callout, on every replica while the program runs (off without an issuer seed)
const nodeAgentAuth = busAuthCallout({
  bucket: bucketName(NODEIMAGE_KIND),
  registration: (node) => registrationKey(REGISTRATION_CONTROLLER, agentInstance(node)),
});

await runControllers('imagepull', [imagePullJobs, nodeImages], process.env, { alongside: [nodeAgentAuth] });
