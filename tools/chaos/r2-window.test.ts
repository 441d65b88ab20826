import { describe, expect, it } from 'vitest';
import { holdsPods, observedGeneration, standingOf } from './r2-window.js';

const obj = (generation: number, observed?: number) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'fz-1', generation },
  ...(observed === undefined ? {} : { status: { observedGeneration: observed } }),
});

describe('standingOf (an accepted object at a look)', () => {
  const WAIT = 120_000;
  it.each([
    { what: 'not found: its controller deleted it', o: undefined, age: 1_000, want: 'gone' },
    { what: 'status at its generation', o: obj(1, 1), age: 1_000, want: 'reconciled' },
    { what: 'status past its generation', o: obj(1, 2), age: 1_000, want: 'reconciled' },
    { what: 'reconciled after the wait still counts', o: obj(2, 2), age: WAIT + 1, want: 'reconciled' },
    { what: 'no status yet', o: obj(1), age: 1_000, want: 'waiting' },
    { what: 'status of an older generation', o: obj(3, 2), age: WAIT, want: 'waiting' },
    { what: 'no status past the wait', o: obj(1), age: WAIT + 1, want: 'overdue' },
  ])('$what: $want', ({ o, age, want }) => {
    expect(standingOf(o, 10_000, 10_000 + age, WAIT, observedGeneration)).toBe(want);
  });

  it('reads the kind rule when there is one (an ImagePullJob: startTime)', () => {
    const started = (x: { status?: Record<string, unknown> }) => typeof x.status?.['startTime'] === 'string';
    const job = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', metadata: { name: 'j' } };
    expect(standingOf({ ...job, status: { startTime: '2026-12-05T00:00:00Z' } }, 0, 1, 10, started)).toBe(
      'reconciled',
    );
    expect(standingOf({ ...job, status: {} }, 0, 1, 10, started)).toBe('waiting');
  });
});

describe('observedGeneration', () => {
  it('defaults a missing generation to 1 and a missing status to 0', () => {
    expect(observedGeneration({ apiVersion: 'v1', kind: 'X', status: { observedGeneration: 1 } })).toBe(true);
    expect(observedGeneration({ apiVersion: 'v1', kind: 'X' })).toBe(false);
  });
});

describe('holdsPods (a reconciled object kept, so the pod quota stays with the first objects)', () => {
  it.each([
    { what: 'a CloneSet counting pods', status: { replicas: 2 }, want: true },
    { what: 'a CloneSet with none', status: { replicas: 0 }, want: false },
    { what: 'an Advanced DaemonSet scheduled on a node', status: { currentNumberScheduled: 1 }, want: true },
    {
      what: 'an absurd count the quota refused',
      status: { replicas: 0, currentNumberScheduled: 0 },
      want: false,
    },
    { what: 'no status', status: undefined, want: false },
  ])('$what: $want', ({ status, want }) => {
    expect(holdsPods({ apiVersion: 'v1', kind: 'X', ...(status ? { status } : {}) })).toBe(want);
  });
});
