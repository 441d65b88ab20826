import { describe, expect, it } from 'vitest';
import { EventCorrelator, type EventInput } from './event-correlator.js';
import { EventSpamFilter, spamKey } from './event-spam-filter.js';

const cloneSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'web',
  namespace: 'ns',
  uid: 'cs',
};
const ev = (message: string, over: Partial<EventInput> = {}): EventInput => ({
  component: 'cloneset-controller',
  involvedObject: cloneSet,
  type: 'Normal',
  reason: 'SuccessfulUpdatePodInPlace',
  message,
  ...over,
});
const at = (s: number): Date => new Date(Date.UTC(2024, 0, 1, 0, 0, 0) + s * 1000);

describe('spamKey (client-go getSpamKey)', () => {
  it('source, object and type pick the bucket; reason and message do not', () => {
    const base = spamKey(ev('a'));
    expect(spamKey(ev('b', { reason: 'SuccessfulCreate' }))).toBe(base);
    for (const over of [
      { type: 'Warning' as const },
      { component: 'other' },
      { host: 'node-1' },
      { involvedObject: { ...cloneSet, name: 'web2' } },
      { involvedObject: { ...cloneSet, uid: 'cs2' } },
    ])
      expect(spamKey(ev('a', over))).not.toBe(base);
  });
});

describe('EventSpamFilter', () => {
  it.each([
    // [occurrence times (s), accepted]
    [
      'a burst of 25 at once, the 26th held back',
      Array.from({ length: 26 }, () => 0),
      [...Array(25).fill(true), false],
    ],
    [
      'then one token per 300 s',
      [...Array(25).fill(0), 299, 300, 301, 600],
      [...Array(25).fill(true), false, true, false, true],
    ],
    [
      'an idle object refills to the burst, not beyond',
      [...Array(25).fill(0), 100_000, ...Array(25).fill(100_001)],
      [...Array(50).fill(true), false],
    ],
  ] as const)('%s', (_, times, accepted) => {
    const f = new EventSpamFilter();
    expect(times.map((t) => f.accept(ev('m'), at(t)))).toEqual(accepted);
  });

  it('Warning events and other objects draw from buckets of their own', () => {
    const f = new EventSpamFilter({ burst: 1 });
    expect(f.accept(ev('m'), at(0))).toBe(true);
    expect(f.accept(ev('m'), at(0))).toBe(false);
    expect(f.accept(ev('m', { type: 'Warning' }), at(0))).toBe(true);
    expect(f.accept(ev('m', { involvedObject: { ...cloneSet, name: 'db' } }), at(0))).toBe(true);
  });
});

describe('EventCorrelator with the spam filter', () => {
  it('a held-back occurrence is skipped but counted: the next written one carries the count', () => {
    const c = new EventCorrelator({ spam: { burst: 2 } });
    expect(c.observe(ev('m'), at(0))).toMatchObject({ action: 'create', count: 1 });
    expect(c.observe(ev('m'), at(1))).toMatchObject({ action: 'patch', count: 2 });
    expect(c.observe(ev('m'), at(2))).toMatchObject({ action: 'skip', count: 3 });
    expect(c.observe(ev('m'), at(3))).toMatchObject({ action: 'skip', count: 4 });
    expect(c.observe(ev('m'), at(302))).toMatchObject({
      action: 'patch',
      count: 5,
      lastTimestamp: '2024-01-01T00:05:02Z',
    });
  });

  it('an Event whose every occurrence was held back is created by the first one written', () => {
    const c = new EventCorrelator({ spam: { burst: 1 } });
    expect(c.observe(ev('pod web-1'), at(0)).action).toBe('create');
    const held = c.observe(ev('pod web-2'), at(1));
    expect(held).toMatchObject({ action: 'skip', count: 1 });
    expect(c.observe(ev('pod web-2'), at(301))).toMatchObject({
      action: 'create',
      name: held.name,
      count: 2,
      firstTimestamp: '2024-01-01T00:00:01Z',
    });
  });

  it('spam: false writes every occurrence', () => {
    const c = new EventCorrelator({ spam: false });
    const actions = Array.from({ length: 40 }, (_, i) => c.observe(ev('m'), at(i / 10)).action);
    expect(actions.filter((a) => a === 'skip')).toHaveLength(0);
  });
});
