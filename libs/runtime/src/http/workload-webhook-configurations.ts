// The Mutating- and ValidatingWebhookConfiguration pair every namespaced workload kind registers (CloneSet, Advanced
// StatefulSet, Advanced DaemonSet): one mutating and one validating webhook on the kind's CREATE and UPDATE, fail
// closed, skipped by CEL where the webhook has nothing to decide. docs/adr/0013-webhook-ownership.md.
import type { KubeObject } from '@regatta/kube';

/**
 * CEL conditions (admissionregistration/v1 `matchConditions`, all must hold for the API server to call the webhook):
 * an object being deleted, and an update that leaves spec, labels and annotations alone (a finalizer removed, say),
 * are admitted without the webhook. So a dead controller (failurePolicy Fail) never blocks a deletion.
 */
export const WORKLOAD_WEBHOOK_MATCH_CONDITIONS = [
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

/** What differs between the workload kinds' webhook configurations. */
export interface WorkloadWebhooks {
  /** The controller's name: the configurations are `regatta-<controller>` (suffixed with the scope's labels). */
  controller: string;
  /** The `apps.kruise.io` resource, e.g. `clonesets`. */
  resource: string;
  versions: readonly string[];
  mutating: { name: string; path: string };
  validating: { name: string; path: string };
  /**
   * `Exact` when each served version has rules of its own, so the object reaches the webhook as written rather than
   * converted; the API server's default (`Equivalent`) otherwise.
   */
  matchPolicy?: 'Exact';
}

export interface WebhookConfigurationPair {
  mutating: KubeObject & { webhooks: unknown[] };
  validating: KubeObject & { webhooks: unknown[] };
}

/**
 * The pair for `w` served at `baseUrl` with `caBundlePem`. With a namespace scope (REGATTA_NAMESPACE_SELECTOR) only
 * namespaces carrying its labels are covered, and the configurations are named after those labels.
 */
export function workloadWebhookConfigurations(
  w: WorkloadWebhooks,
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): WebhookConfigurationPair {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const suffix = Object.values(namespaceScope?.matchLabels ?? {})
    .filter((v) => v !== '')
    .join('-');
  const name = namespaceScope ? `regatta-${w.controller}-${suffix || 'scoped'}` : `regatta-${w.controller}`;
  const common = {
    ...(namespaceScope ? { namespaceSelector: { matchLabels: namespaceScope.matchLabels } } : {}),
    rules: [
      {
        apiGroups: ['apps.kruise.io'],
        apiVersions: [...w.versions],
        operations: ['CREATE', 'UPDATE'],
        resources: [w.resource],
        scope: 'Namespaced',
      },
    ],
    ...(w.matchPolicy ? { matchPolicy: w.matchPolicy } : {}),
    matchConditions: WORKLOAD_WEBHOOK_MATCH_CONDITIONS.map((c) => ({ ...c })),
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 10,
  };
  const clientConfig = (path: string) => ({ url: `${baseUrl}${path}`, caBundle });
  return {
    mutating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name },
      webhooks: [
        {
          name: w.mutating.name,
          clientConfig: clientConfig(w.mutating.path),
          reinvocationPolicy: 'Never',
          ...common,
        },
      ],
    },
    validating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name },
      webhooks: [{ name: w.validating.name, clientConfig: clientConfig(w.validating.path), ...common }],
    },
  };
}
