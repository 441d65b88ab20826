// Adaptive scheduling (docs/uniteddeployment.md "Adaptive scheduling"): a subset whose zone is full keeps its pods
// Pending-unschedulable (the real scheduler says so); after rescheduleCriticalSeconds the subset is marked
// Schedulable=False, keeps only its running pods, and the rest moves to the next subset.
import { describe, expect, it } from 'vitest';
import { randomId } from '@regatta/testing';
import { unitedDeployment } from './testing/fixtures.js';
import { useUnitedDeploymentScenarios } from './testing/scenario-harness.js';

const h = useUnitedDeploymentScenarios();

describe('UnitedDeployment Adaptive scheduling', () => {
  it('a full zone: its pending pods move to the next subset; the subset is marked unschedulable', async () => {
    const ns = await h.namespace();
    const tiny = `tiny-${randomId(2)}`;
    await h.addNode(tiny, { capacity: 'pods=2' });
    await h.create(
      unitedDeployment(ns, 'adaptive', {
        replicas: 4,
        subsets: [
          { name: 'small', zone: tiny, minReplicas: 0, maxReplicas: 4 },
          { name: 'big', zone: 'east', minReplicas: 0 },
        ],
        scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 10, unschedulableDuration: 300 } },
      }),
    );
    const ud = await h.settled(ns, 'adaptive', 4, 120_000);
    expect(await h.podsPerZone(ns)).toEqual({ [tiny]: 2, east: 2 });
    const small = ud.status?.subsetStatuses?.find((s) => s.name === 'small');
    expect(small?.replicas).toBe(2);
    expect(small?.conditions?.find((c) => c.type === 'Schedulable')).toMatchObject({ status: 'False', reason: 'reschedule' });
  }, 300_000);
});
