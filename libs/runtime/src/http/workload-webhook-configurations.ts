// The Mutating- and ValidatingWebhookConfiguration pair every namespaced workload kind registers (CloneSet, Advanced
// StatefulSet, Advanced DaemonSet): one mutating and one validating webhook on the kind's CREATE and UPDATE, fail
// closed, skipped by CEL where the webhook has nothing to decide. docs/adr/0013-webhook-ownership.md.
import {
  NOT_BEING_DELETED,
  kindWebhookConfigurations,
  type WebhookConfigurationPair,
} from './kind-webhook-configurations.js';

/**
 * CEL conditions (admissionregistration/v1 `matchConditions`, all must hold for the API server to call the webhook):
 * an object being deleted, and an update that leaves spec, labels and annotations alone (a finalizer removed, say),
 * are admitted without the webhook. So a dead controller (failurePolicy Fail) never blocks a deletion.
 */
export const WORKLOAD_WEBHOOK_MATCH_CONDITIONS = [
  NOT_BEING_DELETED,
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
  const { controller, ...kind } = w;
  return kindWebhookConfigurations(
    controller,
    [{ ...kind, scope: 'Namespaced', matchConditions: WORKLOAD_WEBHOOK_MATCH_CONDITIONS }],
    baseUrl,
    caBundlePem,
    namespaceScope,
  );
}
