/**
 * Advanced DaemonSet admission: defaulting and validation (OpenKruise `pkg/webhook/daemonset/mutating` and
 * `validating`, rules in `@regatta/api`), as handlers for the runtime's WebhookServer, and the configurations that
 * register them for both served versions (the request's version says which version's rules apply).
 */
import {
  type DaemonSetVersion,
  defaultDaemonSet,
  validateDaemonSet,
  validateDaemonSetUpdate,
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

export const MUTATE_DAEMONSET_PATH = '/mutate-apps-kruise-io-v1beta1-daemonset';
export const VALIDATE_DAEMONSET_PATH = '/validate-apps-kruise-io-v1beta1-daemonset';

function versionOf(input: AdmissionInput<unknown>): DaemonSetVersion {
  return input.kind.version === 'v1alpha1' ? 'v1alpha1' : 'v1beta1';
}

/** The mutating handler: OpenKruise's DaemonSet defaults (the pod template is never defaulted). */
export function daemonSetDefaulter(): MutatingHandler<KubeObject> {
  return workloadDefaulter((ds, input) => defaultDaemonSet(ds, versionOf(input)));
}

/** The validating handler: every rule of `validateDaemonSet` / `validateDaemonSetUpdate`; 422 naming the fields. */
export function daemonSetValidator(): ValidatingHandler<KubeObject> {
  return workloadValidator('DaemonSet', {
    create: (ds, input) => validateDaemonSet(ds, { version: versionOf(input) }),
    update: (ds, old, input) => validateDaemonSetUpdate(ds, old, { version: versionOf(input) }),
  });
}

/** The CEL conditions under which the API server calls the webhooks (runtime's, shared by the workload kinds). */
export const DAEMONSET_WEBHOOK_MATCH_CONDITIONS = WORKLOAD_WEBHOOK_MATCH_CONDITIONS;

/** The Mutating- and ValidatingWebhookConfiguration objects for Advanced DaemonSets served at `baseUrl`. */
export const daemonSetWebhookConfigurations: WorkloadWebhookConfigurations = workloadWebhookConfigurationsOf({
  controller: 'ads',
  resource: 'daemonsets',
  versions: ['v1alpha1', 'v1beta1'],
  mutating: { name: 'mdaemonset.kb.io', path: MUTATE_DAEMONSET_PATH },
  validating: { name: 'vdaemonset.kb.io', path: VALIDATE_DAEMONSET_PATH },
  // each version's object reaches the webhook as written (its own rules)
  matchPolicy: 'Exact',
});
