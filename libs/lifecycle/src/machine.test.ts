import { describe, expect, it } from 'vitest';
import type { Lifecycle } from './hooks.js';
import { LIFECYCLE_STATE_KEY, type LifecycleStateType } from './keys.js';
import {
  LifecycleStateError,
  canCancelPreparingDelete,
  deleteStep,
  inPlaceUpdateStep,
  refreshLifecycleState,
} from './machine.js';
import type { Pod } from './pod.js';

const pod = (
  state: string,
  opts: { labels?: Record<string, string>; finalizers?: string[]; nodeName?: string } = {},
): Pod => ({
  metadata: {
    name: 'pod-0',
    labels: { ...(state ? { [LIFECYCLE_STATE_KEY]: state } : {}), ...(opts.labels ?? {}) },
    finalizers: opts.finalizers ?? [],
  },
  spec: opts.nodeName ? { nodeName: opts.nodeName } : {},
});
const labelHook = { labelsHandler: { 'hook/ok': 'true' } };
const finalizerHook = { finalizersHandler: ['slb/online'] };

// CloneSet TestUpdate lifecycle rows and the state machine of `pkg/util/lifecycle/lifecycle_utils.go`
describe('refreshLifecycleState (refreshPodState)', () => {
  const facts = { atUpdateRevision: false, inPlaceUpdateCompleted: false };
  const cases: [string, Pod, Lifecycle | null, Partial<typeof facts>, LifecycleStateType | undefined][] = [
    [
      'PreparingNormal, no hook, scheduled → Normal',
      pod('PreparingNormal', { nodeName: 'n1' }),
      null,
      {},
      'Normal',
    ],
    ['PreparingNormal, no hook, not scheduled → stays', pod('PreparingNormal'), null, {}, undefined],
    [
      'PreparingNormal, preNormal label hook not satisfied → stays',
      pod('PreparingNormal', { nodeName: 'n1' }),
      { preNormal: labelHook },
      {},
      undefined,
    ],
    [
      'PreparingNormal, preNormal label hook satisfied → Normal (scheduling not needed)',
      pod('PreparingNormal', { labels: { 'hook/ok': 'true' } }),
      { preNormal: labelHook },
      {},
      'Normal',
    ],
    [
      'PreparingNormal, preNormal & inPlaceUpdate finalizer present → Normal',
      pod('PreparingNormal', { finalizers: ['slb/online'] }),
      { preNormal: finalizerHook, inPlaceUpdate: finalizerHook },
      {},
      'Normal',
    ],
    [
      'PreparingUpdate, not at update revision → stays',
      pod('PreparingUpdate'),
      { inPlaceUpdate: labelHook },
      {},
      undefined,
    ],
    [
      'PreparingUpdate, rolled back to update revision, hook not all-hooked → Updated',
      pod('PreparingUpdate'),
      { inPlaceUpdate: labelHook },
      { atUpdateRevision: true },
      'Updated',
    ],
    [
      'PreparingUpdate, at update revision, all-hooked → Normal',
      pod('PreparingUpdate', { labels: { 'hook/ok': 'true' } }),
      { inPlaceUpdate: labelHook },
      { atUpdateRevision: true },
      'Normal',
    ],
    [
      'PreparingUpdate, at update revision, no lifecycle → Normal',
      pod('PreparingUpdate'),
      null,
      { atUpdateRevision: true },
      'Normal',
    ],
    ['Updating, not completed → stays', pod('Updating'), null, {}, undefined],
    [
      'Updating, completed, no lifecycle → Normal',
      pod('Updating'),
      null,
      { inPlaceUpdateCompleted: true },
      'Normal',
    ],
    [
      'Updating, completed, lifecycle without inPlaceUpdate hook → Updated',
      pod('Updating'),
      { preDelete: labelHook },
      { inPlaceUpdateCompleted: true },
      'Updated',
    ],
    [
      'Updating, completed, hook all-hooked → Normal',
      pod('Updating', { finalizers: ['slb/online'] }),
      { inPlaceUpdate: finalizerHook },
      { inPlaceUpdateCompleted: true },
      'Normal',
    ],
    ['Updated, no inPlaceUpdate hook → Normal', pod('Updated'), { preDelete: labelHook }, {}, 'Normal'],
    [
      'Updated, hook not yet put back → stays',
      pod('Updated'),
      { inPlaceUpdate: finalizerHook },
      {},
      undefined,
    ],
    [
      'Updated, hook put back → Normal',
      pod('Updated', { finalizers: ['slb/online'] }),
      { inPlaceUpdate: finalizerHook },
      {},
      'Normal',
    ],
    [
      'Normal → stays',
      pod('Normal'),
      null,
      { atUpdateRevision: true, inPlaceUpdateCompleted: true },
      undefined,
    ],
    ['PreparingDelete → stays', pod('PreparingDelete'), null, {}, undefined],
  ];
  it.each(cases)('%s', (_n, p, lifecycle, f, expected) => {
    expect(refreshLifecycleState(p, lifecycle, { ...facts, ...f })).toBe(expected);
  });
});

