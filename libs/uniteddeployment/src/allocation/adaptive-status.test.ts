import { describe, expect, it } from 'vitest';
import type { Pod } from '@regatta/api';
import { toRfc3339 } from '@regatta/kube';
import { defaultAdaptiveSubsetState } from './adaptive-status.js';
import { adaptiveTiming } from './timing.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const ago = (s: number) => toRfc3339(NOW - s * 1000);
const timing = adaptiveTiming({ selector: {} }); // defaults: 30 s / 300 s

function pendingPod(createdSecondsAgo: number, nodeName?: string): Pod {
  return {
    metadata: { name: 'p', creationTimestamp: ago(createdSecondsAgo) },
    spec: nodeName ? { nodeName } : {},
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

describe('default Adaptive subset state (spec §6.7 TestDefaultAdaptiveStrategy)', () => {
  it('a pod unschedulable for 15 s: not yet timed out, look again in 15 s', () => {
    const s = defaultAdaptiveSubsetState(
      { replicas: 1, readyReplicas: 0, pods: [pendingPod(15)] },
      timing,
      NOW,
    );
    expect(s).toEqual({ unschedulable: false, pendingPods: 0, conditions: [], requeueAfterMs: 15_000 });
  });

  it('a pod unschedulable for 31 s: the subset is unschedulable for 300 s', () => {
    const s = defaultAdaptiveSubsetState(
      { replicas: 1, readyReplicas: 0, pods: [pendingPod(31)] },
      timing,
      NOW,
    );
    expect(s.unschedulable).toBe(true);
    expect(s.pendingPods).toBe(1);
    expect(s.requeueAfterMs).toBe(300_000);
    expect(s.conditions).toEqual([
      {
        type: 'Schedulable',
        status: 'False',
        reason: 'reschedule',
        message: 'timeout pending pods found',
        lastTransitionTime: ago(0),
      },
    ]);
  });

  it('marked 1 min ago: still unschedulable, recovers in 240 s', () => {
    const marked = [
      {
        type: 'Schedulable',
        status: 'False',
        reason: 'reschedule',
        message: 'timeout pending pods found',
        lastTransitionTime: ago(60),
      },
    ];
    const s = defaultAdaptiveSubsetState(
      { conditions: marked, replicas: 1, readyReplicas: 0, pods: [pendingPod(91)] },
      timing,
      NOW,
    );
    expect(s.unschedulable).toBe(true);
    expect(s.requeueAfterMs).toBe(240_000);
    expect(s.conditions).toEqual(marked); // same status and reason: unchanged
  });

  it('marked 6 min ago and the pod got scheduled: recovered, nothing to wait for', () => {
    const marked = [
      { type: 'Schedulable', status: 'False', reason: 'reschedule', lastTransitionTime: ago(360) },
    ];
    const s = defaultAdaptiveSubsetState(
      { conditions: marked, replicas: 1, readyReplicas: 0, pods: [pendingPod(400, 'node-1')] },
      timing,
      NOW,
    );
    expect(s.unschedulable).toBe(false);
    expect(s.requeueAfterMs).toBeUndefined();
    expect(s.conditions).toEqual([
      {
        type: 'Schedulable',
        status: 'True',
        reason: 'recover',
        message: 'unschedulable subset recovered after 300.000000 seconds',
        lastTransitionTime: ago(0),
      },
    ]);
  });

  it('does not look at pods while every pod is ready', () => {
    const s = defaultAdaptiveSubsetState(
      { replicas: 1, readyReplicas: 1, pods: [pendingPod(100)] },
      timing,
      NOW,
    );
    expect(s.pendingPods).toBe(0);
  });

  it('ignores deleting pods and pods without the Unschedulable condition', () => {
    const deleting = {
      ...pendingPod(100),
      metadata: { creationTimestamp: ago(100), deletionTimestamp: ago(1) },
    };
    const plain: Pod = { metadata: { creationTimestamp: ago(100) }, status: { phase: 'Pending' } };
    const s = defaultAdaptiveSubsetState(
      { replicas: 2, readyReplicas: 0, pods: [deleting, plain] },
      timing,
      NOW,
    );
    expect(s).toEqual({ unschedulable: false, pendingPods: 0, conditions: [] });
  });
});
