import { describe, expect, it } from 'vitest';
import { LIFECYCLE_STATE_KEY, LIFECYCLE_TIMESTAMP_KEY, LifecycleState } from './keys.js';
import type { Pod } from './pod.js';
import { KRUISE_POD_READY } from './pod-readiness.js';
import { getPodLifecycleState, isLifecycleStateAvailable, setPodLifecycle, transition } from './state.js';

const now = new Date('2024-05-01T12:00:00Z');
const ts = '2024-05-01T12:00:00Z';
const pod = (state?: string, gate = false, finalizers: string[] = []): Pod => ({
  metadata: {
    name: 'p',
    labels: state ? { app: 'x', [LIFECYCLE_STATE_KEY]: state } : { app: 'x' },
    finalizers,
  },
  spec: gate ? { readinessGates: [{ conditionType: KRUISE_POD_READY }] } : {},
  status: { conditions: [] },
});

describe('state label', () => {
  it('reads "" without the label', () => {
    expect(getPodLifecycleState(pod())).toBe('');
    expect(getPodLifecycleState(pod('Updating'))).toBe('Updating');
    expect(getPodLifecycleState(undefined)).toBe('');
  });
  it('counts "" and Normal as available states only', () => {
    expect(
      ['', 'Normal', 'PreparingNormal', 'Updated', 'PreparingDelete'].map((s) =>
        isLifecycleStateAvailable(pod(s)),
      ),
    ).toEqual([true, true, false, false, false]);
  });
  it('setPodLifecycle writes label and timestamp on a copy', () => {
    const p = pod();
    const out = setPodLifecycle(p, LifecycleState.PreparingNormal, now);
    expect(out.metadata?.labels).toEqual({ app: 'x', [LIFECYCLE_STATE_KEY]: 'PreparingNormal' });
    expect(out.metadata?.annotations).toEqual({ [LIFECYCLE_TIMESTAMP_KEY]: ts });
    expect(p.metadata?.labels).toEqual({ app: 'x' });
  });
});

describe('transition (UpdatePodLifecycle)', () => {
  it('patches state and timestamp', () => {
    const t = transition(pod('Normal'), LifecycleState.PreparingDelete, now);
    expect(t.updated).toBe(true);
    expect(t.patch).toEqual({
      metadata: {
        labels: { [LIFECYCLE_STATE_KEY]: 'PreparingDelete' },
        annotations: { [LIFECYCLE_TIMESTAMP_KEY]: ts },
      },
    });
    expect(t.conditions).toBeUndefined();
    expect(getPodLifecycleState(t.pod)).toBe('PreparingDelete');
  });

  it('is a no-op in the same state', () => {
    const p = pod('Normal');
    expect(transition(p, LifecycleState.Normal, now)).toEqual({ updated: false, pod: p });
  });

  it.each([
    ['PreparingDelete', 'preDeleteHook'],
    ['PreparingUpdate', 'preUpdateHook'],
  ] as const)('markPodNotReady entering %s adds the %s key', (state, key) => {
    const t = transition(pod('Normal', true), state, now, { markPodNotReady: true });
    expect(t.conditions).toEqual([
      {
        type: KRUISE_POD_READY,
        status: '',
        message: `[{"userAgent":"Lifecycle","key":"${key}"}]`,
        lastTransitionTime: ts,
      },
    ]);
    expect(t.pod.status?.conditions).toEqual(t.conditions);
  });

  it('markPodNotReady runs even when the state is already set, without a metadata patch', () => {
    const t = transition(pod('PreparingDelete', true), LifecycleState.PreparingDelete, now, {
      markPodNotReady: true,
    });
    expect(t.updated).toBe(false);
    expect(t.patch).toBeUndefined();
    expect(t.conditions).toHaveLength(1);
  });

  it('markPodNotReady entering Updated removes the preUpdateHook key', () => {
    const held = transition(pod('Normal', true), LifecycleState.PreparingUpdate, now, {
      markPodNotReady: true,
    }).pod;
    const t = transition(held, LifecycleState.Updated, now, { markPodNotReady: true });
    expect(t.conditions).toEqual([
      { type: KRUISE_POD_READY, status: 'True', message: '[]', lastTransitionTime: ts },
    ]);
  });

  it('markPodNotReady is ignored for pods without the KruisePodReady gate and for other states', () => {
    expect(
      transition(pod('Normal'), LifecycleState.PreparingDelete, now, { markPodNotReady: true }).conditions,
    ).toBeUndefined();
    expect(
      transition(pod('Updated', true), LifecycleState.Normal, now, { markPodNotReady: true }).conditions,
    ).toBeUndefined();
  });
});

describe('transition with rehook (UpdatePodLifecycleWithHandler)', () => {
  const hook = {
    labelsHandler: { 'slb/online': 'true' },
    finalizersHandler: ['slb/ready'],
    markPodNotReady: true,
  };

  it('re-adds the hook labels and finalizers with the state', () => {
    const t = transition(pod('Updated', true, ['other']), LifecycleState.PreparingUpdate, now, {
      rehook: hook,
    });
    expect(t.patch).toEqual({
      metadata: {
        labels: { [LIFECYCLE_STATE_KEY]: 'PreparingUpdate', 'slb/online': 'true' },
        annotations: { [LIFECYCLE_TIMESTAMP_KEY]: ts },
        finalizers: ['slb/ready'],
      },
    });
    expect(t.pod.metadata?.finalizers).toEqual(['other', 'slb/ready']);
    expect(t.pod.metadata?.labels?.['slb/online']).toBe('true');
    expect(t.conditions?.[0]?.message).toBe('[{"userAgent":"Lifecycle","key":"preUpdateHook"}]');
  });

  it('leaves finalizers out of the patch for a hook without any', () => {
    const t = transition(pod('Updated'), LifecycleState.PreparingUpdate, now, {
      rehook: { labelsHandler: { a: 'b' } },
    });
    expect(t.patch?.metadata.finalizers).toBeUndefined();
    expect(t.conditions).toBeUndefined();
  });

  it('does nothing without a hook', () => {
    const p = pod('Updated');
    expect(transition(p, LifecycleState.PreparingUpdate, now, { rehook: null })).toEqual({
      updated: false,
      pod: p,
    });
  });
});
