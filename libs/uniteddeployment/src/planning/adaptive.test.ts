import { describe, expect, it } from 'vitest';
import type { Pod } from '@regatta/api';
import { defaultAdaptiveStatus } from './adaptive.js';

const now = new Date('2026-01-01T00:10:00Z');
const ago = (s: number) => new Date(now.getTime() - s * 1000).toISOString();
const pendingPod = (createdSecondsAgo: number, scheduled = false): Pod =>
  ({
    metadata: { name: 'p', creationTimestamp: ago(createdSecondsAgo) },
    spec: { containers: [], ...(scheduled ? { nodeName: 'n1' } : {}) },
    status: scheduled
      ? { phase: 'Running' }
      : { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] },
  }) as unknown as Pod;
const times = { rescheduleCriticalMs: 30_000, unschedulableMs: 300_000, now };

describe('defaultAdaptiveStatus (TestDefaultAdaptiveStrategy)', () => {
  it('a pending pod not yet timed out: schedulable, look again when it times out', () => {
    const s = defaultAdaptiveStatus({ condition: undefined, pods: [pendingPod(15)], replicas: 1, readyReplicas: 0 }, times);
    expect(s).toMatchObject({ unschedulable: false, pendingPods: 0, condition: undefined, requeueMs: [15_000] });
  });

  it('timed out: unschedulable for unschedulableDuration', () => {
    const s = defaultAdaptiveStatus({ condition: undefined, pods: [pendingPod(31)], replicas: 1, readyReplicas: 0 }, times);
    expect(s.unschedulable).toBe(true);
    expect(s.pendingPods).toBe(1);
    expect(s.condition).toMatchObject({ type: 'Schedulable', status: 'False', reason: 'reschedule', message: 'timeout pending pods found' });
    expect(s.requeueMs).toContain(300_000);
  });

  it('marked a minute ago: still unschedulable, look again in about four minutes', () => {
    const condition = { type: 'Schedulable', status: 'False', reason: 'reschedule', lastTransitionTime: ago(60) };
    const s = defaultAdaptiveStatus({ condition, pods: [], replicas: 1, readyReplicas: 1 }, times);
    expect(s.unschedulable).toBe(true);
    expect(s.requeueMs).toEqual([240_000]);
  });

  it('marked six minutes ago and the pod scheduled: recovered', () => {
    const condition = { type: 'Schedulable', status: 'False', reason: 'reschedule', lastTransitionTime: ago(360) };
    const s = defaultAdaptiveStatus({ condition, pods: [pendingPod(400, true)], replicas: 1, readyReplicas: 1 }, times);
    expect(s.unschedulable).toBe(false);
    expect(s.condition).toMatchObject({ status: 'True', reason: 'recover' });
    expect(s.requeueMs).toEqual([]);
  });
});
