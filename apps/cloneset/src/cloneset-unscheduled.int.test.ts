// A pod no node can take yet (docs/adr/0049 amendment): the refresh leaves a new pod that has no node alone, so it
// shows the InPlaceUpdateReady readiness gate but no InPlaceUpdateReady condition and stays PreparingNormal (where
// OpenKruise writes the condition at once); once kube-scheduler binds it, the condition is True and the pod Normal.
import { afterAll, describe, expect, it } from 'vitest';
import type { Pod } from '@regatta/testing';
import { useCloneSetScenarios } from './testing/scenario-harness.js';
import { conditionOf, sleep, STATE } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();
const NODE = { apiVersion: 'v1', kind: 'Node', name: 'node1' } as const;
const key = 'regatta.test/unscheduled';

afterAll(async () => {
  await h.client
    .patch(NODE, { metadata: { labels: { [key]: null } } }, { type: 'merge' })
    .catch(() => undefined);
});

const shown = (p: Pod | undefined) =>
  p && {
    node: p.spec?.nodeName ?? '',
    gate: (p.spec?.readinessGates ?? []).map((g) => g.conditionType),
    inPlaceUpdateReady: conditionOf(p, 'InPlaceUpdateReady')?.status ?? 'none',
    state: p.metadata?.labels?.[STATE],
  };

describe('CloneSet pod that is not scheduled yet', () => {
  it('has the readiness gate and no InPlaceUpdateReady condition until it gets a node, then True and Normal', async () => {
    const ns = await h.namespace();
    await h.createDemo(ns, 'pending', (cs) => {
      cs.spec['replicas'] = 1;
      const template = cs.spec['template'] as { spec: Record<string, unknown> };
      template.spec['nodeSelector'] = { [key]: ns };
    });
    const pod = async () => (await h.pods(ns))[0];
    const unscheduled = {
      node: '',
      gate: ['InPlaceUpdateReady', 'KruisePodReady'],
      inPlaceUpdateReady: 'none',
      state: 'PreparingNormal',
    };
    await expect.poll(async () => shown(await pod()), { timeout: 30_000 }).toEqual(unscheduled);
    // the controller has had its reconciles of the new pod (the CloneSet's status counts it) and still leaves it alone
    await expect
      .poll(async () => (await h.cloneSet(ns, 'pending')).status?.replicas, { timeout: 30_000 })
      .toBe(1);
    await sleep(3_000);
    expect(shown(await pod())).toEqual(unscheduled);

    await h.client.patch(NODE, { metadata: { labels: { [key]: ns } } }, { type: 'merge' });
    await expect
      .poll(async () => shown(await pod()), { timeout: 60_000 })
      .toEqual({
        node: 'node1',
        gate: ['InPlaceUpdateReady', 'KruisePodReady'],
        inPlaceUpdateReady: 'True',
        state: 'Normal',
      });
  });
});
