import { describe, expect, it } from 'vitest';
import { childJobOf, isCronJobChild, mostRecentScheduledTime, outcomeOf, type JobLike } from './children.js';

const job = (conditions: { type: string; status: string }[] = [], annotations: Record<string, string> = {}): JobLike => ({
  metadata: { name: 'c-1', namespace: 'ns', uid: 'u', resourceVersion: '7', annotations },
  status: { conditions, startTime: '2026-12-07T10:05:01Z' },
});

describe('outcomeOf', () => {
  it.each([
    [[], 'Active'],
    [[{ type: 'Complete', status: 'True' }], 'Complete'],
    [[{ type: 'Failed', status: 'True' }], 'Failed'],
    [[{ type: 'Failed', status: 'False' }], 'Active'],
    [[{ type: 'Suspended', status: 'True' }], 'Active'],
    [[{ type: 'SuccessCriteriaMet', status: 'True' }, { type: 'Complete', status: 'True' }], 'Complete'],
  ] as const)('%j → %s', (conditions, outcome) => {
    expect(outcomeOf(job([...conditions]))).toBe(outcome);
  });
});

describe('childJobOf', () => {
  it('reads the reference, the scheduled time and the start time', () => {
    const c = childJobOf(job([], { 'apps.kruise.io/scheduled-at': '2026-12-07T18:05:00+08:00' }), {
      apiVersion: 'batch/v1',
      kind: 'Job',
    });
    expect(c).toEqual({
      name: 'c-1',
      ref: { kind: 'Job', namespace: 'ns', name: 'c-1', uid: 'u', apiVersion: 'batch/v1', resourceVersion: '7' },
      outcome: 'Active',
      scheduledTime: Date.parse('2026-12-07T10:05:00Z'),
      startTime: Date.parse('2026-12-07T10:05:01Z'),
      deleting: false,
    });
  });

  it('an unparsable annotation gives no scheduled time', () => {
    const c = childJobOf(job([], { 'apps.kruise.io/scheduled-at': 'yesterday' }), { apiVersion: 'batch/v1', kind: 'Job' });
    expect(c.scheduledTime).toBeUndefined();
    expect(mostRecentScheduledTime([c])).toBeUndefined();
  });

  it('the most recent scheduled time', () => {
    const gvk = { apiVersion: 'batch/v1', kind: 'Job' };
    const a = childJobOf(job([], { 'apps.kruise.io/scheduled-at': '2026-12-07T10:05:00Z' }), gvk);
    const b = childJobOf(job([], { 'apps.kruise.io/scheduled-at': '2026-12-07T10:10:00Z' }), gvk);
    expect(mostRecentScheduledTime([b, a])).toBe(Date.parse('2026-12-07T10:10:00Z'));
  });

  it.each([
    [[{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', name: 'c', uid: 'u', controller: true }], true],
    [[{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', name: 'c', uid: 'u' }], false],
    [[{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'c', uid: 'u', controller: true }], false],
    [[], false],
  ])('isCronJobChild(%j) = %s', (ownerReferences, want) => {
    expect(isCronJobChild({ metadata: { name: 'j', ownerReferences } })).toBe(want);
  });
});
