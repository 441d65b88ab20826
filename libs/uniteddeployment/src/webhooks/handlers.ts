/**
 * UnitedDeployment admission handlers for the runtime's WebhookServer (OpenKruise
 * `pkg/webhook/uniteddeployment/mutating` and `validating`; both served versions share the rules) and the
 * configurations that register them. Served by apps/uniteddeployment.
 */
import { type KubeObject } from '@regatta/kube';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  type WebhookConfigurationPair,
  Mutation,
  fieldErrorCauses,
  invalid,
  workloadWebhookConfigurations,
} from '@regatta/runtime';
import { defaultUnitedDeploymentForAdmission } from './defaults.js';
import {
  validateUnitedDeployment,
  validateUnitedDeploymentUpdate,
} from './validation.js';

export const MUTATE_UNITED_DEPLOYMENT_PATH = '/mutate-apps-kruise-io-uniteddeployment';
export const VALIDATE_UNITED_DEPLOYMENT_PATH = '/validate-apps-kruise-io-uniteddeployment';

export interface UnitedDeploymentWebhookGates {
  /** `TemplateNoDefaults` (default false). */
  templateNoDefaults?: boolean;
}

/** The mutating handler: shorthands with their warnings, then the defaults (`status` cleared). */
export function unitedDeploymentDefaulter(
  gates: UnitedDeploymentWebhookGates = {},
): MutatingHandler<KubeObject> {
  return (input: AdmissionInput<KubeObject>) => {
    if (!input.object || (input.operation !== 'CREATE' && input.operation !== 'UPDATE')) return undefined;
    const { object, warnings } = defaultUnitedDeploymentForAdmission(
      { operation: input.operation, object: input.object, oldObject: input.oldObject },
      { templateNoDefaults: gates.templateNoDefaults ?? false },
    );
    return new Mutation(object, warnings);
  };
}

/**
 * Every rule of `validateUnitedDeployment(Update)` (422 naming the fields). Deletion protection is the
 * deletionprotection program's and its ValidatingAdmissionPolicies' (libs/deletionprotection, docs/deletion-protection.md).
 */
export function unitedDeploymentValidator(): ValidatingHandler<KubeObject> {
  return (input: AdmissionInput<KubeObject>): ValidationResult => {
    const ud = input.object;
    if (!ud || (input.operation !== 'CREATE' && input.operation !== 'UPDATE')) return { allowed: true };
    const errors =
      input.operation === 'UPDATE' && input.oldObject
        ? validateUnitedDeploymentUpdate(ud, input.oldObject)
        : validateUnitedDeployment(ud);
    if (errors.length === 0) return { allowed: true };
    return invalid(
      { group: 'apps.kruise.io', kind: 'UnitedDeployment', name: input.name ?? ud.metadata?.name ?? '' },
      fieldErrorCauses(errors),
    );
  };
}

/** The Mutating- and ValidatingWebhookConfiguration for UnitedDeployments served at `baseUrl` (CREATE and UPDATE of both versions). */
export function unitedDeploymentWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): WebhookConfigurationPair {
  return workloadWebhookConfigurations(
    {
      controller: 'uniteddeployment',
      resource: 'uniteddeployments',
      versions: ['v1alpha1', 'v1beta1'],
      mutating: { name: 'muniteddeployment.kb.io', path: MUTATE_UNITED_DEPLOYMENT_PATH },
      validating: { name: 'vuniteddeployment.kb.io', path: VALIDATE_UNITED_DEPLOYMENT_PATH },
    },
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
}
