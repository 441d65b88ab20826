/**
 * The pod webhook's MutatingWebhookConfiguration, derived from the SidecarSets (docs/adr/0026-sidecarset-blast-radius.md):
 * one webhook entry per SidecarSet that injects, whose objectSelector is its selector and whose namespaceSelector is
 * its namespace scope, and one entry for pods asking for a container launch priority (CEL matchConditions). The API
 * server calls the webhook only for those pods; every other pod is admitted without it, even while the program is
 * down. The entries fail closed (failurePolicy Fail): a selected pod is never created without its sidecars.
 *
 * Past `MAX_POD_WEBHOOK_ENTRIES` entries or `MAX_POD_WEBHOOK_ENTRIES_BYTES` of them, one entry for every pod replaces
 * them all, as OpenKruise registers its pod webhook (docs/adr/0026, amendment): a configuration with an entry per
 * SidecarSet grows with them, and past etcd's request limit it can no longer be written, so a new SidecarSet's pods
 * would be created without its sidecars (docs/reliability.md finding 19).
 */
import { Annotations, ContainerEnvs } from '@regatta/api';
import { compileLabelSelector, type KubeObject, type LabelSelector } from '@regatta/kube';
import { deepEqual } from '@regatta/runtime';
import { namespaceSelectorOf } from '../injection/match.js';
import type { AnySidecarSet } from '../injection/types.js';
import { MUTATE_POD_PATH } from './pod-webhook.js';

/** Per-SidecarSet entries beyond which one entry serves every pod (docs/adr/0026, amendment). */
export const MAX_POD_WEBHOOK_ENTRIES = 200;
/** Their JSON size beyond which the same happens (a few SidecarSets with huge selectors; etcd stores 1.5 MiB at most). */
export const MAX_POD_WEBHOOK_ENTRIES_BYTES = 512 * 1024;
/** The one entry for every pod, used past those bounds. */
export const ALL_PODS_ENTRY = 'all.sidecarset.pods.regatta.kruise.io';
/** The configuration's annotation saying which form it has: `per-sidecarset` or `all-pods`. */
export const POD_WEBHOOK_MODE_ANNOTATION = 'sidecarset.regatta.kruise.io/pod-webhook-mode';
/**
 * The namespaces the all-pods entry leaves out: labelled `control-plane` (OpenKruise's own `mpod.kb.io` selector,
 * config/webhook/patch_manifests.yaml), kube-system and the program's own namespace (where the chart runs Regatta), so
 * the cluster's own pods and Regatta's never wait for this program.
 */
function allPodsNamespaces(ownNamespace: string | undefined): LabelSelector {
  const skipped = ['kube-system', ...(ownNamespace && ownNamespace !== 'kube-system' ? [ownNamespace] : [])];
  return {
    matchExpressions: [
      { key: 'control-plane', operator: 'DoesNotExist' },
      { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: skipped },
    ],
  };
}

