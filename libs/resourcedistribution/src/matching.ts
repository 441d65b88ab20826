/**
 * Namespace matching (`pkg/controller/resourcedistribution/utils.go` listNamespacesForDistributor, matchViaTargets,
 * and `resourcedistribution_namespace_event_handler.go`). Targets: excluded > (all ∪ included ∪ selector);
 * kube-system and kube-public never match.
 */
import {
  RESOURCE_DISTRIBUTION_SYSTEM_NAMESPACES,
  namespaceSelectorOf,
  type ResourceDistribution,
  type ResourceDistributionTargets,
} from '@regatta/api';
import { compileLabelSelector, type Change, type KubeObject, type Labels } from '@regatta/kube';
import type { Request } from '@regatta/runtime';

const isSystem = (ns: string) => RESOURCE_DISTRIBUTION_SYSTEM_NAMESPACES.includes(ns);
const listed = (l: { list?: { name?: string }[] } | undefined): string[] =>
  (l?.list ?? []).map((n) => n.name ?? '').filter((n) => n !== '');

/** A selector that selects something (upstream ignores an empty one), compiled; undefined when empty or invalid. */
function selectorOf(targets: ResourceDistributionTargets): ((labels: Labels) => boolean) | undefined {
  const sel = namespaceSelectorOf(targets);
  if (!sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)) {
    return undefined;
  }
  try {
    const compiled = compileLabelSelector(sel);
    return (labels) => compiled.matches(labels);
  } catch {
    // validation refuses it; a stored invalid selector matches nothing
    return () => false;
  }
}

export interface NamespaceSets {
  /** Namespaces the resource must be in (sorted); may name namespaces that do not exist. */
  matched: string[];
  /** Existing namespaces it must not be in (sorted). */
  unmatched: string[];
}

/** listNamespacesForDistributor over the namespaces that exist. */
export function namespacesForDistribution(
  targets: ResourceDistributionTargets,
  namespaces: readonly { name: string; labels?: Labels }[],
): NamespaceSets {
  const matched = new Set<string>();
  if (targets.allNamespaces) {
    for (const ns of namespaces) if (!isSystem(ns.name)) matched.add(ns.name);
  } else {
    for (const n of listed(targets.includedNamespaces)) if (!isSystem(n)) matched.add(n);
    const selects = selectorOf(targets);
    if (selects) for (const ns of namespaces) if (!isSystem(ns.name) && selects(ns.labels ?? {})) matched.add(ns.name);
  }
  for (const n of listed(targets.excludedNamespaces)) matched.delete(n);
  const unmatched = namespaces.map((n) => n.name).filter((n) => !matched.has(n));
  return { matched: [...matched].sort(), unmatched: [...new Set(unmatched)].sort() };
}

/** matchViaTargets: whether a namespace (name and labels) is a target. */
export function matchesTargets(targets: ResourceDistributionTargets, name: string, labels: Labels = {}): boolean {
  if (isSystem(name) || listed(targets.excludedNamespaces).includes(name)) return false;
  if (targets.allNamespaces || listed(targets.includedNamespaces).includes(name)) return true;
  return selectorOf(targets)?.(labels) ?? false;
}

/** Whether the namespace is listed in includedNamespaces (matchViaIncludedNamespaces). */
export function includesNamespace(targets: ResourceDistributionTargets, name: string): boolean {
  return listed(targets.includedNamespaces).includes(name);
}

/** Whether a non-empty selector of the targets matches the labels (matchViaLabelSelector). */
export function selectorMatches(targets: ResourceDistributionTargets, labels: Labels): boolean {
  return selectorOf(targets)?.(labels) ?? false;
}

const labelsEqual = (a: Labels | null | undefined, b: Labels | null | undefined): boolean => {
  const x = a ?? {};
  const y = b ?? {};
  return Object.keys(x).length === Object.keys(y).length && Object.entries(x).every(([k, v]) => y[k] === v);
};

/**
 * The distributions a Namespace change concerns: add → those whose targets match it; delete → those that list it
 * in includedNamespaces; update → only when the labels changed, those whose selector matches the new or the old
 * labels. Requests are cluster-scoped (by name).
 */
export function distributionsForNamespaceChange(
  change: Change,
  distributions: readonly ResourceDistribution[],
): Request[] {
  const ns = change.object as KubeObject;
  const name = ns.metadata?.name ?? '';
  const labels = ns.metadata?.labels ?? {};
  const pick = (p: (t: ResourceDistributionTargets) => boolean) =>
    distributions.filter((rd) => p(rd.spec.targets ?? {})).map((rd) => ({ name: rd.metadata?.name ?? '' }));
  switch (change.type) {
    case 'add':
      return pick((t) => matchesTargets(t, name, labels));
    case 'delete':
      return pick((t) => includesNamespace(t, name));
    default: {
      const old = change.old?.metadata?.labels ?? {};
      if (labelsEqual(old, labels)) return [];
      return pick((t) => selectorMatches(t, labels) || selectorMatches(t, old));
    }
  }
}
