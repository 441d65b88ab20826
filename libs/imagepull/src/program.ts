/**
 * The parts the image pre-warming program's declaration (apps/imagepull) names: which pods it caches, the ImagePullJob
 * and NodeImage webhooks, and the two reconcilers with their gates (off: a reconciler that does nothing, as upstream
 * leaves the controller out; docs/imagepull.md).
 */
import type { Tracer } from '@opentelemetry/api';
import { mutating, validating, type WebhookDeclaration } from '@regatta/kit';
import type { EventRecorder, KubeClient, KubeObject } from '@regatta/kube';
import type { Reconciler } from '@regatta/runtime';
import { imagePullJobsEnabled, type ImagePullFeatureGates } from './gates.js';
import { ImagePullJobReconciler, type Reader } from './job-reconciler.js';
import { NodeImageReconciler } from './nodeimage-reconciler.js';
import type { ImagePullSettings } from './settings.js';
import {
  MUTATE_IMAGEPULLJOB_PATH,
  MUTATE_NODEIMAGE_PATH,
  VALIDATE_IMAGEPULLJOB_PATH,
  VALIDATE_NODEIMAGE_PATH,
  imagePullJobDefaulter,
  imagePullJobValidator,
  imagePullWebhookConfigurations,
  nodeImageDefaulter,
  nodeImageValidator,
} from './webhooks.js';

/** A pod bound to a node: only those place a podSelector job's tags. */
export const isScheduledPod = (o: KubeObject): boolean =>
  !!(o as { spec?: { nodeName?: string } }).spec?.nodeName;

/** The ImagePullJob and NodeImage webhooks (both answer 403 while their gates are off). */
export function imagePullWebhooks({ gates }: { gates: ImagePullFeatureGates }): WebhookDeclaration {
  return {
    routes: [
      mutating(MUTATE_IMAGEPULLJOB_PATH, imagePullJobDefaulter()),
      validating(VALIDATE_IMAGEPULLJOB_PATH, imagePullJobValidator(gates)),
      mutating(MUTATE_NODEIMAGE_PATH, nodeImageDefaulter()),
      validating(VALIDATE_NODEIMAGE_PATH, nodeImageValidator(gates)),
    ],
    configurations: (url, ca, scope) => Object.values(imagePullWebhookConfigurations(url, ca, scope)),
  };
}

const idle: Reconciler = { reconcile: async () => ({}) };

/** The ImagePullJob controller (ImagePullJobGate and KruiseDaemon on), or one that does nothing. */
export function imagePullJobReconcilerOf(
  ctx: {
    readers: { imagepulljobs: Reader<KubeObject>; nodeimages: Reader<KubeObject>; pods: Reader<KubeObject> };
    client: KubeClient;
    recorder: Pick<EventRecorder, 'warning'>;
    gates: ImagePullFeatureGates;
    tracer: Tracer;
  },
  settings: ImagePullSettings,
): Reconciler {
  if (!imagePullJobsEnabled(ctx.gates)) return idle;
  return new ImagePullJobReconciler({
    ...ctx.readers,
    client: ctx.client,
    recorder: ctx.recorder, // InvalidSpec: a stored job that fails validation (docs/imagepull.md)
    tracer: ctx.tracer, // each job's root span (docs/adr/0046)
    daemonConfigNamespace: settings.daemonConfigNamespace,
    tagPolicy: settings,
  });
}

/** The NodeImage controller (KruiseDaemon on), or one that does nothing. */
export function nodeImageReconcilerOf(
  ctx: {
    readers: { nodes: Reader<KubeObject>; nodeimages: Reader<KubeObject>; imagepulljobs: Reader<KubeObject> };
    client: KubeClient;
    recorder: Pick<EventRecorder, 'warning'>;
    gates: ImagePullFeatureGates;
  },
  settings: ImagePullSettings,
): Reconciler {
  if (!ctx.gates.KruiseDaemon) return idle;
  return new NodeImageReconciler({ ...ctx.readers, client: ctx.client, recorder: ctx.recorder, ...settings });
}