describe('inPlaceUpdateStep (updatePod lifecycle switch)', () => {
  const hooked = { inPlaceUpdate: { ...finalizerHook, markPodNotReady: true } };
  const cases: [string, Pod, Lifecycle | null, ReturnType<typeof inPlaceUpdateStep>][] = [
    ['"" without hook → update', pod(''), null, { action: 'update' }],
    ['PreparingNormal, hooks not present → update', pod('PreparingNormal'), hooked, { action: 'update' }],
    [
      'Normal with inPlaceUpdate finalizer hooked → PreparingUpdate',
      pod('Normal', { finalizers: ['slb/online'] }),
      hooked,
      { action: 'prepareUpdate', markPodNotReady: true },
    ],
    ['Updated → re-hook into PreparingUpdate', pod('Updated'), hooked, { action: 'rehook' }],
    [
      'PreparingUpdate still hooked → wait',
      pod('PreparingUpdate', { finalizers: ['slb/online'] }),
      hooked,
      { action: 'wait' },
    ],
    ['PreparingUpdate released → update', pod('PreparingUpdate'), hooked, { action: 'update' }],
    ['Updating → update', pod('Updating'), hooked, { action: 'update' }],
  ];
  it.each(cases)('%s', (_n, p, lifecycle, expected) => {
    expect(inPlaceUpdateStep(p, lifecycle)).toEqual(expected);
  });
  it('refuses PreparingDelete and unknown states', () => {
    expect(() => inPlaceUpdateStep(pod('PreparingDelete'), null)).toThrow(LifecycleStateError);
    expect(() => inPlaceUpdateStep(pod('Weird'), null)).toThrow(
      'not allowed to in-place update pod pod-0 in state Weird',
    );
  });
});

describe('deleteStep / canCancelPreparingDelete', () => {
  it('holds hooked pods in PreparingDelete', () => {
    expect(
      deleteStep(pod('Normal', { labels: { 'hook/ok': 'true' } }), {
        preDelete: { ...labelHook, markPodNotReady: true },
      }),
    ).toEqual({
      action: 'prepareDelete',
      markPodNotReady: true,
    });
    expect(deleteStep(pod('Normal'), { preDelete: labelHook })).toEqual({ action: 'delete' });
    expect(deleteStep(pod('Normal'), null)).toEqual({ action: 'delete' });
  });
  it('never cancels a deletion when a hook marks pods not ready', () => {
    expect(canCancelPreparingDelete(null)).toBe(true);
    expect(canCancelPreparingDelete({ preNormal: { markPodNotReady: true } })).toBe(true);
    expect(canCancelPreparingDelete({ inPlaceUpdate: { markPodNotReady: true } })).toBe(false);
  });
});
