/**
 * Advanced StatefulSet admission: defaulting and validation (OpenKruise `pkg/webhook/statefulset/mutating` and
 * `validating`) through `@regatta/api`'s admission entries, as handlers for the runtime's WebhookServer, and the
 * configurations that register them. One path serves v1beta1 and v1alpha1 (one schema).
 */
import { type StatefulSet, statefulSetAdmissionDefaults, statefulSetAdmissionErrors } from '@regatta/api';
import { type FieldError, type KubeObject, fieldErrorBody } from '@regatta/kube';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  invalid,
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

function toCauses(
  errors: readonly FieldError[],
): { type: string; field: string; message: string; reason: string }[] {
  return errors.map((e) => ({ type: e.type, reason: e.type, field: e.field, message: fieldErrorBody(e) }));
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
      toCauses(errors),
    );
  };
}

/**
 * CEL conditions (all must hold for the API server to call the webhook): a set being deleted, and an update that
 * leaves spec, labels and annotations alone, are admitted without the webhook (a dead controller never blocks them).
 */
export const STATEFULSET_WEBHOOK_MATCH_CONDITIONS = [
  { name: 'not-being-deleted', expression: '!has(object.metadata.deletionTimestamp)' },
  {
    name: 'changes-spec-or-metadata',
    expression:
      "request.operation != 'UPDATE' || object.spec != oldObject.spec || " +
      '(has(object.metadata.labels) ? object.metadata.labels : {}) != ' +
      '(has(oldObject.metadata.labels) ? oldObject.metadata.labels : {}) || ' +
      '(has(object.metadata.annotations) ? object.metadata.annotations : {}) != ' +
      '(has(oldObject.metadata.annotations) ? oldObject.metadata.annotations : {})',
  },
] as const;

/** The Mutating- and ValidatingWebhookConfiguration objects for Advanced StatefulSets served at `baseUrl`. */
export function statefulSetWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): { mutating: KubeObject & { webhooks: unknown[] }; validating: KubeObject & { webhooks: unknown[] } } {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const scoped = namespaceScope ? { namespaceSelector: { matchLabels: namespaceScope.matchLabels } } : {};
  const suffix = Object.values(namespaceScope?.matchLabels ?? {})
    .filter((v) => v !== '')
    .join('-');
  const name = namespaceScope ? `regatta-asts-${suffix || 'scoped'}` : 'regatta-asts';
  const common = {
    ...scoped,
    rules: [
      {
        apiGroups: ['apps.kruise.io'],
        apiVersions: ['v1alpha1', 'v1beta1'],
        operations: ['CREATE', 'UPDATE'],
        resources: ['statefulsets'],
        scope: 'Namespaced',
      },
    ],
    matchConditions: STATEFULSET_WEBHOOK_MATCH_CONDITIONS.map((c) => ({ ...c })),
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 10,
  };
  return {
    mutating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name },
      webhooks: [
        {
          name: 'mstatefulset.kb.io',
          clientConfig: { url: `${baseUrl}${MUTATE_STATEFULSET_PATH}`, caBundle },
          reinvocationPolicy: 'Never',
          ...common,
        },
      ],
    },
    validating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name },
      webhooks: [
        {
          name: 'vstatefulset.kb.io',
          clientConfig: { url: `${baseUrl}${VALIDATE_STATEFULSET_PATH}`, caBundle },
          ...common,
        },
      ],
    },
  };
}
