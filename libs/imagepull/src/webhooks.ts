/**
 * ImagePullJob and NodeImage admission (OpenKruise `pkg/webhook/imagepulljob`, `pkg/webhook/nodeimage`) as handlers
 * for the runtime's WebhookServer, and one pair of configurations registering both kinds and both versions. With
 * `KruiseDaemon` or `ImagePullJobGate` off every ImagePullJob create/update is answered 403 "feature-gate … is not
 * enabled", as upstream.
 */
import type { ImagePullJob, NodeImage } from '@regatta/api';
import {
  fieldErrorCauses,
  invalid,
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  type KindWebhooks,
  type WebhookConfigurationPair,
  kindWebhookConfigurations,
  SPEC_OPTIONAL_WEBHOOK_MATCH_CONDITIONS,
} from '@regatta/runtime';
import {
  defaultImagePullJob,
  defaultNodeImage,
  validateImagePullJob,
  validateImagePullJobUpdate,
  validateNodeImage,
} from './admission.js';
import type { ImagePullFeatureGates } from './gates.js';

export const MUTATE_IMAGEPULLJOB_PATH = '/mutate-apps-kruise-io-v1beta1-imagepulljob';
export const VALIDATE_IMAGEPULLJOB_PATH = '/validate-apps-kruise-io-v1beta1-imagepulljob';
export const MUTATE_NODEIMAGE_PATH = '/mutate-apps-kruise-io-v1beta1-nodeimage';
export const VALIDATE_NODEIMAGE_PATH = '/validate-apps-kruise-io-v1beta1-nodeimage';

/** Deletions and updates that leave spec, labels and annotations alone skip the webhooks (docs/adr/0013). */
export const IMAGEPULL_WEBHOOK_MATCH_CONDITIONS = SPEC_OPTIONAL_WEBHOOK_MATCH_CONDITIONS;

const writes = (input: AdmissionInput<unknown>) => input.operation === 'CREATE' || input.operation === 'UPDATE';

/** 403 `feature-gate <gate> is not enabled`. */
export function gateForbidden(gate: string): ValidationResult {
  return {
    allowed: false,
    status: { code: 403, reason: 'Forbidden', message: `feature-gate ${gate} is not enabled` },
  };
}

export function imagePullJobDefaulter(): MutatingHandler<ImagePullJob> {
  return (input) => {
    if (!input.object || !writes(input)) return undefined;
    return defaultImagePullJob(input.object, { create: input.operation === 'CREATE' });
  };
}

export function imagePullJobValidator(gates: ImagePullFeatureGates): ValidatingHandler<ImagePullJob> {
  return (input) => {
    if (!writes(input)) return { allowed: true };
    if (!gates.KruiseDaemon) return gateForbidden('KruiseDaemon');
    if (!gates.ImagePullJobGate) return gateForbidden('ImagePullJobGate');
    const job = input.object;
    if (!job) return { allowed: true };
    const errors =
      input.operation === 'UPDATE' && input.oldObject
        ? validateImagePullJobUpdate(job, input.oldObject)
        : validateImagePullJob(job);
    if (errors.length === 0) return { allowed: true };
    return invalid(
      { group: 'apps.kruise.io', kind: 'ImagePullJob', name: input.name ?? job.metadata?.name ?? '' },
      fieldErrorCauses(errors),
    );
  };
}

export function nodeImageDefaulter(now: () => Date = () => new Date()): MutatingHandler<NodeImage> {
  return (input) => {
    if (!input.object || !writes(input)) return undefined;
    return defaultNodeImage(input.object, now());
  };
}

export function nodeImageValidator(gates: ImagePullFeatureGates): ValidatingHandler<NodeImage> {
  return (input) => {
    if (!writes(input) || !input.object) return { allowed: true };
    if (!gates.KruiseDaemon) return gateForbidden('KruiseDaemon');
    const errors = validateNodeImage(input.object);
    if (errors.length === 0) return { allowed: true };
    return invalid(
      { group: 'apps.kruise.io', kind: 'NodeImage', name: input.name ?? input.object.metadata?.name ?? '' },
      fieldErrorCauses(errors),
    );
  };
}

/**
 * One Mutating- and one ValidatingWebhookConfiguration `regatta-imagepull` with a webhook per kind: ImagePullJob
 * (namespaced; limited to the namespace scope when there is one) and NodeImage (cluster-scoped), both versions,
 * CREATE and UPDATE of the main resource (status writes of the pullers are not intercepted). Under a namespace scope
 * the NodeImage webhooks only see NodeImages labelled with the scope's labels.
 */
export function imagePullWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): WebhookConfigurationPair {
  const kind = (resource: string, scope: KindWebhooks['scope'], mutating: string, validating: string) => ({
    resource,
    scope,
    versions: ['v1alpha1', 'v1beta1'],
    mutating: { name: `m${resource.slice(0, -1)}.kb.io`, path: mutating },
    validating: { name: `v${resource.slice(0, -1)}.kb.io`, path: validating },
    matchConditions: IMAGEPULL_WEBHOOK_MATCH_CONDITIONS,
    matchPolicy: 'Exact' as const,
  });
  // a scoped program (REGATTA_NAMESPACE_SELECTOR) answers for its namespaces' jobs, and for the NodeImages that carry
  // its scope labels only: a scoped program that stops must not leave every NodeImage write failing on its webhook
  return kindWebhookConfigurations(
    'imagepull',
    [
      kind('imagepulljobs', 'Namespaced', MUTATE_IMAGEPULLJOB_PATH, VALIDATE_IMAGEPULLJOB_PATH),
      kind('nodeimages', 'Cluster', MUTATE_NODEIMAGE_PATH, VALIDATE_NODEIMAGE_PATH),
    ],
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
}
