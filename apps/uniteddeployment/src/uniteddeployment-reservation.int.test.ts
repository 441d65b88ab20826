// Adaptive scheduling with reserveUnschedulablePods (OpenKruise e2e "reserved pods", docs/uniteddeployment.md
// "Adaptive scheduling"): pods stuck in subsets whose zone has no node stay, labelled reserved, and as many temporary
// pods run in the next subset; the status counts only the pods not reserved.
import { describe, expect, it } from 'vitest';
import { randomId } from '@regatta/testing';
import { unitedDeployment } from './testing/fixtures.js';
import { isReady, useUnitedDeploymentScenarios } from './testing/scenario-harness.js';

const h = useUnitedDeploymentScenarios();
const RESERVED = 'apps.kruise.io/united-deployment-reserved-pod';

describe('UnitedDeployment reserved pods', () => {
  it('two unschedulable subsets: pods 2/2/2 of which 2/2/0 reserved; the ready pods run in the schedulable subset', async () => {
    const ns = await h.namespace();
    const nowhere = `nowhere-${randomId(2)}`;
    await h.create(
      unitedDeployment(ns, 'reserve', {
        replicas: 2,
        subsets: [
          { name: 'subset-0', zone: `${nowhere}-0` },
          { name: 'subset-1', zone: `${nowhere}-1` },
          { name: 'subset-2', zone: 'east' },
        ],
        scheduleStrategy: {
          type: 'Adaptive',
          adaptive: { rescheduleCriticalSeconds: 10, unschedulableDuration: 1, reserveUnschedulablePods: true },
        },
      }),
    );
    const shape = async () => {
      const ud = await h.unitedDeployment(ns, 'reserve');
      const pods = await h.pods(ns);
      const of = (subset: string) => pods.filter((p) => p.metadata?.labels?.['apps.kruise.io/subset-name'] === subset);
      const subsets = ['subset-0', 'subset-1', 'subset-2'];
      return {
        pods: subsets.map((s) => of(s).length),
        reserved: subsets.map((s) => of(s).filter((p) => p.metadata?.labels?.[RESERVED] === 'true').length),
        ready: subsets.map((s) => of(s).filter(isReady).length),
        replicas: ud.status?.replicas,
        labelSelector: ud.status?.labelSelector,
      };
    };
    await expect
      .poll(shape, { timeout: 150_000, interval: 1000 })
      .toEqual({
        pods: [2, 2, 2],
        reserved: [2, 2, 0],
        ready: [0, 0, 2],
        replicas: 2,
        labelSelector: `app=reserve,${RESERVED}=false`,
      });
  }, 300_000);
});
