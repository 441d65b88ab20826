/**
 * BroadcastJob admission (OpenKruise `pkg/webhook/broadcastjob/mutating` and `validating`) as handlers for the
 * runtime's WebhookServer, and the configurations registering both versions.
 */
import {
  type BroadcastJob,
  broadcastJobAdmissionDefaults,
  validateBroadcastJobAdmission,
} from '@regatta/api';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type WebhookConfigurationPair,
  fieldErrorCauses,
  invalid,
  kindWebhookConfigurations,
  SPEC_OPTIONAL_WEBHOOK_MATCH_CONDITIONS,
} from '@regatta/runtime';

export const MUTATE_BROADCASTJOB_PATH = '/mutate-apps-kruise-io-v1beta1-broadcastjob';
export const VALIDATE_BROADCASTJOB_PATH = '/validate-apps-kruise-io-v1beta1-broadcastjob';

/** Deletions and updates that leave spec, labels and annotations alone skip the webhooks (docs/adr/0013). */
export const BROADCASTJOB_WEBHOOK_MATCH_CONDITIONS = SPEC_OPTIONAL_WEBHOOK_MATCH_CONDITIONS;

const writes = (input: AdmissionInput<unknown>) => input.operation === 'CREATE' || input.operation === 'UPDATE';

export interface BroadcastJobWebhookOptions {
  /** Feature gate `TemplateNoDefaults`. */
  templateNoDefaults?: boolean;
}

export function broadcastJobDefaulter(options: BroadcastJobWebhookOptions = {}): MutatingHandler<BroadcastJob> {
  return (input) => {
    if (!input.object || !writes(input)) return undefined;
    return broadcastJobAdmissionDefaults(
      {
        operation: input.operation as 'CREATE' | 'UPDATE',
        object: input.object,
        ...(input.oldObject ? { oldObject: input.oldObject } : {}),
      },
      options,
    );
  };
}

export function broadcastJobValidator(): ValidatingHandler<BroadcastJob> {
  return (input) => {
    if (!writes(input) || !input.object) return { allowed: true };
    const errors = validateBroadcastJobAdmission({ operation: input.operation as 'CREATE' | 'UPDATE', object: input.object });
    if (errors.length === 0) return { allowed: true };
    return invalid(
      { group: 'apps.kruise.io', kind: 'BroadcastJob', name: input.name ?? input.object.metadata?.name ?? '' },
      fieldErrorCauses(errors),
    );
  };
}

/** One Mutating- and one ValidatingWebhookConfiguration `regatta-broadcastjob`: both versions, CREATE and UPDATE. */
export function broadcastJobWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): WebhookConfigurationPair {
  return kindWebhookConfigurations(
    'broadcastjob',
    [
      {
        resource: 'broadcastjobs',
        scope: 'Namespaced',
        versions: ['v1alpha1', 'v1beta1'],
        mutating: { name: 'mbroadcastjob.kb.io', path: MUTATE_BROADCASTJOB_PATH },
        validating: { name: 'vbroadcastjob.kb.io', path: VALIDATE_BROADCASTJOB_PATH },
        matchConditions: BROADCASTJOB_WEBHOOK_MATCH_CONDITIONS,
        matchPolicy: 'Exact',
      },
    ],
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
}
