// Faults (issue 13): the uniteddeployment program killed with SIGKILL while scaling. Its replacement finishes the
// scale; at no time do the subset workloads ask for more replicas than the allocation allows, and no subset workload
// is lost or duplicated.
import { describe, expect, it } from 'vitest';
import { sleep } from '@regatta/testing';
import { unitedDeployment } from './testing/fixtures.js';
import { useUnitedDeploymentScenarios } from './testing/scenario-harness.js';

const h = useUnitedDeploymentScenarios();
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;

describe('UnitedDeployment faults', () => {
  it('kill -9 while scaling: the replacement finishes; never more replicas than allocated, one workload per subset', async () => {
    const ns = await h.namespace();
    await h.create(
      unitedDeployment(ns, 'crash', {
        replicas: 3,
        subsets: [
          { name: 'a', zone: 'east' },
          { name: 'b', zone: 'west' },
          { name: 'c', zone: 'central' },
        ],
      }),
    );
    await h.settled(ns, 'crash', 3);

    let watching = true;
    const samples: { total: number; sets: number }[] = [];
    const sampler = (async () => {
      while (watching) {
        const sets = await h.workloads(ns, CS);
        const total = sets.reduce((n, s) => n + ((s as { spec: { replicas?: number } }).spec.replicas ?? 0), 0);
        samples.push({ total, sets: sets.length });
        await sleep(100);
      }
    })();

    await h.patch(ns, 'crash', { spec: { replicas: 9 } });
    await sleep(300);
    await h.patch(ns, 'crash', { spec: { replicas: 12 } });
    h.controller.killNow();
    await h.startController('b');
    const ud = await h.settled(ns, 'crash', 12, 180_000);
    watching = false;
    await sampler;

    expect(Object.fromEntries((ud.status?.subsetStatuses ?? []).map((s) => [s.name, s.replicas]))).toEqual({ a: 4, b: 4, c: 4 });
    const sets = await h.workloads(ns, CS);
    expect(sets.map((s) => s.metadata?.labels?.['apps.kruise.io/subset-name']).sort()).toEqual(['a', 'b', 'c']);
    expect(Math.max(...samples.map((s) => s.total))).toBeLessThanOrEqual(12);
    expect(Math.max(...samples.map((s) => s.sets))).toBe(3);
    expect(await h.podsPerZone(ns)).toEqual({ east: 4, west: 4, central: 4 });
  }, 400_000);
});
