import { describe, expect, it } from 'vitest';
import { COMBINED_PREFIX, EventCorrelator, type EventInput, eventKey, eventNamespace, similarEventKey } from './event-correlator.js';

const pod = { apiVersion: 'v1', kind: 'Pod', name: 'web-abcde', namespace: 'ns', uid: 'u1' };
const ev = (message: string, over: Partial<EventInput> = {}): EventInput => ({
  component: 'cloneset-controller',
  involvedObject: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', namespace: 'ns', uid: 'cs' },
  type: 'Normal',
  reason: 'SuccessfulCreate',
  message,
  ...over,
});
const at = (s: number): Date => new Date(Date.UTC(2024, 0, 1, 0, 0, s));

describe('event keys', () => {
  it('identical events share a key; any identity field separates them', () => {
    const base = ev('succeed to create pod web-1');
    expect(eventKey(base)).toBe(eventKey(ev('succeed to create pod web-1')));
    const variants: Partial<EventInput>[] = [
      { message: 'other' },
      { reason: 'FailedCreate' },
      { type: 'Warning' },
      { component: 'other' },
      { host: 'node-1' },
      { involvedObject: { ...base.involvedObject, uid: 'cs2' } },
      { involvedObject: { ...base.involvedObject, name: 'web2' } },
      { involvedObject: { ...base.involvedObject, apiVersion: 'apps.kruise.io/v1beta1' } },
    ];
    for (const v of variants) expect(eventKey(ev(base.message, v))).not.toBe(eventKey(base));
  });

  it('similar events differ only in message', () => {
    expect(similarEventKey(ev('a'))).toBe(similarEventKey(ev('b')));
    expect(similarEventKey(ev('a'))).not.toBe(similarEventKey(ev('a', { reason: 'FailedCreate' })));
  });

  it('cluster-scoped objects get their events in default', () => {
    expect(eventNamespace(pod)).toBe('ns');
    expect(eventNamespace({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', name: 's' })).toBe('default');
  });
});

describe('EventCorrelator', () => {
  it('creates once, then patches the same Event with a growing count', () => {
    const c = new EventCorrelator();
    const first = c.observe(ev('m'), at(0));
    expect(first).toMatchObject({ action: 'create', count: 1, namespace: 'ns', firstTimestamp: '2024-01-01T00:00:00Z' });
    expect(first.name).toMatch(/^web\.[0-9a-f]+$/);
    const second = c.observe(ev('m'), at(5));
    expect(second).toMatchObject({
      action: 'patch',
      name: first.name,
      count: 2,
      firstTimestamp: '2024-01-01T00:00:00Z',
      lastTimestamp: '2024-01-01T00:00:05Z',
      message: 'm',
    });
    expect(c.observe(ev('m'), at(6)).count).toBe(3);
  });

  it('gives distinct events distinct names, even in the same millisecond', () => {
    const c = new EventCorrelator();
    const names = ['a', 'b', 'c'].map((m) => c.observe(ev(m), at(0)).name);
    expect(new Set(names).size).toBe(3);
  });

  it('starts its sub-millisecond counter where nameOffset says, so two recorders rarely share a name', () => {
    const names = [0, 1, 0].map((nameOffset) => new EventCorrelator({ nameOffset }).observe(ev('m'), at(0)).name);
    expect(names[0]).not.toBe(names[1]);
    expect(names[0]).toBe(names[2]);
  });

  it('combines the 10th distinct message within the window into one aggregate event', () => {
    const c = new EventCorrelator();
    const out = Array.from({ length: 12 }, (_, i) => c.observe(ev(`succeed to create pod web-${i}`), at(i)));
    expect(out.slice(0, 9).every((o) => o.action === 'create' && !o.message.startsWith(COMBINED_PREFIX))).toBe(true);
    expect(out[9]).toMatchObject({ action: 'create', count: 1, message: `${COMBINED_PREFIX}succeed to create pod web-9` });
    expect(out[10]).toMatchObject({ action: 'patch', name: out[9]?.name, count: 2, message: `${COMBINED_PREFIX}succeed to create pod web-10` });
    expect(out[11]).toMatchObject({ action: 'patch', count: 3 });
  });

  it('still de-duplicates a repeated message while aggregating', () => {
    const c = new EventCorrelator({ maxSimilar: 3 });
    c.observe(ev('a'), at(0));
    c.observe(ev('b'), at(1));
    expect(c.observe(ev('a'), at(2))).toMatchObject({ action: 'patch', count: 2, message: 'a' });
  });

  it('starts over after the similarity window', () => {
    const c = new EventCorrelator({ maxSimilar: 2, similarWindowMs: 10_000 });
    c.observe(ev('a'), at(0));
    expect(c.observe(ev('b'), at(1)).message).toBe(`${COMBINED_PREFIX}b`);
    expect(c.observe(ev('c'), at(30)).message).toBe('c');
  });

  it('forget makes the next occurrence a create; rename keeps the count under a new name', () => {
    const c = new EventCorrelator();
    const first = c.observe(ev('m'), at(0));
    c.forget(first.key);
    expect(c.observe(ev('m'), at(1)).action).toBe('create');
    const again = c.observe(ev('m'), at(2));
    const renamed = c.rename(again.key, 'web', at(3));
    expect(renamed).not.toBe(again.name);
    expect(c.observe(ev('m'), at(4))).toMatchObject({ action: 'patch', name: renamed, count: 3 });
  });

  it('evicts the least recently used entries', () => {
    const c = new EventCorrelator({ cacheSize: 2, maxSimilar: 100 });
    c.observe(ev('a'), at(0));
    c.observe(ev('b'), at(0));
    c.observe(ev('a'), at(1));
    c.observe(ev('c'), at(1));
    expect(c.observe(ev('a'), at(2)).action).toBe('patch');
    expect(c.observe(ev('b'), at(2)).action).toBe('create');
  });

  it('keeps generated names valid for long object names', () => {
    const c = new EventCorrelator();
    const name = c.observe(ev('m', { involvedObject: { ...pod, name: `${'a'.repeat(240)}-${'b'.repeat(12)}` } }), at(0)).name;
    expect(name.length).toBeLessThanOrEqual(253);
    expect(name).toMatch(/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/);
    expect(name).not.toMatch(/-\./);
  });
});
