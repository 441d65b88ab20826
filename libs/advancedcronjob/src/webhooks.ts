/**
 * AdvancedCronJob admission: defaulting and validation (OpenKruise `pkg/webhook/advancedcronjob/mutating` and
 * `validating`, rules in `@regatta/api`), as handlers for the runtime's WebhookServer, and the configurations that
 * register them for both served versions (the same fields and rules).
 */
import { advancedCronJobAdmissionDefaults, validateAdvancedCronJob, validateAdvancedCronJobUpdate } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import type { MutatingHandler, ValidatingHandler } from '@regatta/runtime';
import {
  type WorkloadWebhookConfigurations,
  workloadDefaulter,
  workloadValidator,
  workloadWebhookConfigurationsOf,
} from '@regatta/workload';

export const MUTATE_ADVANCEDCRONJOB_PATH = '/mutate-apps-kruise-io-advancedcronjob';
export const VALIDATE_ADVANCEDCRONJOB_PATH = '/validate-apps-kruise-io-advancedcronjob';

export interface AdvancedCronJobDefaulterOptions {
  /** Feature gate `TemplateNoDefaults`: never inject the pod-spec defaults into the template. */
  templateNoDefaults?: boolean;
}

/** The mutating handler: OpenKruise's AdvancedCronJob defaults (the template's pod defaults on CREATE or a template change). */
export function advancedCronJobDefaulter(options: AdvancedCronJobDefaulterOptions = {}): MutatingHandler<KubeObject> {
  return workloadDefaulter((acj, input) =>
    advancedCronJobAdmissionDefaults(
      { operation: input.operation === 'UPDATE' ? 'UPDATE' : 'CREATE', object: acj, oldObject: input.oldObject },
      options.templateNoDefaults ? { templateNoDefaults: true } : {},
    ),
  );
}

/** The validating handler: `validateAdvancedCronJob` / `validateAdvancedCronJobUpdate`; 422 naming the fields. */
export function advancedCronJobValidator(): ValidatingHandler<KubeObject> {
  return workloadValidator('AdvancedCronJob', {
    create: (acj) => validateAdvancedCronJob(acj),
    update: (acj, old) => validateAdvancedCronJobUpdate(acj, old),
  });
}

/** The Mutating- and ValidatingWebhookConfiguration objects for AdvancedCronJobs served at `baseUrl`. */
export const advancedCronJobWebhookConfigurations: WorkloadWebhookConfigurations = workloadWebhookConfigurationsOf({
  controller: 'advancedcronjob',
  resource: 'advancedcronjobs',
  versions: ['v1alpha1', 'v1beta1'],
  mutating: { name: 'madvancedcronjob.kb.io', path: MUTATE_ADVANCEDCRONJOB_PATH },
  validating: { name: 'vadvancedcronjob.kb.io', path: VALIDATE_ADVANCEDCRONJOB_PATH },
});
