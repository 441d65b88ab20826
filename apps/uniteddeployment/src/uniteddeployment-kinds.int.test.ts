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

  it('statefulSetTemplate: a pod of the old revision that never became ready is deleted, so the rolling update goes on (kubernetes#67250)', async () => {
    const ns = await h.namespace();
    const ud = unitedDeployment(ns, 'stuck', {
      replicas: 1,
      template: 'statefulSetTemplate',
      // a registry no node reaches: the pod never starts
      image: 'invalid.registry.k8s.io/invalid/alpine:3.1',
      subsets: [{ name: 'east', zone: 'east' }],
    });
    // OrderedReady: kube-controller-manager waits for the broken pod and never replaces it itself
    const template = ud.spec['template'] as { statefulSetTemplate: { spec: Record<string, unknown> } };
    template.statefulSetTemplate.spec['podManagementPolicy'] = 'OrderedReady';
    await h.create(ud);
    await expect.poll(async () => (await h.pods(ns)).length, { timeout: 120_000 }).toBe(1);
    const broken = (await h.pods(ns))[0]!.metadata!.uid;

    await h.patch(ns, 'stuck', {
      spec: { template: { statefulSetTemplate: { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.28.0' }] } } } } } },
    });
    await h.settled(ns, 'stuck', 1, 180_000);
    const pods = await h.pods(ns);
    expect(pods.map((p) => p.metadata?.uid)).not.toContain(broken);
    expect(pods.map((p) => p.spec?.containers?.[0]?.image)).toEqual(['nginx:1.28.0']);
  }, 400_000);
});
