// UnitedDeployments of the scenarios: the seed's example (S1 §1.3.4: 12 replicas, 4 per zone over east, west and
// central, a cloneSetTemplate) with its elided template written out, and variants of it.
import { UD, ZONE_LABEL, type UnitedDeployment } from './scenario-harness.js';

export type TemplateField = 'cloneSetTemplate' | 'statefulSetTemplate' | 'advancedStatefulSetTemplate' | 'deploymentTemplate';

export const zoneTerm = (zone: string) => ({
  matchExpressions: [{ key: ZONE_LABEL, operator: 'In', values: [zone] }],
});

export interface SubsetSpec {
  name: string;
  zone?: string;
  replicas?: number | string;
  minReplicas?: number | string;
  maxReplicas?: number | string;
  patch?: Record<string, unknown>;
  /** The seed's shorthand `nodeSelector` instead of `nodeSelectorTerm`. */
  shorthand?: boolean;
}

export function unitedDeployment(
  ns: string,
  name: string,
  o: {
    replicas: number;
    subsets: SubsetSpec[];
    template?: TemplateField;
    image?: string;
    /** `topology.scheduleStrategy`. */
    scheduleStrategy?: Record<string, unknown>;
    extra?: Record<string, unknown>;
  },
): UnitedDeployment {
  const labels = { app: name };
  const podTemplate = {
    metadata: { labels },
    spec: { containers: [{ name: 'main', image: o.image ?? 'nginx:1.28.0' }] },
  };
  const templateSpec: Record<string, unknown> = { selector: { matchLabels: labels }, template: podTemplate };
  if (o.template === 'statefulSetTemplate' || o.template === 'advancedStatefulSetTemplate') {
    templateSpec['serviceName'] = name;
    templateSpec['podManagementPolicy'] = 'Parallel';
  }
  return {
    ...UD,
    metadata: { name, namespace: ns },
    spec: {
      replicas: o.replicas,
      selector: { matchLabels: labels },
      topology: {
        subsets: o.subsets.map((s) => ({
          name: s.name,
          ...(s.zone && !s.shorthand ? { nodeSelectorTerm: zoneTerm(s.zone) } : {}),
          ...(s.zone && s.shorthand ? { nodeSelector: { [ZONE_LABEL]: s.zone } } : {}),
          ...(s.replicas !== undefined ? { replicas: s.replicas } : {}),
          ...(s.minReplicas !== undefined ? { minReplicas: s.minReplicas } : {}),
          ...(s.maxReplicas !== undefined ? { maxReplicas: s.maxReplicas } : {}),
          ...(s.patch ? { patch: s.patch } : {}),
        })),
        ...(o.scheduleStrategy ? { scheduleStrategy: o.scheduleStrategy } : {}),
      },
      template: { [o.template ?? 'cloneSetTemplate']: { metadata: { labels }, spec: templateSpec } },
      ...o.extra,
    },
  };
}

/** The seed's example: 12 replicas, subsets az-east, az-west, az-central of 4 each. */
export function seedExample(ns: string, o: { shorthand?: boolean; template?: TemplateField } = {}): UnitedDeployment {
  return unitedDeployment(ns, 'global-service', {
    replicas: 12,
    ...(o.template ? { template: o.template } : {}),
    subsets: [
      { name: 'az-east', zone: 'east', replicas: 4, shorthand: o.shorthand ?? false },
      { name: 'az-west', zone: 'west', replicas: 4, shorthand: o.shorthand ?? false },
      { name: 'az-central', zone: 'central', replicas: 4, shorthand: o.shorthand ?? false },
    ],
  });
}
