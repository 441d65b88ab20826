/**
 * The workload of one subset, built from the UnitedDeployment (OpenKruise `pkg/controller/uniteddeployment/adapter/*`
 * `ApplySubsetTemplate`, docs/uniteddeployment.md "Subset workloads"): labels, annotations, generateName, owner
 * reference, the template's spec with the subset's selector, replicas and partition, and the pod template placed in
 * the subset (node selector term, tolerations) and patched. The same function builds a new workload and re-applies
 * the template onto an existing one.
 */
import { cloneJson, isDns1123Subdomain } from '@regatta/kube';
import { SUBSET_NAME_LABEL, SUBSET_PATCH_ANNOTATION, UD_REVISION_LABEL, UNITED_DEPLOYMENT_GVK } from '../keys.js';
import type { Subset, UnitedDeployment } from '../types.js';
import { type SubsetKind, workloadTemplateOf } from './kinds.js';
import { placeInSubset } from './node-affinity.js';
import { strategicMergePodTemplate } from './pod-template-patch.js';
import type { SubsetWorkload } from './workload.js';

export interface SubsetBuildInput {
  ud: UnitedDeployment;
  kind: SubsetKind;
  subset: Subset;
  /** The UnitedDeployment revision (ControllerRevision name) the workload is built from. */
  revision: string;
  replicas: number;
  partition: number;
  /**
   * Reservation mode, a subset now unschedulable: its rolling update's maxUnavailable (spec replicas − ready +
   * pods that timed out in the update), so the stuck pods do not block it.
   */
  maxUnavailable?: number;
}

/** `<ud>-<subset>-`, or `<ud>-` when that is no valid name prefix (`getSubsetPrefix`). */
export function subsetPrefix(udName: string, subsetName: string): string {
  const prefix = `${udName}-${subsetName}-`;
  const candidate = `${prefix}a`;
  return candidate.length <= 253 && isDns1123Subdomain(candidate) ? prefix : `${udName}-`;
}

/** The subset's workload; `existing` (re-applying the template) keeps its name, resourceVersion and extra metadata. */
export function buildSubsetWorkload(input: SubsetBuildInput, existing?: SubsetWorkload): SubsetWorkload {
  const { ud, kind, subset, revision, replicas, partition } = input;
  const template = workloadTemplateOf(ud, kind);
  const udName = ud.metadata?.name ?? '';
  const base = existing ? cloneJson(existing) : ({ apiVersion: kind.apiVersion, kind: kind.kind, metadata: {}, spec: {} } as SubsetWorkload);
  const meta = base.metadata ?? {};
  const labels: Record<string, string> = {
    ...meta.labels,
    ...template.metadata?.labels,
    ...ud.spec.selector.matchLabels,
    [UD_REVISION_LABEL]: revision,
    [SUBSET_NAME_LABEL]: subset.name,
  };
  const annotations: Record<string, string> = {
    ...meta.annotations,
    ...template.metadata?.annotations,
    [SUBSET_PATCH_ANNOTATION]: subset.patch ? JSON.stringify(subset.patch) : '',
  };
  const owner = {
    apiVersion: UNITED_DEPLOYMENT_GVK.apiVersion,
    kind: UNITED_DEPLOYMENT_GVK.kind,
    name: udName,
    uid: ud.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  const otherOwners = (meta.ownerReferences ?? []).filter((r) => !r.controller);
  base.apiVersion = kind.apiVersion;
  base.kind = kind.kind;
  base.metadata = {
    ...meta,
    namespace: ud.metadata?.namespace,
    generateName: subsetPrefix(udName, subset.name),
    labels,
    annotations,
    ownerReferences: [...otherOwners, owner],
  };

  const spec = cloneJson(template.spec) as SubsetWorkload['spec'];
  spec.selector = {
    ...cloneJson(ud.spec.selector),
    matchLabels: { ...ud.spec.selector.matchLabels, [SUBSET_NAME_LABEL]: subset.name },
  };
  spec.replicas = replicas;
  applyPartition(spec, kind, partition);
  if (input.maxUnavailable !== undefined) applyMaxUnavailable(spec, kind, input.maxUnavailable);
  const podTemplate = cloneJson(spec.template ?? {}) as { metadata?: { labels?: Record<string, string> }; spec?: Record<string, unknown> };
  podTemplate.metadata = {
    ...podTemplate.metadata,
    labels: { ...podTemplate.metadata?.labels, [SUBSET_NAME_LABEL]: subset.name, [UD_REVISION_LABEL]: revision },
  };
  podTemplate.spec = placeInSubset(podTemplate.spec ?? {}, subset);
  spec.template = subset.patch ? strategicMergePodTemplate(podTemplate, subset.patch) : podTemplate;
  base.spec = spec;
  return base;
}

function applyPartition(spec: SubsetWorkload['spec'], kind: SubsetKind, partition: number): void {
  const strategy = (spec['updateStrategy'] ?? {}) as { type?: string; rollingUpdate?: Record<string, unknown>; partition?: unknown };
  switch (kind.partition) {
    case 'cloneset':
      spec['updateStrategy'] = { ...strategy, partition };
      return;
    case 'statefulset':
    case 'advancedstatefulset':
      if (!strategy.type || strategy.type === 'RollingUpdate') {
        spec['updateStrategy'] = {
          ...strategy,
          ...(kind.partition === 'statefulset' ? { type: 'RollingUpdate' } : {}),
          rollingUpdate: { ...strategy.rollingUpdate, partition },
        };
      }
      return;
    case 'none':
      return;
  }
}

function applyMaxUnavailable(spec: SubsetWorkload['spec'], kind: SubsetKind, maxUnavailable: number): void {
  if (kind.partition === 'none') {
    const strategy = (spec['strategy'] ?? {}) as { rollingUpdate?: Record<string, unknown> };
    spec['strategy'] = { ...strategy, rollingUpdate: { ...strategy.rollingUpdate, maxUnavailable } };
  } else if (kind.partition === 'cloneset') {
    spec['updateStrategy'] = { ...(spec['updateStrategy'] as Record<string, unknown>), maxUnavailable };
  } else {
    const strategy = (spec['updateStrategy'] ?? {}) as { rollingUpdate?: Record<string, unknown> };
    spec['updateStrategy'] = { ...strategy, rollingUpdate: { ...strategy.rollingUpdate, maxUnavailable } };
  }
}
