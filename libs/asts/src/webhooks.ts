/**
 * Advanced StatefulSet admission: defaulting and validation (OpenKruise `pkg/webhook/statefulset/mutating` and
 * `validating`) through `@regatta/api`'s admission entries, as handlers for the runtime's WebhookServer, and the
 * configurations that register them. One path serves v1beta1 and v1alpha1 (one schema).
 */
import { type StatefulSet, statefulSetAdmissionDefaults, statefulSetAdmissionErrors } from '@regatta/api';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  type WebhookConfigurationPair,
  WORKLOAD_WEBHOOK_MATCH_CONDITIONS,
  fieldErrorCauses,
  invalid,
  workloadWebhookConfigurations,
} from '@regatta/runtime';

export const MUTATE_STATEFULSET_PATH = '/mutate-apps-kruise-io-v1beta1-statefulset';
export const VALIDATE_STATEFULSET_PATH = '/validate-apps-kruise-io-v1beta1-statefulset';

/** The mutating handler: OpenKruise's StatefulSet defaults (template defaults on CREATE or when the template changed). */
export function statefulSetDefaulter(): MutatingHandler<StatefulSet> {
  return (input: AdmissionInput<StatefulSet>) =>
    statefulSetAdmissionDefaults({
      operation: input.operation,
      object: input.object ?? null,
      oldObject: input.oldObject ?? null,
    });
}

/** The validating handler: every rule of `statefulSetAdmissionErrors`; 422 naming the fields. */
export function statefulSetValidator(): ValidatingHandler<StatefulSet> {
  return (input: AdmissionInput<StatefulSet>): ValidationResult => {
    const errors = statefulSetAdmissionErrors({
      operation: input.operation,
      object: input.object,
      oldObject: input.oldObject,
    });
    if (errors.length === 0) return { allowed: true };
    return invalid(
      {
        group: 'apps.kruise.io',
        kind: 'StatefulSet',
        name: input.name ?? input.object?.metadata?.name ?? '',
      },
      fieldErrorCauses(errors),
    );
  };
}

/** The CEL conditions under which the API server calls the webhooks (runtime's, shared by the workload kinds). */
export const STATEFULSET_WEBHOOK_MATCH_CONDITIONS = WORKLOAD_WEBHOOK_MATCH_CONDITIONS;

/** The Mutating- and ValidatingWebhookConfiguration objects for Advanced StatefulSets served at `baseUrl`. */
export function statefulSetWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  /** Only namespaces with these labels (REGATTA_NAMESPACE_SELECTOR); the configurations are then named after them. */
  namespaceScope?: { matchLabels: Record<string, string> },
): WebhookConfigurationPair {
  return workloadWebhookConfigurations(
    {
      controller: 'asts',
      resource: 'statefulsets',
      versions: ['v1alpha1', 'v1beta1'],
      mutating: { name: 'mstatefulset.kb.io', path: MUTATE_STATEFULSET_PATH },
      validating: { name: 'vstatefulset.kb.io', path: VALIDATE_STATEFULSET_PATH },
      // each version's object reaches the webhook as written (its own rules)
      matchPolicy: 'Exact',
    },
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
}
