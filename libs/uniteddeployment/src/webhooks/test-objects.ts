/** UnitedDeployments for the admission tests (test-only; not exported from the index). */
import type { UnitedDeployment } from '@regatta/api';

const labels = { app: 'web' };
const podTemplate = {
  metadata: { labels },
  spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
};

export type TemplateKind =
  | 'cloneSetTemplate'
  | 'statefulSetTemplate'
  | 'advancedStatefulSetTemplate'
  | 'deploymentTemplate';

/** A valid UD with two subsets (a, b) in zones, of the given template kind. */
export function ud(kind: TemplateKind = 'cloneSetTemplate'): UnitedDeployment {
  const spec = { selector: { matchLabels: labels }, template: podTemplate };
  return JSON.parse(
    JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'UnitedDeployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 4,
        selector: { matchLabels: labels },
        template: { [kind]: { metadata: { labels }, spec } },
        topology: {
          subsets: [
            {
              name: 'a',
              nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
            },
            {
              name: 'b',
              nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
            },
          ],
        },
        revisionHistoryLimit: 10,
        updateStrategy: { type: 'Manual', manualUpdate: {} },
      },
    }),
  ) as UnitedDeployment;
}

/** `ud(kind)` changed by `edit` (on a copy). */
export function udWith(
  edit: (u: UnitedDeployment) => void,
  kind: TemplateKind = 'cloneSetTemplate',
): UnitedDeployment {
  const u = ud(kind);
  edit(u);
  return u;
}
