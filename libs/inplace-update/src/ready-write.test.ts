import {
  LIFECYCLE_STATE_KEY,
  LIFECYCLE_TIMESTAMP_KEY,
  LifecycleState,
  type LifecycleStateType,
  type Pod,
  type PodCondition,
} from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { INPLACE_UPDATE_READY } from './keys.js';
import { type LifecycleAfterRefresh, mergesWithReady, readyStatusWrite } from './ready-write.js';

const now = new Date('2024-05-01T12:00:00Z');
const stamp = '2024-05-01T12:00:00Z';
const ready: PodCondition[] = [
  { type: 'Ready', status: 'False' },
  { type: INPLACE_UPDATE_READY, status: 'True', lastTransitionTime: stamp },
];
const pod = (state: LifecycleStateType | undefined): Pod => ({
  metadata: { name: 'p', namespace: 'ns', labels: state ? { [LIFECYCLE_STATE_KEY]: state } : {} },
  spec: { containers: [], readinessGates: [{ conditionType: INPLACE_UPDATE_READY }] },
  status: {
    conditions: [
      { type: 'Ready', status: 'False' },
      { type: INPLACE_UPDATE_READY, status: 'False' },
    ],
  },
});

describe('mergesWithReady', () => {
  it.each<[string, LifecycleAfterRefresh | undefined, boolean]>([
    ['no state change', undefined, false],
    ['to Normal', { state: LifecycleState.Normal }, true],
    ['to Normal with markPodNotReady', { state: LifecycleState.Normal, markPodNotReady: true }, true],
    ['to Updated (an inPlaceUpdate hook holds the pod)', { state: LifecycleState.Updated }, false],
    ['to PreparingUpdate', { state: LifecycleState.PreparingUpdate }, false],
  ])('%s → %s', (_name, next, expected) => {
    expect(mergesWithReady(next)).toBe(expected);
  });
});

describe('readyStatusWrite', () => {
  const merged = {
    merged: true,
    conditions: ready,
    metadata: {
      labels: { [LIFECYCLE_STATE_KEY]: LifecycleState.Normal },
      annotations: { [LIFECYCLE_TIMESTAMP_KEY]: stamp },
    },
  };
  it.each<[string, LifecycleStateType | undefined, LifecycleAfterRefresh | undefined, unknown]>([
    [
      'Updating → Normal (no hook): one write with the label',
      LifecycleState.Updating,
      { state: 'Normal' },
      merged,
    ],
    [
      'Updating → Normal with markPodNotReady: no not-ready key to touch, still one write',
      LifecycleState.Updating,
      { state: 'Normal', markPodNotReady: true },
      merged,
    ],
    ['Updated → Normal (hook released): one write', LifecycleState.Updated, { state: 'Normal' }, merged],
    ['PreparingNormal → Normal: one write', LifecycleState.PreparingNormal, { state: 'Normal' }, merged],
    [
      'Updating → Updated (the hook holds it): the condition alone',
      LifecycleState.Updating,
      { state: 'Updated' },
      { merged: false, conditions: ready },
    ],
    [
      'no lifecycle change: the condition alone',
      LifecycleState.Normal,
      undefined,
      { merged: false, conditions: ready },
    ],
    [
      'already Normal: nothing to merge, the condition alone',
      LifecycleState.Normal,
      { state: 'Normal' },
      { merged: false, conditions: ready },
    ],
    ['no lifecycle label → Normal: one write', undefined, { state: 'Normal' }, merged],
  ])('%s', (_name, state, next, expected) => {
    expect(readyStatusWrite(pod(state), ready, next, now)).toEqual(expected);
  });

  it('the input pod is not modified', () => {
    const p = pod(LifecycleState.Updating);
    const before = structuredClone(p);
    readyStatusWrite(p, ready, { state: LifecycleState.Normal }, now);
    expect(p).toEqual(before);
  });
});
