/**
 * The pod webhook's MutatingWebhookConfiguration, derived from the WorkloadSpreads (docs/adr/0081-workloadspread-
 * admission.md): one entry per WorkloadSpread, for pod CREATE in its namespace only (namespaceSelector on
 * `kubernetes.io/metadata.name`), its `targetFilter.selector` as the objectSelector, and a CEL matchCondition that
 * holds only for a pod whose controller is the target — a CloneSet, ReplicaSet, Job or StatefulSet by kind, API group
 * and name; a Deployment through its ReplicaSets' names, `<deployment>-<pod-template-hash>` (a new ReplicaSet of a
 * rollout is covered before anyone has seen it). The API server calls the webhook for those pods only: a pod of any
 * other workload is created without it, even while the program is down. The entries fail closed: a targeted pod is
 * never created outside its subsets.
 */
import { groupOf, type WorkloadSpread } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';

export const MUTATE_POD_PATH = '/mutate-pod-workloadspread';

const POD_RULES = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' }];

/** A CEL string literal. */
const lit = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A regular expression matching `s` literally. */
const quoteRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The CEL expression that holds for a pod whose controller is the spread's target. */
export function targetMatchExpression(ws: WorkloadSpread): string {
  const ref = ws.spec.targetRef;
  const group = groupOf(ref.apiVersion);
  const owner = (cond: string) =>
    `has(object.metadata.ownerReferences) && object.metadata.ownerReferences.exists(r, has(r.controller) && r.controller && ${cond})`;
  const apiGroup = (g: string) => (g === '' ? `!r.apiVersion.contains('/')` : `r.apiVersion.startsWith(${lit(`${g}/`)})`);
  if (ref.kind === 'Deployment') {
    return owner(`r.kind == 'ReplicaSet' && ${apiGroup('apps')} && r.name.matches(${lit(`^${quoteRe(ref.name)}-[a-z0-9]+$`)})`);
  }
  return owner(`r.kind == ${lit(ref.kind)} && ${apiGroup(group)} && r.name == ${lit(ref.name)}`);
}

/** The entry's name: `<spread>.<namespace>.workloadspread.pods.regatta.kruise.io` (unique per spread). */
export function entryName(ws: WorkloadSpread): string {
  return `${ws.metadata?.name ?? ''}.${ws.metadata?.namespace ?? ''}.workloadspread.pods.regatta.kruise.io`;
}

/** The configuration's name: `regatta-workloadspread-pods` (suffixed with the scope's values when scoped). */
export function podWebhookConfigurationName(scope?: { matchLabels: Record<string, string> }): string {
  if (!scope) return 'regatta-workloadspread-pods';
  const suffix = Object.values(scope.matchLabels).filter(Boolean).join('-');
  return `regatta-workloadspread-pods-${suffix || 'scoped'}`;
}

/** Whether a spread has a usable target (the webhook entry needs one). */
export function hasTarget(ws: WorkloadSpread): boolean {
  const ref = ws.spec?.targetRef;
  return !!ref?.name && !!ref.kind && !!ref.apiVersion && !ws.metadata?.deletionTimestamp;
}

/** The MutatingWebhookConfiguration for the spreads as they are now (an entry each, sorted by name). */
export function podWebhookConfiguration(
  spreads: readonly WorkloadSpread[],
  baseUrl: string,
  caBundlePem: string,
  scope?: { matchLabels: Record<string, string> },
): KubeObject & { webhooks?: Record<string, unknown>[] } {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const seen = new Set<string>();
  const webhooks = [...spreads]
    .filter(hasTarget)
    .map((ws) => ({ ws, name: entryName(ws) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .filter(({ name }) => !seen.has(name) && !!seen.add(name))
    .map(({ ws, name }) => ({
      name,
      clientConfig: { url: `${baseUrl}${MUTATE_POD_PATH}`, caBundle },
      rules: POD_RULES,
      // a targeted pod waits for its subset rather than being created outside the spread (docs/adr/0081)
      failurePolicy: 'Fail',
      sideEffects: 'NoneOnDryRun',
      admissionReviewVersions: ['v1'],
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
      namespaceSelector: {
        ...(scope ? { matchLabels: scope.matchLabels } : {}),
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [ws.metadata?.namespace ?? ''] }],
      },
      ...(ws.spec.targetFilter?.selector ? { objectSelector: ws.spec.targetFilter.selector } : {}),
      matchConditions: [{ name: 'controlled-by-target', expression: targetMatchExpression(ws) }],
    }));
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: podWebhookConfigurationName(scope) },
    // none: the field is left out, as the API server returns it (the keeper compares with what it reads, and an apply
    // without the field removes the entries it applied before)
    ...(webhooks.length > 0 ? { webhooks } : {}),
  };
}
