// The Mutating- and ValidatingWebhookConfiguration pair of one program: a mutating and a validating webhook for each
// kind it admits, on the kind's CREATE and UPDATE, fail closed. Namespaced kinds (the workloads, ImagePullJob) and
// cluster-scoped ones (SidecarSet, ResourceDistribution, NodeImage) differ only in how a namespace scope selects
// them. docs/adr/0013-webhook-ownership.md.
import type { KubeObject } from '@regatta/kube';

/** An admissionregistration/v1 `matchConditions` entry: the API server calls the webhook only when all hold. */
export interface WebhookMatchCondition {
  readonly name: string;
  readonly expression: string;
}

/** Objects being deleted are admitted without the webhook, so a dead controller never blocks a deletion. */
export const NOT_BEING_DELETED: WebhookMatchCondition = {
  name: 'not-being-deleted',
  expression: '!has(object.metadata.deletionTimestamp)',
};

/**
 * For kinds whose `spec` is optional (ImagePullJob, NodeImage, BroadcastJob), as the workload kinds' conditions
 * (docs/adr/0013-webhook-ownership.md): objects being deleted and updates that leave spec, labels and annotations
 * alone skip the webhooks; `has()` guards the absent spec.
 */
export const SPEC_OPTIONAL_WEBHOOK_MATCH_CONDITIONS = [
  NOT_BEING_DELETED,
  {
    name: 'changes-spec-or-metadata',
    expression:
      "request.operation != 'UPDATE' || " +
      '(has(object.spec) ? object.spec : {}) != (has(oldObject.spec) ? oldObject.spec : {}) || ' +
      '(has(object.metadata.labels) ? object.metadata.labels : {}) != ' +
      '(has(oldObject.metadata.labels) ? oldObject.metadata.labels : {}) || ' +
      '(has(object.metadata.annotations) ? object.metadata.annotations : {}) != ' +
      '(has(oldObject.metadata.annotations) ? oldObject.metadata.annotations : {})',
  },
] as const;

/** What differs between the kinds a program admits. */
export interface KindWebhooks {
  /** The `apps.kruise.io` resource (plural), e.g. `sidecarsets`. */
  resource: string;
  /**
   * `Namespaced`: a namespace scope selects the kind's objects by their namespace's labels (`namespaceSelector`).
   * `Cluster`: there is no namespace to select by, so the scope selects objects carrying its labels
   * (`objectSelector`), and a scoped program never gates another program's objects.
   */
  scope: 'Namespaced' | 'Cluster';
  versions: readonly string[];
  mutating: { name: string; path: string };
  validating: { name: string; path: string };
  matchConditions: readonly WebhookMatchCondition[];
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

/** `regatta-<controller>`, or, with a namespace scope, suffixed with its non-empty label values (`-scoped` if none). */
export function webhookConfigurationName(
  controller: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): string {
  if (!namespaceScope) return `regatta-${controller}`;
  const suffix = Object.values(namespaceScope.matchLabels)
    .filter((v) => v !== '')
    .join('-');
  return `regatta-${controller}-${suffix || 'scoped'}`;
}

/**
 * The pair named after `controller` (webhookConfigurationName) with one mutating and one validating webhook per kind
 * of `kinds`, served at `baseUrl` with `caBundlePem`. With a namespace scope (REGATTA_NAMESPACE_SELECTOR) each kind
 * is limited to the scope as its `scope` says.
 */
export function kindWebhookConfigurations(
  controller: string,
  kinds: readonly KindWebhooks[],
  baseUrl: string,
  caBundlePem: string,
  namespaceScope?: { matchLabels: Record<string, string> },
): WebhookConfigurationPair {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const name = webhookConfigurationName(controller, namespaceScope);
  const selector = (k: KindWebhooks) => {
    if (!namespaceScope) return {};
    const matchLabels = namespaceScope.matchLabels;
    return k.scope === 'Namespaced' ? { namespaceSelector: { matchLabels } } : { objectSelector: { matchLabels } };
  };
  const hook = (k: KindWebhooks, w: { name: string; path: string }) => ({
    name: w.name,
    clientConfig: { url: `${baseUrl}${w.path}`, caBundle },
    ...selector(k),
    rules: [
      {
        apiGroups: ['apps.kruise.io'],
        apiVersions: [...k.versions],
        operations: ['CREATE', 'UPDATE'],
        resources: [k.resource],
        scope: k.scope,
      },
    ],
    ...(k.matchPolicy ? { matchPolicy: k.matchPolicy } : {}),
    matchConditions: k.matchConditions.map((c) => ({ ...c })),
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 10,
  });
  return {
    mutating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name },
      webhooks: kinds.map((k) => ({ ...hook(k, k.mutating), reinvocationPolicy: 'Never' })),
    },
    validating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name },
      webhooks: kinds.map((k) => hook(k, k.validating)),
    },
  };
}
