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
import { type FieldError, type KubeObject, fieldErrorBody } from '@regatta/kube';
import {
  type AdmissionInput,
  type MutatingHandler,
  type ValidatingHandler,
  type ValidationResult,
  invalid,
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

function toCauses(
  errors: readonly FieldError[],
): { type: string; field: string; message: string; reason: string }[] {
  return errors.map((e) => ({ type: e.type, reason: e.type, field: e.field, message: fieldErrorBody(e) }));
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
      toCauses(errors),
    );
  };
}

/**
 * CEL conditions (admissionregistration/v1 `matchConditions`, all must hold for the API server to call the webhook):
 * a CloneSet being deleted, and an update that leaves spec, labels and annotations alone (a finalizer removed, say),
 * are admitted without the webhook. So a dead controller (failurePolicy Fail) never blocks a deletion.
 */
export const CLONESET_WEBHOOK_MATCH_CONDITIONS = [
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

/** The Mutating- and ValidatingWebhookConfiguration objects for CloneSets served at `baseUrl`. */
export function cloneSetWebhookConfigurations(
  baseUrl: string,
  caBundlePem: string,
  /** Only namespaces with these labels (REGATTA_NAMESPACE_SELECTOR); the configurations are then named after them. */
  namespaceScope?: { matchLabels: Record<string, string> },
): { mutating: KubeObject & { webhooks: unknown[] }; validating: KubeObject & { webhooks: unknown[] } } {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const scoped = namespaceScope ? { namespaceSelector: { matchLabels: namespaceScope.matchLabels } } : {};
  const suffix = Object.values(namespaceScope?.matchLabels ?? {})
    .filter((v) => v !== '')
    .join('-');
  const name = namespaceScope ? `regatta-cloneset-${suffix || 'scoped'}` : 'regatta-cloneset';
  const common = {
    ...scoped,
    rules: [
      {
        apiGroups: ['apps.kruise.io'],
        apiVersions: ['v1alpha1'],
        operations: ['CREATE', 'UPDATE'],
        resources: ['clonesets'],
        scope: 'Namespaced',
      },
    ],
    matchConditions: CLONESET_WEBHOOK_MATCH_CONDITIONS.map((c) => ({ ...c })),
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
          name: 'mcloneset.kb.io',
          clientConfig: { url: `${baseUrl}${MUTATE_CLONESET_PATH}`, caBundle },
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
          name: 'vcloneset.kb.io',
          clientConfig: { url: `${baseUrl}${VALIDATE_CLONESET_PATH}`, caBundle },
          ...common,
        },
      ],
    },
  };
}
