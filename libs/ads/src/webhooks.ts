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
import { type FieldError, type KubeObject, fieldErrorBody } from '@regatta/kube';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  invalid,
} from '@regatta/runtime';

export const MUTATE_DAEMONSET_PATH = '/mutate-apps-kruise-io-v1beta1-daemonset';
export const VALIDATE_DAEMONSET_PATH = '/validate-apps-kruise-io-v1beta1-daemonset';

function versionOf(input: AdmissionInput<unknown>): DaemonSetVersion {
  return input.kind.version === 'v1alpha1' ? 'v1alpha1' : 'v1beta1';
}

/** The mutating handler: OpenKruise's DaemonSet defaults (the pod template is never defaulted). */
export function daemonSetDefaulter(): MutatingHandler<KubeObject> {
  return (input: AdmissionInput<KubeObject>) => {
    if (!input.object) return undefined;
    if (input.operation !== 'CREATE' && input.operation !== 'UPDATE') return undefined;
    return defaultDaemonSet(input.object, versionOf(input));
  };
}

function toCauses(
  errors: readonly FieldError[],
): { type: string; field: string; message: string; reason: string }[] {
  return errors.map((e) => ({ type: e.type, reason: e.type, field: e.field, message: fieldErrorBody(e) }));
}

/** The validating handler: every rule of `validateDaemonSet` / `validateDaemonSetUpdate`; 422 naming the fields. */
export function daemonSetValidator(): ValidatingHandler<KubeObject> {
  return (input: AdmissionInput<KubeObject>): ValidationResult => {
    const ds = input.object;
    if (!ds || (input.operation !== 'CREATE' && input.operation !== 'UPDATE')) return { allowed: true };
    const version = versionOf(input);
    const errors =
      input.operation === 'UPDATE' && input.oldObject
        ? validateDaemonSetUpdate(ds, input.oldObject, { version })
        : validateDaemonSet(ds, { version });
    if (errors.length === 0) return { allowed: true };
    return invalid(
      { group: 'apps.kruise.io', kind: 'DaemonSet', name: input.name ?? ds.metadata?.name ?? '' },
      toCauses(errors),
    );
  };
}

/**
 * CEL conditions (all must hold for the API server to call the webhook): a DaemonSet being deleted, and an update
 * that leaves spec, labels and annotations alone, are admitted without the webhook, so a dead controller
 * (failurePolicy Fail) never blocks a deletion.
 */
export const DAEMONSET_WEBHOOK_MATCH_CONDITIONS = [
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

/** The Mutating- and ValidatingWebhookConfiguration objects for DaemonSets served at `baseUrl`. */
export function daemonSetWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): { mutating: KubeObject & { webhooks: unknown[] }; validating: KubeObject & { webhooks: unknown[] } } {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const scoped = namespaceScope ? { namespaceSelector: { matchLabels: namespaceScope.matchLabels } } : {};
  const suffix = Object.values(namespaceScope?.matchLabels ?? {})
    .filter((v) => v !== '')
    .join('-');
  const name = namespaceScope ? `regatta-ads-${suffix || 'scoped'}` : 'regatta-ads';
  const common = {
    ...scoped,
    rules: [
      {
        apiGroups: ['apps.kruise.io'],
        apiVersions: ['v1alpha1', 'v1beta1'],
        operations: ['CREATE', 'UPDATE'],
        resources: ['daemonsets'],
        scope: 'Namespaced',
      },
    ],
    matchConditions: DAEMONSET_WEBHOOK_MATCH_CONDITIONS.map((c) => ({ ...c })),
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 10,
    // each version's object reaches the webhook as written (its own rules: v1alpha1 Surging, daemonSetHash)
    matchPolicy: 'Exact',
  };
  return {
    mutating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name },
      webhooks: [
        {
          name: 'mdaemonset.kb.io',
          clientConfig: { url: `${baseUrl}${MUTATE_DAEMONSET_PATH}`, caBundle },
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
          name: 'vdaemonset.kb.io',
          clientConfig: { url: `${baseUrl}${VALIDATE_DAEMONSET_PATH}`, caBundle },
          ...common,
        },
      ],
    },
  };
}
