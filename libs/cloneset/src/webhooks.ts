/**
 * CloneSet admission: defaulting and validation (OpenKruise `pkg/webhook/cloneset/validating` and `mutating`), as
 * handlers for the runtime's WebhookServer, and the configurations that register them.
 */
import {
  type CloneSet,
  defaultCloneSetForAdmission,
  validateCloneSet,
  validateCloneSetUpdate,
} from '@regatta/api';
import { type KubeObject } from '@regatta/kube';
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

export const MUTATE_CLONESET_PATH = '/mutate-apps-kruise-io-v1alpha1-cloneset';
export const VALIDATE_CLONESET_PATH = '/validate-apps-kruise-io-v1alpha1-cloneset';

/** Looks up a pod of the CloneSet's namespace (for `podsToDelete`); a cache read. */
export type PodLookup = (namespace: string, name: string) => KubeObject | null | undefined;

/** The mutating handler: OpenKruise's CloneSet defaults (template defaults on CREATE or when the template changed). */
export function cloneSetDefaulter(): MutatingHandler<CloneSet> {
  return (input: AdmissionInput<CloneSet>) => {
    if (!input.object) return undefined;
    if (input.operation !== 'CREATE' && input.operation !== 'UPDATE') return undefined;
    return defaultCloneSetForAdmission(input.object, input.oldObject ?? undefined);
  };
}

/** The validating handler: every rule of `validateCloneSet` / `validateCloneSetUpdate`; 422 naming the fields. */
export function cloneSetValidator(getPod?: PodLookup): ValidatingHandler<CloneSet> {
  return (input: AdmissionInput<CloneSet>): ValidationResult => {
    const cs = input.object;
    if (!cs || (input.operation !== 'CREATE' && input.operation !== 'UPDATE')) return { allowed: true };
    const ns = input.namespace ?? cs.metadata?.namespace ?? '';
    const ctx = getPod ? { getPod: (name: string) => getPod(ns, name) } : {};
    const errors =
      input.operation === 'UPDATE' && input.oldObject
        ? validateCloneSetUpdate(cs, input.oldObject, ctx)
        : validateCloneSet(cs, ctx);
    if (errors.length === 0) return { allowed: true };
    return invalid(
      { group: 'apps.kruise.io', kind: 'CloneSet', name: input.name ?? cs.metadata?.name ?? '' },
      fieldErrorCauses(errors),
    );
  };
}

/** The CEL conditions under which the API server calls the webhooks (runtime's, shared by the workload kinds). */
export const CLONESET_WEBHOOK_MATCH_CONDITIONS = WORKLOAD_WEBHOOK_MATCH_CONDITIONS;

/** The Mutating- and ValidatingWebhookConfiguration objects for CloneSets served at `baseUrl`. */
export function cloneSetWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  /** Only namespaces with these labels (REGATTA_NAMESPACE_SELECTOR); the configurations are then named after them. */
  namespaceScope?: { matchLabels: Record<string, string> },
): WebhookConfigurationPair {
  return workloadWebhookConfigurations(
    {
      controller: 'cloneset',
      resource: 'clonesets',
      versions: ['v1alpha1'],
      mutating: { name: 'mcloneset.kb.io', path: MUTATE_CLONESET_PATH },
      validating: { name: 'vcloneset.kb.io', path: VALIDATE_CLONESET_PATH },
    },
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
}
