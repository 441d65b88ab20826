// UnitedDeployments of the scenarios: the seed's example (S1 §1.3.4: 12 replicas, 4 per zone over east, west and
// central, a cloneSetTemplate) as libs/api's fixture holds it, and UnitedDeployments built for the other scenarios.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { UD, ZONE_LABEL, type UnitedDeployment } from './scenario-harness.js';

const SEED_FILE = fileURLToPath(
  new URL('../../../../libs/api/src/uniteddeployment/fixtures/s1-1.3.4-global-service.yaml', import.meta.url),
);

/**
 * The seed's UnitedDeployment in `ns`, applied unchanged but for its elided `cloneSetTemplate.spec: {...}`, completed
 * as libs/api's fixture does (selector and pod labels `app: global-service`, one nginx container). With
 * `openKruiseForm` the subsets' `nodeSelector` shorthand is written as `nodeSelectorTerm` and `spec.selector` is set.
 */
export function seedUnitedDeployment(ns: string, o: { openKruiseForm?: boolean } = {}): UnitedDeployment {
  const ud = parse(readFileSync(SEED_FILE, 'utf8')) as UnitedDeployment & {
    spec: { template: { cloneSetTemplate: { spec: unknown } }; topology: { subsets: Record<string, unknown>[] } };
  };
  const selector = { matchLabels: { app: 'global-service' } };
  ud.metadata = { ...ud.metadata, namespace: ns };
  ud.spec.template.cloneSetTemplate.spec = {
    selector,
    template: { metadata: { labels: { app: 'global-service' } }, spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] } },
  };
  if (o.openKruiseForm) {
    ud.spec['selector'] = selector;
    for (const s of ud.spec.topology.subsets) {
      const labels = (s['nodeSelector'] ?? {}) as Record<string, string>;
      delete s['nodeSelector'];
      s['nodeSelectorTerm'] = {
        matchExpressions: Object.entries(labels).map(([key, v]) => ({ key, operator: 'In', values: [v] })),
      };
    }
  }
  return ud;
}

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