const POD_RULES = [
  { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' },
];

/** CEL: the pod asks for a launch priority (§5.2 step 8): `Ordered`, or some container sets the priority env. */
export const LAUNCH_PRIORITY_MATCH_CONDITION = {
  name: 'asks-for-launch-priority',
  expression:
    'size(object.spec.containers) > 1 && (' +
    `(has(object.metadata.annotations) && '${Annotations.ContainerLaunchPriority}' in object.metadata.annotations && ` +
    `object.metadata.annotations['${Annotations.ContainerLaunchPriority}'] == 'Ordered') || ` +
    `object.spec.containers.exists(c, has(c.env) && c.env.exists(e, e.name == '${ContainerEnvs.ContainerPriority}')))`,
};

/** Whether a SidecarSet injects at all: not injection-paused, a usable non-empty selector. */
export function injects(s: AnySidecarSet): boolean {
  if (s.spec.injectionStrategy?.paused || !s.spec.selector) return false;
  try {
    const compiled = compileLabelSelector(s.spec.selector);
    if (compiled.everything) return false;
    const ns = namespaceSelectorOf(s);
    if (ns) compileLabelSelector(ns);
    return true;
  } catch {
    // an invalid selector selects no pod (the SidecarSet validation refuses it anyway)
    return false;
  }
}

/** Both selectors must hold: the program's namespace scope and the SidecarSet's namespace selector. */
export function andSelectors(a: LabelSelector | undefined, b: LabelSelector | undefined): LabelSelector | undefined {
  if (!a) return b;
  if (!b) return a;
  const expressions = [
    ...Object.entries(a.matchLabels ?? {}).map(([key, v]) => ({ key, operator: 'In', values: [v] })),
    ...(a.matchExpressions ?? []),
    ...(b.matchExpressions ?? []),
  ];
  return { ...(b.matchLabels ? { matchLabels: b.matchLabels } : {}), matchExpressions: expressions };
}

/** The configuration's name: `regatta-sidecarset-pods` (suffixed with the scope's values when scoped, as CloneSet's). */
export function podWebhookConfigurationName(scope?: { matchLabels: Record<string, string> }): string {
  if (!scope) return 'regatta-sidecarset-pods';
  const suffix = Object.values(scope.matchLabels).filter(Boolean).join('-');
  return `regatta-sidecarset-pods-${suffix || 'scoped'}`;
}

/**
 * The MutatingWebhookConfiguration for the SidecarSets as they are now: one entry per cached SidecarSet that injects,
 * and one per SidecarSet admitted but not cached yet (`admitted`, named `<name>.<uid prefix>.admitted.…` so it never changes the
 * entry of a cached SidecarSet of the same name: docs/adr/0040-sidecarset-effective-at-admission.md).
 */
export function podWebhookConfiguration(
  sidecarSets: readonly AnySidecarSet[],
  baseUrl: string,
  caBundlePem: string,
  scope?: { matchLabels: Record<string, string> },
  admitted: readonly AnySidecarSet[] = [],
  /** The program's namespace (`POD_NAMESPACE`), left out of the all-pods entry. */
  ownNamespace?: string,
  /**
   * Extra conditions of a SidecarSet's entry, by name: a SidecarSet a MutatingAdmissionPolicy injects is called for
   * only when the policy did not inject the pod (libs/sidecarset admission-policy; docs/adr/0089).
   */
  conditions: ReadonlyMap<string, readonly { name: string; expression: string }[]> = new Map(),
): KubeObject & { webhooks: Record<string, unknown>[] } {
  const caBundle = Buffer.from(caBundlePem).toString('base64');
  const common = {
    clientConfig: { url: `${baseUrl}${MUTATE_POD_PATH}`, caBundle },
    rules: POD_RULES,
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 10,
    reinvocationPolicy: 'Never',
  };
  const entries = (sets: readonly AnySidecarSet[], suffix: (s: AnySidecarSet) => string) =>
    [...sets]
      .filter(injects)
      .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1))
      .map((s) => {
        const namespaceSelector = andSelectors(scope, namespaceSelectorOf(s) ?? undefined);
        const extra = conditions.get(s.metadata?.name ?? '');
        return {
          name: `${s.metadata?.name ?? ''}.${suffix(s)}`,
          ...common,
          objectSelector: s.spec.selector,
          ...(namespaceSelector ? { namespaceSelector } : {}),
          ...(extra?.length ? { matchConditions: extra.map((c) => ({ ...c })) } : {}),
        };
      });
  const admittedSuffix = (s: AnySidecarSet) => {
    const uid = s.metadata?.uid?.slice(0, 8);
    return `${uid ? `${uid}.` : ''}admitted.sidecarset.pods.regatta.kruise.io`;
  };
  // entry names are unique (the API server refuses a configuration that repeats one): the first of a name stays
  const seen = new Set<string>();
  const perSidecarSet = [
    ...entries(sidecarSets, () => 'sidecarset.pods.regatta.kruise.io'),
    ...entries(admitted, admittedSuffix),
  ].filter((w) => !seen.has(w.name) && !!seen.add(w.name));
  const allPods = overflows(perSidecarSet);
  const metadata = {
    name: podWebhookConfigurationName(scope),
    annotations: { [POD_WEBHOOK_MODE_ANNOTATION]: allPods ? 'all-pods' : 'per-sidecarset' },
  };
  if (allPods) {
    // injection and launch priority both: the handler does each only where it applies
    const namespaceSelector = andSelectors(scope, allPodsNamespaces(ownNamespace));
    const webhooks = [{ name: ALL_PODS_ENTRY, ...common, namespaceSelector }];
    return {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata,
      webhooks,
    };
  }
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata,
    webhooks: [
      ...perSidecarSet,
      {
        name: 'launch-priority.pods.regatta.kruise.io',
        ...common,
        ...(scope ? { namespaceSelector: { matchLabels: scope.matchLabels } } : {}),
        matchConditions: [LAUNCH_PRIORITY_MATCH_CONDITION],
      },
    ],
  };
}

/** Whether the per-SidecarSet entries are past the bounds the configuration is kept within. */
function overflows(entries: readonly object[]): boolean {
  return (
    entries.length > MAX_POD_WEBHOOK_ENTRIES ||
    Buffer.byteLength(JSON.stringify(entries)) > MAX_POD_WEBHOOK_ENTRIES_BYTES
  );
}

/**
 * Whether the pod webhook configuration as the API server holds it (undefined: absent) already sends this
 * SidecarSet's pods to the webhook: its entry exists with the SidecarSet's selectors as they are now. A SidecarSet
 * that injects nothing has nothing to wait for. The upgrade reconciler writes `status.observedGeneration` only then,
 * so a SidecarSet is never reported as observed before new pods get its sidecars (docs/sidecarset.md). The all-pods
 * entry sends every pod (but kube-system's, control-plane namespaces' and the program's own) there.
 */
export function podWebhookEntryInStep(
  observed: KubeObject | undefined,
  set: AnySidecarSet,
  scope?: { matchLabels: Record<string, string> },
): boolean {
  if (!injects(set)) return true;
  const entries = (observed as { webhooks?: Record<string, unknown>[] } | undefined)?.webhooks ?? [];
  if (entries.some((w) => w['name'] === ALL_PODS_ENTRY)) return true;
  const want = podWebhookConfiguration([set], '', '', scope).webhooks[0]!;
  const seen = entries.find((w) => w['name'] === want['name']);
  return (
    seen !== undefined &&
    deepEqual(seen['objectSelector'], want['objectSelector']) &&
    // absent, the API server stores `{}` (every namespace)
    deepEqual(seen['namespaceSelector'] ?? {}, want['namespaceSelector'] ?? {})
  );
}
