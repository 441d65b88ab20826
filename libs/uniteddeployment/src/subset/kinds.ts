/**
 * The four kinds a subset workload can be (OpenKruise `pkg/controller/uniteddeployment/adapter/*_adapter.go`): which
 * template field declares it, what is created, and where its partition goes.
 */
import type { SubsetTemplate, UnitedDeployment, WorkloadTemplate } from '../types.js';

export type TemplateField = keyof SubsetTemplate;
/** The reader (cache) each kind is read from, as apps/uniteddeployment declares them. */
export type SubsetReaderName = 'statefulsets' | 'advancedstatefulsets' | 'clonesets' | 'deployments';

export interface SubsetKind {
  template: TemplateField;
  apiVersion: string;
  kind: string;
  reader: SubsetReaderName;
  /** Upstream's `subSetType`, as its events name it. */
  subsetType: 'StatefulSet' | 'AdvancedStatefulSet' | 'CloneSet' | 'Deployment';
  /**
   * Where the subset's partition is written: apps/v1 StatefulSet (`rollingUpdate.partition`, type forced to
   * RollingUpdate), Advanced StatefulSet (the same, type left as written), CloneSet v1alpha1
   * (`updateStrategy.partition`), none (Deployment).
   */
  partition: 'statefulset' | 'advancedstatefulset' | 'cloneset' | 'none';
}

/** In the order OpenKruise looks for the template (the first one set wins). */
export const SUBSET_KINDS: readonly SubsetKind[] = [
  { template: 'statefulSetTemplate', apiVersion: 'apps/v1', kind: 'StatefulSet', reader: 'statefulsets', subsetType: 'StatefulSet', partition: 'statefulset' },
  {
    template: 'advancedStatefulSetTemplate',
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    reader: 'advancedstatefulsets',
    subsetType: 'AdvancedStatefulSet',
    partition: 'advancedstatefulset',
  },
  { template: 'cloneSetTemplate', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', reader: 'clonesets', subsetType: 'CloneSet', partition: 'cloneset' },
  { template: 'deploymentTemplate', apiVersion: 'apps/v1', kind: 'Deployment', reader: 'deployments', subsetType: 'Deployment', partition: 'none' },
];

/** The kind of the UnitedDeployment's template, or undefined when it has none. */
export function subsetKindOf(ud: UnitedDeployment): SubsetKind | undefined {
  return SUBSET_KINDS.find((k) => ud.spec.template?.[k.template] != null);
}

/** The template of that kind. */
export function workloadTemplateOf(ud: UnitedDeployment, kind: SubsetKind): WorkloadTemplate {
  return ud.spec.template?.[kind.template] ?? { spec: {} };
}
