/**
 * Which pods the `rollout status --watch` view shows, chosen as each controller chooses them, and what it reads
 * from the workload to group them (pure; the LIST itself is in pod-list.ts):
 * - CloneSet, Advanced StatefulSet, Advanced DaemonSet: the pods matching `spec.selector` in the workload's
 *   namespace whose controller owner reference is the workload;
 * - UnitedDeployment: the pods matching `spec.selector` that carry `apps.kruise.io/subset-name` (its subsets'
 *   workloads own them; docs/uniteddeployment.md);
 * - SidecarSet: the pods matching `spec.selector` in `spec.namespace` (else any namespace, narrowed by
 *   `spec.namespaceSelector`) that list it in `kruise.io/sidecarset-injected-list` (docs/sidecarset.md).
 */
import type { Pod } from '@regatta/api';
import type { LabelSelector } from '@regatta/kube';
import type { RolloutKind, Workload } from '@regatta/workload';
import type { SubsetInfo } from './pod-groups.js';

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export interface PodQuery {
  /** undefined: every namespace (a SidecarSet without `spec.namespace`). */
  namespace: string | undefined;
  labelSelector: LabelSelector | undefined;
  /** SidecarSet `spec.namespaceSelector`: the namespaces are listed by it. */
  namespaceSelector?: LabelSelector;
}

/** The LIST that fetches the workload's pods (a superset; {@link selectPods} keeps the right ones). */
export function podQuery(kind: RolloutKind, w: Workload, namespace: string): PodQuery {
  const spec = obj(w.spec);
  const selector = spec['selector'] ? (spec['selector'] as LabelSelector) : undefined;
  if (kind !== 'SidecarSet') return { namespace, labelSelector: selector };
  const ns = typeof spec['namespace'] === 'string' && spec['namespace'] !== '' ? spec['namespace'] : undefined;
  return {
    namespace: ns,
    labelSelector: selector,
    ...(spec['namespaceSelector'] && !ns ? { namespaceSelector: spec['namespaceSelector'] as LabelSelector } : {}),
  };
}

/** The listed pods the view shows; `namespaces`: those the SidecarSet's namespace selector chose, if it has one. */
export function selectPods(kind: RolloutKind, w: Workload, pods: readonly Pod[], namespaces?: ReadonlySet<string>): Pod[] {
  const uid = w.metadata?.uid ?? '';
  const name = w.metadata?.name ?? '';
  switch (kind) {
    case 'UnitedDeployment':
      return pods.filter((p) => p.metadata?.labels?.['apps.kruise.io/subset-name'] !== undefined);
    case 'SidecarSet':
      return pods.filter(
        (p) =>
          (!namespaces || namespaces.has(p.metadata?.namespace ?? '')) &&
          (p.metadata?.annotations?.['kruise.io/sidecarset-injected-list'] ?? '').split(',').includes(name),
      );
    default:
      return pods.filter((p) => p.metadata?.ownerReferences?.some((o) => o.controller === true && o.uid === uid));
  }
}

/** A UnitedDeployment's subsets in `spec.topology.subsets` order, with what its status says of each. */
export function subsetsOf(w: Workload): SubsetInfo[] {
  const spec = obj(w.spec);
  const status = obj(w.status);
  const statuses = Array.isArray(status['subsetStatuses']) ? status['subsetStatuses'].map(obj) : [];
  const replicas = obj(status['subsetReplicas']);
  const partitions = obj(obj(status['updateStatus'])['currentPartitions']);
  const declared = Array.isArray(obj(spec['topology'])['subsets'])
    ? (obj(spec['topology'])['subsets'] as unknown[]).map((s) => obj(s)['name']).filter((n): n is string => typeof n === 'string')
    : [];
  const names = [...new Set([...declared, ...statuses.map((s) => s['name']).filter((n): n is string => typeof n === 'string')])];
  return names.map((name) => {
    const s = statuses.find((x) => x['name'] === name) ?? {};
    const ready = num(s['readyReplicas']);
    return {
      name,
      replicas: num(s['replicas']) ?? num(replicas[name]) ?? 0,
      ...(ready === undefined ? {} : { ready }),
      partition: num(s['partition']) ?? num(partitions[name]) ?? 0,
    };
  });
}

/** A SidecarSet's current hash (its own `kruise.io/sidecarset-hash` annotation) and `status.latestRevision`. */
export function sidecarSetOf(w: Workload): { name: string; hash: string; revision?: string | undefined } {
  const latest = obj(w.status)['latestRevision'];
  return {
    name: w.metadata?.name ?? '',
    hash: w.metadata?.annotations?.['kruise.io/sidecarset-hash'] ?? '',
    revision: typeof latest === 'string' && latest !== '' ? latest : undefined,
  };
}
