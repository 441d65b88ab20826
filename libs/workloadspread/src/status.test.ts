import type { Pod, WorkloadSpread } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { matchedValue, VERSION_IGNORED } from './matched.js';
import { FAKE_SUBSET, planRound, unscheduledTimeout } from './status.js';

const now = new Date('2026-12-07T10:00:00Z');
const zone = (v: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [v] }] });
const spread = (extra: Partial<WorkloadSpread['spec']> = {}, status?: WorkloadSpread['status']): WorkloadSpread => ({
  metadata: { name: 'ws', namespace: 'ns', generation: 2 },
  spec: {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' },
    subsets: [
      { name: 'a', requiredNodeSelectorTerm: zone('a'), maxReplicas: 2 },
      { name: 'b', requiredNodeSelectorTerm: zone('b') },
    ],
    ...extra,
  },
  ...(status ? { status } : {}),
});
const pod = (name: string, subset?: string, extra: Partial<Pod> = {}): Pod => ({
  metadata: {
    name,
    namespace: 'ns',
    creationTimestamp: '2026-12-07T09:59:00Z',
    ...(subset ? { annotations: { 'apps.kruise.io/matched-workloadspread': matchedValue({ name: 'ws', subset }) } } : {}),
  },
  spec: { nodeName: 'n1' },
  status: { phase: 'Running' },
  ...extra,
});
const nodes: Record<string, { metadata: { name: string; labels: Record<string, string> } }> = {
  n1: { metadata: { name: 'n1', labels: { zone: 'a' } } },
  n2: { metadata: { name: 'n2', labels: { zone: 'b' } } },
};
const round = (ws: WorkloadSpread, pods: Pod[], replicas = 4) => planRound({ ws, pods, replicas, node: (n) => nodes[n], now });

describe('planRound (syncWorkloadSpread)', () => {
  it('counts active pods per subset; missingReplicas is the maximum less them (-1 without one)', () => {
    const plan = round(spread(), [pod('p1', 'a'), pod('p2', 'b'), pod('p3', 'b'), pod('p4', 'a', { status: { phase: 'Succeeded' } })]);
    expect(plan.status).toEqual({
      observedGeneration: 2,
      subsetStatuses: [
        { name: 'a', replicas: 1, missingReplicas: 1 },
        { name: 'b', replicas: 2, missingReplicas: -1 },
      ],
      versionedSubsetStatuses: {
        [VERSION_IGNORED]: [
          { name: 'a', replicas: 1, missingReplicas: 1 },
          { name: 'b', replicas: 2, missingReplicas: -1 },
        ],
      },
    });
    expect(plan.adopt).toEqual([]);
    expect(plan.requeueAfterMs).toBeUndefined();
  });

  it('keeps a recorded creation until the pod shows or 30 s pass, and counts it as placed', () => {
    const ws = spread({}, {
      subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 0, creatingPods: { gen: '2026-12-07T09:59:50Z', old: '2026-12-07T09:59:00Z', p1: '2026-12-07T09:59:59Z' } }],
    });
    const plan = round(ws, [pod('p1', 'a')]);
    expect(plan.status.subsetStatuses?.[0]).toEqual({ name: 'a', replicas: 1, missingReplicas: 0, creatingPods: { gen: '2026-12-07T09:59:50Z' } });
    expect(plan.events.map((e) => e.reason)).toEqual(['CreatePodFailed']);
    expect(plan.requeueAfterMs).toBe(20_000);
  });

  it('a pod created before the spread is tied to the subset its node belongs to', () => {
    const plan = round(spread(), [pod('old', undefined, { spec: { nodeName: 'n2' } }), pod('pending', undefined, { spec: {} })]);
    expect(plan.adopt.map((a) => [a.pod.metadata?.name, a.subset])).toEqual([['old', 'b']]);
    expect(plan.adopt[0]?.patch).toEqual({ metadata: { annotations: { 'apps.kruise.io/matched-workloadspread': '{"name":"ws","subset":"b"}' } } });
    expect(plan.subsetOf.get('pending')).toBe(FAKE_SUBSET);
    expect(plan.status.subsetStatuses?.[1]?.replicas).toBe(1);
  });

  it('Adaptive: pods unschedulable past rescheduleCriticalSeconds are rescheduled and their subset marked', () => {
    const unschedulable: Partial<Pod> = {
      spec: {},
      status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] },
    };
    const ws = spread({ scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 30 } } });
    const plan = round(ws, [pod('stuck', 'a', unschedulable), pod('young', 'a', { ...unschedulable, metadata: { ...pod('young', 'a').metadata, creationTimestamp: '2026-12-07T09:59:50Z' } })]);
    expect(plan.reschedule.map((p) => p.metadata?.name)).toEqual(['stuck']);
    expect(plan.status.subsetStatuses?.map((s) => s.conditions?.[0]?.status)).toEqual(['False', 'True']);
    expect(plan.requeueAfterMs).toBe(20_000);
  });

  it('Adaptive: a subset marked unschedulable is tried again after 5 minutes', () => {
    const marked = (at: string): WorkloadSpread['status'] => ({
      subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 2, conditions: [{ type: 'Schedulable', status: 'False', lastTransitionTime: at }] }],
    });
    const strategy = { scheduleStrategy: { type: 'Adaptive' as const, adaptive: { rescheduleCriticalSeconds: 30 } } };
    expect(round(spread(strategy, marked('2026-12-07T09:58:00Z')), []).status.subsetStatuses?.[0]?.conditions?.[0]?.status).toBe('False');
    const recovered = round(spread(strategy, marked('2026-12-07T09:54:00Z')), []);
    expect(recovered.status.subsetStatuses?.[0]?.conditions?.[0]?.status).toBe('True');
    expect(recovered.events.map((e) => e.reason)).toEqual(['RecoverSchedulable']);
  });

  it('unscheduledTimeout: only pending, unassigned pods the scheduler gave up on', () => {
    const p = pod('p', 'a', { spec: {}, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } });
    expect(unscheduledTimeout(p, 30, now)).toEqual({ timedOut: true });
    expect(unscheduledTimeout(p, 120, now)).toEqual({ timedOut: false, afterMs: 60_000 });
    expect(unscheduledTimeout(pod('r', 'a'), 30, now)).toEqual({ timedOut: false });
  });
});
