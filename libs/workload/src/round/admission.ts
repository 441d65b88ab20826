/**
 * The admission guard every workload kind serves (docs/adr/0072-one-workload-round.md; OpenKruise
 * `pkg/webhook/<kind>/validating`): the kind's rules on CREATE, its update rules on UPDATE, a 422 naming the fields
 * (`apps.kruise.io`); and the pair of webhook configurations that registers the kind (docs/adr/0013-webhook-ownership.md).
 * The rules themselves stay in `@regatta/api`; the reconciler re-checks the stored spec with the same rules
 * (`WorkloadRound.refused`).
 */
import type { FieldError, KubeObject } from '@regatta/kube';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  type WebhookConfigurationPair,
  type WorkloadWebhooks,
  fieldErrorCauses,
  invalid,
  workloadWebhookConfigurations,
} from '@regatta/runtime';

/** Allowed, or the 422 of an `apps.kruise.io` kind naming every field error. */
export function workloadAdmissionAnswer(
  kind: string,
  input: AdmissionInput<KubeObject>,
  errors: readonly FieldError[],
): ValidationResult {
  if (errors.length === 0) return { allowed: true };
  const name = input.name ?? input.object?.metadata?.name ?? '';
  return invalid({ group: 'apps.kruise.io', kind, name }, fieldErrorCauses(errors));
}

export interface WorkloadRules<T extends KubeObject> {
  create(obj: T, input: AdmissionInput<T>): readonly FieldError[];
  update(obj: T, old: T, input: AdmissionInput<T>): readonly FieldError[];
}

/** The validating handler of a kind: CREATE and UPDATE are checked, anything else is allowed. */
export function workloadValidator<T extends KubeObject>(
  kind: string,
  rules: WorkloadRules<T>,
): ValidatingHandler<T> {
  return (input: AdmissionInput<T>): ValidationResult => {
    const obj = input.object;
    if (!obj || (input.operation !== 'CREATE' && input.operation !== 'UPDATE')) return { allowed: true };
    const errors =
      input.operation === 'UPDATE' && input.oldObject
        ? rules.update(obj, input.oldObject, input)
        : rules.create(obj, input);
    return workloadAdmissionAnswer(kind, input, errors);
  };
}

/** The mutating handler of a kind: `defaults` on CREATE and UPDATE (the object as it should be written). */
export function workloadDefaulter<T extends KubeObject>(
  defaults: (obj: T, input: AdmissionInput<T>) => T | undefined,
): MutatingHandler<T> {
  return (input: AdmissionInput<T>) => {
    if (!input.object) return undefined;
    if (input.operation !== 'CREATE' && input.operation !== 'UPDATE') return undefined;
    return defaults(input.object, input);
  };
}

/** The kind's Mutating- and ValidatingWebhookConfiguration pair, served at `baseUrl` (namespace scope: REGATTA_NAMESPACE_SELECTOR). */
export type WorkloadWebhookConfigurations = (
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
) => WebhookConfigurationPair;

/** The configurations function of the kind `w` describes. */
export function workloadWebhookConfigurationsOf(w: WorkloadWebhooks): WorkloadWebhookConfigurations {
  return (baseUrl, caBundlePem, namespaceScope) =>
    workloadWebhookConfigurations(w, baseUrl, caBundlePem, namespaceScope);
}
