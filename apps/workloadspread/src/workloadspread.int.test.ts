// What a user sees of a WorkloadSpread over the cluster's zones (docs/workloadspread.md): each subset holds its
// maxReplicas, a scale-in removes pods from the last subsets first, and — the program killed — pods of an untargeted
// workload are created as usual while a targeted one waits (docs/adr/0081-workloadspread-admission.md).
import { describe, expect, it } from 'vitest';
import type { WorkloadSpread } from '@regatta/api';
import { traceSpans } from '@regatta/testing';
import { CS, WS, cloneSet, inZone, useWorkloadSpreadScenarios } from './testing/harness.js';

const s = useWorkloadSpreadScenarios();

const spreadOver = (ns: string, name: string, target: string): WorkloadSpread => ({
  ...WS,
  metadata: { name, namespace: ns },
  spec: {
    targetRef: { apiVersion: CS.apiVersion, kind: 'CloneSet', name: target },
    subsets: [
      { name: 'a', requiredNodeSelectorTerm: inZone('zone-a'), maxReplicas: 2, patch: { metadata: { labels: { subset: 'a' } } } },
      { name: 'b', requiredNodeSelectorTerm: inZone('zone-b'), maxReplicas: 2 },
      { name: 'c', requiredNodeSelectorTerm: inZone('zone-c') },
    ],
  },
});

describe('WorkloadSpread', () => {
  it('a CloneSet spread over the zones: each subset holds its maxReplicas; scale-in removes from the last subsets', async () => {
    const ns = await s.namespace();
    const ws = await s.create(spreadOver(ns, 'spread', 'web'));
    await s.create(cloneSet(ns, 'web', 6));
    await expect.poll(() => s.zones(ns, 'web'), { timeout: 60_000, interval: 500 }).toEqual({ 'zone-a': 2, 'zone-b': 2, 'zone-c': 2 });
    const pods = await s.pods(ns, 'web');
    expect(pods.filter((p) => p.metadata?.labels?.['subset'] === 'a')).toHaveLength(2);
    await expect
      .poll(async () => (await s.spread(ns, 'spread'))?.status?.subsetStatuses?.map((x) => [x.name, x.replicas, x.missingReplicas, Object.keys(x.creatingPods ?? {}).length]), { timeout: 30_000 })
      .toEqual([
        ['a', 2, 0, 0],
        ['b', 2, 0, 0],
        ['c', 2, -1, 0],
      ]);
    // the costs are in place before the scale-in: 300 / 200 / 100
    await expect
      .poll(async () => (await s.pods(ns, 'web')).map((p) => p.metadata?.annotations?.['controller.kubernetes.io/pod-deletion-cost']).sort(), { timeout: 30_000 })
      .toEqual(['100', '100', '200', '200', '300', '300']);
    await s.scale(ns, 'web', 3);
    await expect.poll(() => s.zones(ns, 'web'), { timeout: 60_000, interval: 500 }).toEqual({ 'zone-a': 2, 'zone-b': 1 });
    // and out again: the free room of b and c is taken, a is full
    await s.scale(ns, 'web', 5);
    await expect.poll(() => s.zones(ns, 'web'), { timeout: 60_000, interval: 500 }).toEqual({ 'zone-a': 2, 'zone-b': 2, 'zone-c': 1 });

    // a span per placed pod, in the spread's trace (id: its uid), with the subset it got: 6, then b and c once more
    const bySubset = async () => {
      const spans = await traceSpans(s.layer.jaegerQuery, (ws.metadata?.uid ?? '').replace(/-/g, ''));
      const out: Record<string, number> = {};
      for (const sp of spans.filter((x) => x.operationName === 'workloadspread.place')) {
        const subset = String(sp.tags['regatta.workloadspread.subset']);
        out[subset] = (out[subset] ?? 0) + 1;
      }
      return out;
    };
    await expect.poll(bySubset, { timeout: 30_000, interval: 1000 }).toEqual({ a: 2, b: 3, c: 3 });
    // kubectl get shows upstream's columns
    const got = await s.kubectl(['get', 'ws', '-n', ns]);
    expect(got.stdout.split('\n')[0]).toMatch(/^NAME\s+WORKLOADNAME\s+WORKLOADKIND\s+ADAPTIVE\s+AGE/);
    expect(got.stdout).toMatch(/spread\s+web\s+CloneSet\s+/);

    // deleted, its webhook entry goes: the CloneSet's pods no longer reach the program
    const entry = `spread.${ns}.workloadspread.pods.regatta.kruise.io`;
    expect(await s.podWebhookEntries()).toContain(entry);
    await s.client.delete({ ...WS, namespace: ns, name: 'spread' });
    await expect.poll(() => s.podWebhookEntries(), { timeout: 20_000 }).not.toContain(entry);
  });

  it('Adaptive: pods that cannot schedule in their subset are moved to the next one after rescheduleCriticalSeconds', async () => {
    const ns = await s.namespace();
    await s.create<WorkloadSpread>({
      ...WS,
      metadata: { name: 'adaptive', namespace: ns },
      spec: {
        targetRef: { apiVersion: CS.apiVersion, kind: 'CloneSet', name: 'moved' },
        subsets: [
          { name: 'nowhere', requiredNodeSelectorTerm: inZone('zone-none'), maxReplicas: 2 },
          { name: 'b', requiredNodeSelectorTerm: inZone('zone-b') },
        ],
        scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 3 } },
      },
    });
    await s.create(cloneSet(ns, 'moved', 3));
    await expect.poll(() => s.zones(ns, 'moved'), { timeout: 60_000, interval: 500 }).toEqual({ 'zone-b': 3 });
    const status = (await s.spread(ns, 'adaptive'))?.status?.subsetStatuses;
    expect(status?.map((x) => [x.name, x.conditions?.find((c) => c.type === 'Schedulable')?.status])).toEqual([
      ['nowhere', 'False'],
      ['b', 'True'],
    ]);
  });

  it('program killed: pods of an untargeted CloneSet are created at once, a targeted pod is refused', async () => {
    const ns = await s.namespace();
    await s.create(spreadOver(ns, 'spread', 'targeted'));
    const targeted = await s.create(cloneSet(ns, 'targeted', 1));
    await expect.poll(() => s.zones(ns, 'targeted'), { timeout: 60_000 }).toEqual({ 'zone-a': 1 });

    s.layer.controller.killNow();
    await new Promise((r) => setTimeout(r, 500));

    const started = Date.now();
    await s.create(cloneSet(ns, 'untargeted', 4));
    await expect.poll(async () => (await s.pods(ns, 'untargeted')).length, { timeout: 10_000, interval: 200 }).toBe(4);
    expect(Date.now() - started).toBeLessThan(10_000);
    // a pod the spread's target controls goes to the webhook, which does not answer: refused, not created unplaced
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'targeted-by-hand',
        namespace: ns,
        labels: { app: 'by-hand' },
        ownerReferences: [{ apiVersion: CS.apiVersion, kind: 'CloneSet', name: 'targeted', uid: targeted.metadata!.uid!, controller: true }],
      },
      spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] },
    };
    await expect(s.create(pod)).rejects.toThrow(/workloadspread|webhook/i);
  });
});
