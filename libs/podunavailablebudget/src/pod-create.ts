/**
 * The budget's pod CREATE webhook (upstream `pkg/webhook/pod/mutating/pod_unavailable_budget.go`: a new pod of a
 * budget gets the `kruise.io/related-pub` annotation at creation; upstream's validating handler admits every other
 * CREATE than `pods/eviction`, as vpodeviction.kb.io does here). Upstream calls it for every pod created in the
 * cluster; here (docs/adr/0096-pod-unavailable-budget-at-pod-create.md) the MutatingWebhookConfiguration
 * `regatta-podunavailablebudget` has one entry per budget, for pod CREATE in its namespace only, reaching pods that
 * budget selects: its `selector` as the objectSelector, or for a `targetRef` a CEL condition on the pod's controller.
 * The entries fail open (`Ignore`): the annotation only tells early what the controller's next pass marks anyway, and
 * the budget counts a pod as available only once that pass guarded it (docs/adr/0080), so a pod created while the
 * program is down loses nothing.
 */
import { PubKeys, groupOf, type Pod, type PodUnavailableBudget } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import type { MutatingHandler } from '@regatta/runtime';
import { webhookConfigurationName } from '@regatta/runtime';
import { type Workloads, pubForPod } from './selection.js';

export const MUTATE_POD_PATH = '/mutate-pod-pub';
/** Per-budget entries beyond which one entry serves the budgets' namespaces (as SidecarSet's, docs/adr/0026). */
export const MAX_POD_CREATE_ENTRIES = 200;
/** Their JSON size beyond which the same happens (etcd stores 1.5 MiB at most). */
export const MAX_POD_CREATE_ENTRIES_BYTES = 512 * 1024;
/** The one entry past those bounds: every pod created in a namespace that holds a budget. */
export const ALL_BUDGET_NAMESPACES_ENTRY = 'all.pub.pods.regatta.kruise.io';

const POD_CREATE_RULES = [
  { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' },
];

/** A CEL string literal. */
const lit = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A regular expression matching `s` literally. */
const quoteRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * CEL: the pod's controller is the budget's target — by kind, API group and name; a Deployment's through its
 * ReplicaSets' names, `<deployment>-<pod-template-hash>`.
 */
export function targetControllerExpression(ref: { apiVersion: string; kind: string; name: string }): string {
  const group = groupOf(ref.apiVersion);
  const owner = (cond: string) =>
    'has(object.metadata.ownerReferences) && object.metadata.ownerReferences.exists(r, ' +
    `has(r.controller) && r.controller && ${cond})`;
  const inGroup = (g: string) =>
    g === '' ? "!r.apiVersion.contains('/')" : `r.apiVersion.startsWith(${lit(`${g}/`)})`;
  if (group === 'apps' && ref.kind === 'Deployment')
    return owner(
      `r.kind == 'ReplicaSet' && ${inGroup('apps')} && r.name.matches(${lit(`^${quoteRe(ref.name)}-[a-z0-9]+$`)})`,
    );
  return owner(`r.kind == ${lit(ref.kind)} && ${inGroup(group)} && r.name == ${lit(ref.name)}`);
}

/** The entry's name: `<budget>.<namespace>.pub.pods.regatta.kruise.io` (unique per budget). */
export function podCreateEntryName(pub: PodUnavailableBudget): string {
  return `${pub.metadata?.name ?? ''}.${pub.metadata?.namespace ?? ''}.pub.pods.regatta.kruise.io`;
}

/** What narrows a budget's entry to the pods it selects; undefined: it selects none (no entry). */
function podsOfBudget(pub: PodUnavailableBudget): Record<string, unknown> | undefined {
  if (pub.metadata?.deletionTimestamp) return undefined;
  const ref = pub.spec?.targetRef;
  if (ref?.name && ref.kind && ref.apiVersion) {
    const target = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name };
    return {
      matchConditions: [{ name: 'controlled-by-target', expression: targetControllerExpression(target) }],
    };
  }
  const sel = pub.spec?.selector;
  const empty =
    !sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0);
  return empty ? undefined : { objectSelector: sel };
}

/** The MutatingWebhookConfiguration for the budgets as they are now (an entry each, sorted by name). */
export function podCreateWebhookConfiguration(
  pubs: readonly PodUnavailableBudget[],
  baseUrl: string,
  caBundlePem: string,
  scope?: { matchLabels: Record<string, string> },
): KubeObject {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const entry = (name: string, namespaces: string[], narrow: Record<string, unknown>) => ({
    name,
    clientConfig: { url: `${baseUrl}${MUTATE_POD_PATH}`, caBundle },
    rules: POD_CREATE_RULES,
    // fails open: the controller's next pass marks the pod anyway (docs/adr/0096)
    failurePolicy: 'Ignore',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 2,
    reinvocationPolicy: 'Never',
    namespaceSelector: {
      ...(scope ? { matchLabels: scope.matchLabels } : {}),
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: namespaces }],
    },
    ...narrow,
  });
  const entries = new Map<string, Record<string, unknown>>();
  for (const pub of pubs) {
    const narrow = podsOfBudget(pub);
    if (!narrow) continue;
    const name = podCreateEntryName(pub);
    entries.set(name, entry(name, [pub.metadata?.namespace ?? ''], narrow));
  }
  let webhooks = [...entries.keys()].sort().map((k) => entries.get(k)!);
  // past the bounds, one entry for the budgets' namespaces: wider, but failing open all the same (docs/adr/0096)
  if (
    webhooks.length > MAX_POD_CREATE_ENTRIES ||
    Buffer.byteLength(JSON.stringify(webhooks)) > MAX_POD_CREATE_ENTRIES_BYTES
  ) {
    const namespaces = [
      ...new Set(pubs.filter((p) => podsOfBudget(p)).map((p) => p.metadata?.namespace ?? '')),
    ].sort();
    webhooks = [entry(ALL_BUDGET_NAMESPACES_ENTRY, namespaces, {})];
  }
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: webhookConfigurationName('podunavailablebudget', scope) },
    // none: the field is left out, as the API server returns it (the keeper compares with what it reads)
    ...(webhooks.length > 0 ? { webhooks } : {}),
  } as KubeObject;
}

export interface PodCreateDeps {
  /** The budgets of a namespace. */
  pubs: (namespace: string) => readonly PodUnavailableBudget[];
  workloads: Workloads;
}

/**
 * Upstream `pubMutatingPod`: a pod created with a budget that selects it (targetRef first, as `GetPubForPod`)
 * carries that budget's name in `kruise.io/related-pub`; any other pod, or any other operation, is left as it is.
 */
export function podCreateDefaulter(deps: PodCreateDeps): MutatingHandler<Pod> {
  return (input) => {
    const pod = input.object;
    if (input.operation !== 'CREATE' || input.subResource || !pod) return undefined;
    const namespace = pod.metadata?.namespace || input.namespace || '';
    const withNs: Pod = { ...pod, metadata: { ...pod.metadata, namespace } };
    const pub = pubForPod(withNs, [...deps.pubs(namespace)], deps.workloads);
    const name = pub?.metadata?.name;
    if (!name || pod.metadata?.annotations?.[PubKeys.RelatedPub] === name) return undefined;
    return {
      ...pod,
      metadata: {
        ...pod.metadata,
        annotations: { ...pod.metadata?.annotations, [PubKeys.RelatedPub]: name },
      },
    };
  };
}
