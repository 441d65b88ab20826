import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { initialState } from '../planning/index.js';
import type { AstsSync } from './context.js';
import { nextLifecycleState } from './refresh.js';

const STATE = 'lifecycle.apps.kruise.io/state';
const hook = { labelsHandler: { hold: 'true' } };
const pod = (state: string, o: { hold?: boolean; rev?: string; scheduled?: boolean } = {}): Pod => ({
  metadata: {
    name: 'web-0',
    labels: {
      [STATE]: state,
      'controller-revision-hash': o.rev ?? 'r1',
      ...(o.hold ? { hold: 'true' } : {}),
    },
  },
  spec: { containers: [], ...(o.scheduled ? { nodeName: 'n1' } : {}) },
});
const sync = (lifecycle: Record<string, unknown> | null) => ({ spec: { lifecycle } }) as unknown as AstsSync;

describe('lifecycle with Advanced StatefulSet (UpdateWithLifecycleHook)', () => {
  it.each([
    { name: 'create without preNormal → Normal', got: initialState(true, false), want: 'Normal' },
    {
      name: 'create, preNormal not all hooked → PreparingNormal',
      got: initialState(false, true),
      want: 'PreparingNormal',
    },
    { name: 'create, preNormal hooked → Normal', got: initialState(true, true), want: 'Normal' },
  ])('$name', ({ got, want }) => expect(got).toBe(want));

  it.each([
    {
      name: 'PreparingNormal, no hook, not scheduled → Normal (no scheduling wait)',
      lc: null,
      p: pod('PreparingNormal'),
      want: 'Normal',
    },
    {
      name: 'PreparingNormal, preNormal not hooked → stays',
      lc: { preNormal: hook },
      p: pod('PreparingNormal'),
      want: undefined,
    },
    {
      name: 'PreparingNormal, preNormal hooked → Normal',
      lc: { preNormal: hook },
      p: pod('PreparingNormal', { hold: true }),
      want: 'Normal',
    },
    {
      name: 'PreparingUpdate at the update revision (rolled back), hook released → Updated',
      lc: { inPlaceUpdate: hook },
      p: pod('PreparingUpdate', { rev: 'r2' }),
      want: 'Updated',
    },
    {
      name: 'PreparingUpdate at the update revision, all hooked → Normal',
      lc: { inPlaceUpdate: hook },
      p: pod('PreparingUpdate', { rev: 'r2', hold: true }),
      want: 'Normal',
    },
    {
      name: 'PreparingUpdate at an older revision → stays',
      lc: { inPlaceUpdate: hook },
      p: pod('PreparingUpdate'),
      want: undefined,
    },
    {
      name: 'Updating, completed (no in-place state) and no lifecycle → Normal',
      lc: null,
      p: pod('Updating'),
      want: 'Normal',
    },
    {
      name: 'Updated, inPlaceUpdate hooked again → Normal',
      lc: { inPlaceUpdate: hook },
      p: pod('Updated', { hold: true }),
      want: 'Normal',
    },
    { name: 'Updated, not hooked → stays', lc: { inPlaceUpdate: hook }, p: pod('Updated'), want: undefined },
    { name: 'Normal → stays', lc: null, p: pod('Normal'), want: undefined },
  ])('$name', ({ lc, p, want }) => {
    expect(nextLifecycleState(sync(lc), p, 'r2')).toBe(want);
  });
});
