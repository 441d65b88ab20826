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
  WORKLOAD_WEBHOOK_MATCH_CONDITIONS,
} from '@regatta/runtime';
import {
  type WorkloadWebhookConfigurations,
  workloadDefaulter,
  workloadValidator,
  workloadWebhookConfigurationsOf,
} from '@regatta/workload';

export const MUTATE_CLONESET_PATH = '/mutate-apps-kruise-io-v1alpha1-cloneset';
export const VALIDATE_CLONESET_PATH = '/validate-apps-kruise-io-v1alpha1-cloneset';

/** Looks up a pod of the CloneSet's namespace (for `podsToDelete`); a cache read. */
export type PodLookup = (namespace: string, name: string) => KubeObject | null | undefined;

/** The mutating handler: OpenKruise's CloneSet defaults (template defaults on CREATE or when the template changed). */
export function cloneSetDefaulter(): MutatingHandler<CloneSet> {
  return workloadDefaulter<CloneSet>((cs, input) =>
    defaultCloneSetForAdmission(cs, input.oldObject ?? undefined),
  );
}

/** The validating handler: every rule of `validateCloneSet` / `validateCloneSetUpdate`; 422 naming the fields. */
export function cloneSetValidator(getPod?: PodLookup): ValidatingHandler<CloneSet> {
  const ctxOf = (cs: CloneSet, input: AdmissionInput<CloneSet>) => {
    const ns = input.namespace ?? cs.metadata?.namespace ?? '';
    return getPod ? { getPod: (name: string) => getPod(ns, name) } : {};
  };
  return workloadValidator<CloneSet>('CloneSet', {
    create: (cs, input) => validateCloneSet(cs, ctxOf(cs, input)),
    update: (cs, old, input) => validateCloneSetUpdate(cs, old, ctxOf(cs, input)),
  });
}

/** The CEL conditions under which the API server calls the webhooks (runtime's, shared by the workload kinds). */
export const CLONESET_WEBHOOK_MATCH_CONDITIONS = WORKLOAD_WEBHOOK_MATCH_CONDITIONS;

/** The Mutating- and ValidatingWebhookConfiguration objects for CloneSets served at `baseUrl`. */
export const cloneSetWebhookConfigurations: WorkloadWebhookConfigurations = workloadWebhookConfigurationsOf({
  controller: 'cloneset',
  resource: 'clonesets',
  versions: ['v1alpha1'],
  mutating: { name: 'mcloneset.kb.io', path: MUTATE_CLONESET_PATH },
  validating: { name: 'vcloneset.kb.io', path: VALIDATE_CLONESET_PATH },
});
