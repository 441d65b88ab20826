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
/** Per-spread entries beyond which one entry serves the spreads' namespaces (as SidecarSet's, docs/adr/0026). */
export const MAX_POD_WEBHOOK_ENTRIES = 200;
/** Their JSON size beyond which the same happens (etcd stores 1.5 MiB at most). */
export const MAX_POD_WEBHOOK_ENTRIES_BYTES = 512 * 1024;
/** The one entry past those bounds. */
export const ALL_SPREADS_ENTRY = 'all.workloadspread.pods.regatta.kruise.io';

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

/**
 * The CEL expression of the one entry past the bounds: the pod's controller is of a kind some spread targets (a
 * Deployment's pods through their ReplicaSet); the handler finds the spread itself (`spreadForPod`).
 */
export function targetKindsExpression(spreads: readonly WorkloadSpread[]): string {
  const kinds = [...new Set(spreads.map((ws) => (ws.spec.targetRef.kind === 'Deployment' ? 'ReplicaSet' : ws.spec.targetRef.kind)))].sort();
  return `has(object.metadata.ownerReferences) && object.metadata.ownerReferences.exists(r, has(r.controller) && r.controller && r.kind in [${kinds.map(lit).join(', ')}])`;
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
  const entry = (name: string, namespaces: string[], narrow: Record<string, unknown>) => ({
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
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: namespaces }],
    },
    ...narrow,
  });
  const seen = new Set<string>();
  const targeted = [...spreads].filter(hasTarget);
  let webhooks = targeted
    .map((ws) => ({ ws, name: entryName(ws) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .filter(({ name }) => !seen.has(name) && !!seen.add(name))
    .map(({ ws, name }) =>
      entry(name, [ws.metadata?.namespace ?? ''], {
        ...(ws.spec.targetFilter?.selector ? { objectSelector: ws.spec.targetFilter.selector } : {}),
        matchConditions: [{ name: 'controlled-by-target', expression: targetMatchExpression(ws) }],
      }),
    );
  // past the bounds, one entry: the pods of the targeted kinds in the spreads' namespaces (docs/adr/0081 "Bounded")
  if (webhooks.length > MAX_POD_WEBHOOK_ENTRIES || Buffer.byteLength(JSON.stringify(webhooks)) > MAX_POD_WEBHOOK_ENTRIES_BYTES) {
    const namespaces = [...new Set(targeted.map((ws) => ws.metadata?.namespace ?? ''))].sort();
    const expression = targetKindsExpression(targeted);
    webhooks = [entry(ALL_SPREADS_ENTRY, namespaces, { matchConditions: [{ name: 'controlled-by-targeted-kind', expression }] })];
  }
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: podWebhookConfigurationName(scope) },
    // none: the field is left out, as the API server returns it (the keeper compares with what it reads, and an apply
    // without the field removes the entries it applied before)
    ...(webhooks.length > 0 ? { webhooks } : {}),
  };
}
