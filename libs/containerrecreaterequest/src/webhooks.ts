/**
 * ContainerRecreateRequest admission (upstream `pkg/webhook/containerrecreaterequest/mutating/crr_mutating_handler.go`):
 * one mutating webhook. CREATE: the spec's rules, the defaults, then what the pod adds (it reads the pod from the API
 * server: it must exist, be active and bound to a node, and run every named container). UPDATE: the spec, the pod-uid
 * and node-name labels and a set unready-acquired annotation are immutable. Refusals are 422 with field paths.
 */
import {
  CRR_KIND,
  defaultCrr,
  injectPod,
  validateCrrSpec,
  validateCrrUpdate,
  type ContainerRecreateRequest,
  type Pod,
} from '@regatta/api';
import type { FieldError, KubeClient, KubeObject } from '@regatta/kube';
import {
  AdmissionDeniedError,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  NOT_BEING_DELETED,
  fieldErrorCauses,
  invalid,
  kindWebhookConfigurations,
} from '@regatta/runtime';

export const MUTATE_CRR_PATH = '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest';
export const VALIDATE_CRR_PATH = '/validate-apps-kruise-io-v1alpha1-containerrecreaterequest';

/** Reads a pod (undefined: not found). */
export type PodGetter = (namespace: string, name: string) => Promise<Pod | undefined>;

export function apiServerPods(client: KubeClient): PodGetter {
  return (namespace, name) =>
    client.getOrUndefined<Pod & KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace, name });
}

const deny = (
  crr: ContainerRecreateRequest | undefined,
  name: string | undefined,
  errors: FieldError[],
): never => {
  const result = invalid(
    { group: 'apps.kruise.io', kind: CRR_KIND, name: name ?? crr?.metadata?.name ?? '' },
    fieldErrorCauses(errors),
  );
  if (result.allowed) throw new TypeError('a refusal without field errors');
  throw new AdmissionDeniedError(result.status);
};

export function crrDefaulter(pods: PodGetter): MutatingHandler<ContainerRecreateRequest> {
  return async (input) => {
    const obj = input.object;
    if (!obj) return undefined;
    if (input.operation !== 'CREATE') return undefined;
    const errors = validateCrrSpec(obj);
    if (errors.length) deny(obj, input.name, errors);
    const defaulted = defaultCrr(obj);
    const namespace = input.namespace ?? obj.metadata?.namespace ?? '';
    const pod = await pods(namespace, obj.spec!.podName);
    const injected = injectPod(defaulted, pod);
    if (injected.errors.length) deny(obj, input.name, injected.errors);
    return injected.crr;
  };
}

/**
 * What the validating webhook checks after the defaults (upstream checks it all in its mutating handler): the spec's
 * rules on CREATE, the immutable fields on UPDATE.
 */
export function crrValidator(): ValidatingHandler<ContainerRecreateRequest> {
  return (input): ValidationResult => {
    const obj = input.object;
    if (!obj) return { allowed: true };
    const errors =
      input.operation === 'CREATE'
        ? validateCrrSpec(obj, { mutated: true })
        : input.operation === 'UPDATE' && input.oldObject
          ? validateCrrUpdate(input.oldObject, obj)
          : [];
    if (errors.length === 0) return { allowed: true };
    return invalid(
      { group: 'apps.kruise.io', kind: CRR_KIND, name: input.name ?? obj.metadata?.name ?? '' },
      fieldErrorCauses(errors),
    );
  };
}

/** The Mutating- and ValidatingWebhookConfiguration for ContainerRecreateRequests. */
export function crrWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): KubeObject[] {
  const { mutating, validating } = kindWebhookConfigurations(
    'containerrecreaterequest',
    [
      {
        resource: 'containerrecreaterequests',
        scope: 'Namespaced',
        versions: ['v1alpha1'],
        mutating: { name: 'mcontainerrecreaterequest.kb.io', path: MUTATE_CRR_PATH },
        validating: { name: 'vcontainerrecreaterequest.kb.io', path: VALIDATE_CRR_PATH },
        matchConditions: [NOT_BEING_DELETED],
      },
    ],
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
  return [mutating, validating];
}
