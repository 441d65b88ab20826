// UnitedDeployment subsets of the other template kinds (docs/uniteddeployment.md "Subset workloads"): apps/v1
// StatefulSets and Deployments run by kube-controller-manager, Advanced StatefulSets by Regatta's asts program; each
// subset's pods land in its zone, and a per-subset patch reaches the subset's pod template.
import { describe, expect, it } from 'vitest';
import { unitedDeployment, type TemplateField } from './testing/fixtures.js';
import { useUnitedDeploymentScenarios } from './testing/scenario-harness.js';

const h = useUnitedDeploymentScenarios();

const cases: { template: TemplateField; gvk: { apiVersion: string; kind: string } }[] = [
  { template: 'statefulSetTemplate', gvk: { apiVersion: 'apps/v1', kind: 'StatefulSet' } },
  { template: 'deploymentTemplate', gvk: { apiVersion: 'apps/v1', kind: 'Deployment' } },
  { template: 'advancedStatefulSetTemplate', gvk: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' } },
];

describe('UnitedDeployment template kinds', () => {
  it.each(cases)('$template: one $gvk.kind per subset, pods in their zones, the subset patch applied', async ({ template, gvk }) => {
    const ns = await h.namespace();
    const name = template.toLowerCase().replace('template', '');
    await h.create(
      unitedDeployment(ns, name, {
        replicas: 4,
        template,
        subsets: [
          { name: 'east', zone: 'east', replicas: 1, patch: { metadata: { labels: { patched: 'east' } } } },
          { name: 'west', zone: 'west' },
        ],
      }),
    );
    await h.settled(ns, name, 4, 180_000);
    expect(await h.podsPerZone(ns)).toEqual({ east: 1, west: 3 });
    const sets = await h.workloads(ns, gvk);
    expect(sets.map((s) => s.metadata?.labels?.['apps.kruise.io/subset-name']).sort()).toEqual(['east', 'west']);
    const east = (await h.pods(ns)).filter((p) => p.metadata?.labels?.['apps.kruise.io/subset-name'] === 'east');
    expect(east.map((p) => p.metadata?.labels?.['patched'])).toEqual(['east']);

    await h.patch(ns, name, { spec: { replicas: 2 } });
    await h.settled(ns, name, 2, 180_000);
    expect(await h.podsPerZone(ns)).toEqual({ east: 1, west: 1 });
  }, 400_000);
});
