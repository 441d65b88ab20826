import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from './errors.js';
import { validateLeaderElectionTimings } from './leader-election.js';
import {
  decide,
  errorStatus,
  formatMicroTime,
  nextLease,
  observeLease,
  releasedLease,
  type Lease,
  type ObservedLease,
} from './lease.js';

const target = { namespace: 'kruise-system', name: 'cloneset-leader' };
const timings = { leaseDurationMs: 15_000 };

function lease(holder: string | null, extra: Partial<NonNullable<Lease['spec']>> = {}): Lease {
  return {
    metadata: { ...target, resourceVersion: '7' },
    spec: { holderIdentity: holder, renewTime: '2026-01-01T00:00:00.000000Z', leaseTransitions: 2, ...extra },
  };
}

const seen = (l: Lease, at: number): ObservedLease => ({ lease: l, observedAtMs: at });

describe('decide', () => {
  it.each([
    ['no lease: create it', undefined, 0, 'acquire'],
    ['ours: renew', seen(lease('me'), 0), 100_000, 'renew'],
    ['released (empty holder): take it', seen(lease(''), 0), 1, 'acquire'],
    ['null holder: take it', seen(lease(null), 0), 1, 'acquire'],
    ['someone else, renewed 14.999 s ago: wait', seen(lease('other'), 0), 14_999, 'wait'],
    ['someone else, silent for a lease duration: take over', seen(lease('other'), 0), 15_000, 'acquire'],
    [
      "the holder's advertised duration wins over ours",
      seen(lease('other', { leaseDurationSeconds: 60 }), 0),
      30_000,
      'wait',
    ],
  ] as const)('%s', (_name, observed, now, expected) => {
    expect(decide(observed, 'me', now, timings)).toBe(expected);
  });
});

describe('observeLease', () => {
  it('keeps the first observation time while the record is unchanged, and restarts it on a change', () => {
    const a = observeLease(undefined, lease('other'), 100);
    expect(a.observedAtMs).toBe(100);
    // a new resourceVersion with the same record (e.g. a label change) is not a renewal
    const same = observeLease(a, { ...lease('other'), metadata: { ...target, resourceVersion: '8' } }, 5000);
    expect(same.observedAtMs).toBe(100);
    const renewed = observeLease(same, lease('other', { renewTime: '2026-01-01T00:00:02.000000Z' }), 6000);
    expect(renewed.observedAtMs).toBe(6000);
  });
});

describe('writing leases', () => {
  it('creates a lease held by us with zero transitions', () => {
    expect(
      nextLease(undefined, target, 'me', 'acquire', Date.UTC(2026, 0, 2, 3, 4, 5, 678), timings),
    ).toEqual({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: target,
      spec: {
        holderIdentity: 'me',
        leaseDurationSeconds: 15,
        acquireTime: '2026-01-02T03:04:05.678000Z',
        renewTime: '2026-01-02T03:04:05.678000Z',
        leaseTransitions: 0,
      },
    });
  });

  it('takes over with one more transition, keeping the resourceVersion for the conflict check', () => {
    const next = nextLease(lease('other'), target, 'me', 'acquire', 0, timings);
    expect(next.metadata.resourceVersion).toBe('7');
    expect(next.spec).toMatchObject({
      holderIdentity: 'me',
      leaseTransitions: 3,
      acquireTime: formatMicroTime(0),
    });
  });

  it('renews keeping acquireTime and transitions', () => {
    const mine = lease('me', { acquireTime: '2025-12-31T00:00:00.000000Z' });
    const next = nextLease(mine, target, 'me', 'renew', 1000, timings);
    expect(next.spec).toMatchObject({
      holderIdentity: 'me',
      acquireTime: '2025-12-31T00:00:00.000000Z',
      renewTime: '1970-01-01T00:00:01.000000Z',
      leaseTransitions: 2,
    });
  });

  it('releases by clearing the holder', () => {
    const released = releasedLease(lease('me'), 0);
    expect(released.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 2 });
    expect(decide(seen(released, 0), 'next', 0, timings)).toBe('acquire');
  });
});

describe('timings and errors', () => {
  it('requires lease > renew deadline > 1.2 × retry period', () => {
    expect(() =>
      validateLeaderElectionTimings({
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
      }),
    ).not.toThrow();
    expect(() =>
      validateLeaderElectionTimings({
        leaseDurationMs: 10_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
      }),
    ).toThrow(InvalidOptionsError);
    expect(() =>
      validateLeaderElectionTimings({
        leaseDurationMs: 15_000,
        renewDeadlineMs: 2_400,
        retryPeriodMs: 2_000,
      }),
    ).toThrow(/1.2 × retry period/);
    expect(() =>
      validateLeaderElectionTimings({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 0 }),
    ).toThrow(/positive/);
  });

  it('reads the HTTP status of store errors', () => {
    expect(errorStatus(Object.assign(new Error('x'), { status: 404 }))).toBe(404);
    expect(errorStatus(Object.assign(new Error('x'), { code: 409 }))).toBe(409);
    expect(errorStatus(new Error('x'))).toBeUndefined();
    expect(errorStatus(undefined)).toBeUndefined();
  });
});
