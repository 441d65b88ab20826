// OpenKruise's UnitedDeployment e2e allocation scenarios (test/e2e/apps/v1beta1/uniteddeployment.go; docs/uniteddeployment.md
// "Reconcile"): the elastic (min/max) allocator and the specific allocator with percentages, scaled up and down; the
// pods follow the allocation into their zones.
import { describe, expect, it } from 'vitest';
import { unitedDeployment, type SubsetSpec } from './testing/fixtures.js';
import { useUnitedDeploymentScenarios } from './testing/scenario-harness.js';

const h = useUnitedDeploymentScenarios();

async function scaleThrough(name: string, subsets: SubsetSpec[], steps: [number, number[]][]): Promise<void> {
  const ns = await h.namespace();
  const [first, ...rest] = steps as [[number, number[]], ...[number, number[]][]];
  await h.create(unitedDeployment(ns, name, { replicas: first[0], subsets }));
  for (const [i, [replicas, expected]] of [first, ...rest].entries()) {
    if (i > 0) await h.patch(ns, name, { spec: { replicas } });
    const ud = await h.settled(ns, name, replicas);
    const bySubset = Object.fromEntries((ud.status?.subsetStatuses ?? []).map((s) => [s.name, s.replicas]));
    expect(subsets.map((s) => bySubset[s.name])).toEqual(expected);
    const perZone = await h.podsPerZone(ns);
    expect(subsets.map((s) => perZone[s.zone ?? ''] ?? 0)).toEqual(expected);
  }
}

describe('UnitedDeployment allocation (OpenKruise e2e)', () => {
  it('elastic allocator: {min 1, max 2}, {min 1, max 2}, {min 1}: 3 → 1/1/1, 7 → 2/2/3, 1 → 1/0/0', async () => {
    await scaleThrough(
      'elastic',
      [
        { name: 'subset-0', zone: 'east', minReplicas: 1, maxReplicas: 2 },
        { name: 'subset-1', zone: 'west', minReplicas: 1, maxReplicas: 2 },
        { name: 'subset-2', zone: 'central', minReplicas: 1 },
      ],
      [
        [3, [1, 1, 1]],
        [7, [2, 2, 3]],
        [1, [1, 0, 0]],
      ],
    );
  }, 400_000);

  it('specific allocator: 25 %, 25 %, the rest: 3 → 1/1/1, 4 → 1/1/2, 1 → 0/0/1', async () => {
    await scaleThrough(
      'specific',
      [
        { name: 'subset-0', zone: 'east', replicas: '25%' },
        { name: 'subset-1', zone: 'west', replicas: '25%' },
        { name: 'subset-2', zone: 'central' },
      ],
      [
        [3, [1, 1, 1]],
        [4, [1, 1, 2]],
        [1, [0, 0, 1]],
      ],
    );
  }, 400_000);
});
