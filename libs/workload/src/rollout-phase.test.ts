import { describe, expect, it } from 'vitest';
import { rolloutPhase, rolloutSample, type RolloutPhase } from './rollout-phase.js';
import { rolloutProgress, type Workload } from './rollout-status.js';

const cloneSet = (
  spec: Record<string, unknown>,
  status: Record<string, unknown>,
  conditions: unknown[] = [],
): Workload => ({
  metadata: { name: 'web', generation: 2 },
  spec: { replicas: 3, ...spec },
  status: { observedGeneration: 2, replicas: 3, ...status, conditions },
});
const DONE = { updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 };
const MID = { updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 };

describe('rolloutPhase', () => {
  it.each<[string, Workload, RolloutPhase]>([
    ['every pod updated, ready and available', cloneSet({}, DONE), 'Completed'],
    ['pods still to update', cloneSet({}, MID), 'Progressing'],
    ['the status not at the current generation yet', cloneSet({}, { ...DONE, observedGeneration: 1 }), 'Progressing'],
    ['paused mid-rollout', cloneSet({ updateStrategy: { paused: true } }, MID), 'Paused'],
    ['paused after everything is done', cloneSet({ updateStrategy: { paused: true } }, DONE), 'Completed'],
    ['a partition holding the rest, the others done', cloneSet({ updateStrategy: { partition: 2 } }, MID), 'Completed'],
    [
      'the progress deadline passed',
      cloneSet({}, MID, [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }]),
      'Degraded',
    ],
    ['a scale failure', cloneSet({}, MID, [{ type: 'FailedScale', status: 'True', message: 'quota' }]), 'Degraded'],
    ['a cleared failure', cloneSet({}, DONE, [{ type: 'FailedUpdate', status: 'False' }]), 'Completed'],
    [
      'progressing within its deadline',
      cloneSet({}, MID, [{ type: 'Progressing', status: 'True', reason: 'CloneSetUpdated' }]),
      'Progressing',
    ],
    ['malformed conditions are ignored', cloneSet({}, DONE, [null, 'x', { type: 3 }]), 'Completed'],
  ])('CloneSet: %s → %s', (_, w, want) => {
    expect(rolloutPhase(rolloutProgress('CloneSet', w), w.status?.['conditions'])).toBe(want);
  });

  it('Advanced DaemonSet: desired from the scheduled nodes; a pod creation failure degrades it', () => {
    const ds: Workload = {
      metadata: { name: 'agent', generation: 1 },
      spec: {},
      status: { observedGeneration: 1, desiredNumberScheduled: 2, updatedNumberScheduled: 2, numberReady: 2, numberAvailable: 2 },
    };
    expect(rolloutPhase(rolloutProgress('DaemonSet', ds), undefined)).toBe('Completed');
    expect(rolloutPhase(rolloutProgress('DaemonSet', ds), [{ type: 'FailedCreatePod', status: 'True' }])).toBe('Degraded');
  });
});

describe('rolloutSample', () => {
  it('gives the phase and the counts the metrics show; kinds without an available count leave it out', () => {
    expect(rolloutSample('CloneSet', cloneSet({ updateStrategy: { paused: true } }, MID))).toEqual({
      phase: 'Paused',
      desired: 3,
      updated: 1,
      ready: 3,
      available: 3,
    });
    const ud: Workload = {
      metadata: { name: 'ud', generation: 1 },
      spec: { replicas: 2 },
      status: { observedGeneration: 1, updatedReplicas: 2, readyReplicas: 2 },
    };
    expect(rolloutSample('UnitedDeployment', ud)).toEqual({
      phase: 'Completed',
      desired: 2,
      updated: 2,
      ready: 2,
      available: undefined,
    });
  });
});
