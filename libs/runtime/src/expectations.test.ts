import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPECTATION_TIMEOUT_MS, Expectations, type ExpectationTimeout } from './expectations.js';

function setup(timeoutMs?: number) {
  let now = 1_000_000;
  const timeouts: ExpectationTimeout[] = [];
  const e = new Expectations({
    clock: () => now,
    onTimeout: (t) => timeouts.push(t),
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
  return { e, timeouts, advance: (ms: number) => (now += ms) };
}

describe('scale expectations', () => {
  it('is satisfied with nothing expected', () => {
    const { e } = setup();
    expect(e.satisfiedScale('ns/web')).toEqual({
      satisfied: true,
      unsatisfiedForMs: 0,
      remainingMs: 0,
      pending: { create: [], delete: [] },
    });
    expect(e.timeoutMs).toBe(DEFAULT_EXPECTATION_TIMEOUT_MS);
    expect(DEFAULT_EXPECTATION_TIMEOUT_MS).toBe(300_000);
  });

  it('waits until every create and delete is observed, reporting what is pending and for how long', () => {
    const { e, advance } = setup();
    e.expectScale('ns/web', 'create', 'web-a');
    e.expectScale('ns/web', 'create', 'web-b');
    e.expectScale('ns/web', 'delete', 'web-old');
    advance(1500);
    expect(e.satisfiedScale('ns/web')).toEqual({
      satisfied: false,
      unsatisfiedForMs: 1500,
      remainingMs: 300_000 - 1500,
      pending: { create: ['web-a', 'web-b'], delete: ['web-old'] },
    });
    e.observeScale('ns/web', 'create', 'web-a');
    e.observeScale('ns/web', 'create', 'web-b');
    expect(e.satisfiedScale('ns/web').satisfied).toBe(false);
    e.observeScale('ns/web', 'delete', 'web-old');
    expect(e.satisfiedScale('ns/web').satisfied).toBe(true);
    // an observation for something never expected (or twice) is harmless
    e.observeScale('ns/web', 'delete', 'web-old');
    e.observeScale('ns/other', 'create', 'x');
    expect(e.satisfiedScale('ns/other').satisfied).toBe(true);
  });

  it('keys are independent, and the waiting time restarts after the entry emptied', () => {
    const { e, advance } = setup();
    e.expectScale('ns/a', 'create', 'a-1');
    advance(100);
    e.expectScale('ns/b', 'create', 'b-1');
    advance(100);
    expect(e.satisfiedScale('ns/a').unsatisfiedForMs).toBe(200);
    expect(e.satisfiedScale('ns/b').unsatisfiedForMs).toBe(100);
    e.observeScale('ns/a', 'create', 'a-1');
    advance(1000);
    e.expectScale('ns/a', 'create', 'a-2');
    advance(10);
    expect(e.satisfiedScale('ns/a').unsatisfiedForMs).toBe(10);
  });

  it('heals itself after the timeout: drops the leaked expectation, reports it, and is satisfied', () => {
    const { e, timeouts, advance } = setup(60_000);
    e.expectScale('ns/web', 'create', 'web-lost');
    advance(59_999);
    expect(e.satisfiedScale('ns/web')).toMatchObject({ satisfied: false, remainingMs: 1 });
    expect(timeouts).toEqual([]);
    advance(1);
    expect(e.satisfiedScale('ns/web').satisfied).toBe(true);
    expect(timeouts).toEqual([
      {
        kind: 'scale',
        key: 'ns/web',
        unsatisfiedForMs: 60_000,
        pending: { create: ['web-lost'], delete: [] },
      },
    ]);
    // healed for good: no second report, and new expectations start a fresh clock
    expect(e.satisfiedScale('ns/web').satisfied).toBe(true);
    e.expectScale('ns/web', 'create', 'web-next');
    expect(e.satisfiedScale('ns/web')).toMatchObject({ satisfied: false, unsatisfiedForMs: 0 });
    expect(timeouts).toHaveLength(1);
  });

  it('deleteScale forgets a workload', () => {
    const { e } = setup();
    e.expectScale('ns/web', 'delete', 'x');
    e.deleteScale('ns/web');
    expect(e.satisfiedScale('ns/web').satisfied).toBe(true);
  });
});

describe('update (resourceVersion) expectations', () => {
  it('waits until the cache shows each object at the written resourceVersion or newer', () => {
    const { e, advance } = setup();
    e.expectUpdated('ns/web', 'web-0', '100');
    e.expectUpdated('ns/web', 'web-1', '205');
    advance(50);
    e.observeUpdated('ns/web', 'web-0', '99'); // an older event still in flight
    expect(e.isUpdatedSatisfied('ns/web')).toEqual({
      satisfied: false,
      unsatisfiedForMs: 50,
      remainingMs: 300_000 - 50,
      pending: [
        { name: 'web-0', resourceVersion: '100' },
        { name: 'web-1', resourceVersion: '205' },
      ],
    });
    e.observeUpdated('ns/web', 'web-0', '100');
    e.observeUpdated('ns/web', 'web-1', '1000'); // newer as a number, though '1000' < '205' as text
    expect(e.isUpdatedSatisfied('ns/web').satisfied).toBe(true);
  });

  it('keeps the newest expected version; an older expect does not lower it', () => {
    const { e } = setup();
    e.expectUpdated('k', 'p', '10');
    e.expectUpdated('k', 'p', '30');
    e.expectUpdated('k', 'p', '20');
    e.observeUpdated('k', 'p', '25');
    expect(e.isUpdatedSatisfied('k').pending).toEqual([{ name: 'p', resourceVersion: '30' }]);
    e.observeUpdated('k', 'p', '30');
    expect(e.isUpdatedSatisfied('k').satisfied).toBe(true);
  });

  it('treats an unparseable stored version as older, and an unparseable observed one as not newer', () => {
    const { e } = setup();
    e.expectUpdated('k', 'a', 'not-a-number');
    e.observeUpdated('k', 'a', '1');
    expect(e.isUpdatedSatisfied('k').satisfied).toBe(true);
    e.expectUpdated('k', 'b', '5');
    e.observeUpdated('k', 'b', 'garbage');
    expect(e.isUpdatedSatisfied('k').satisfied).toBe(false);
    e.expectUpdated('k', 'b', 'garbage'); // never replaces a valid version
    expect(e.isUpdatedSatisfied('k').pending).toEqual([{ name: 'b', resourceVersion: '5' }]);
  });

  it('times out per object: a leaked one is dropped and reported, the others keep waiting', () => {
    const { e, timeouts, advance } = setup(1000);
    e.expectUpdated('ns/web', 'old', '1');
    advance(600);
    e.expectUpdated('ns/web', 'young', '2');
    advance(400);
    const s = e.isUpdatedSatisfied('ns/web');
    expect(s).toEqual({
      satisfied: false,
      unsatisfiedForMs: 400,
      remainingMs: 600,
      pending: [{ name: 'young', resourceVersion: '2' }],
    });
    expect(timeouts).toEqual([
      {
        kind: 'update',
        key: 'ns/web',
        unsatisfiedForMs: 1000,
        pending: [{ name: 'old', resourceVersion: '1' }],
      },
    ]);
    advance(600);
    expect(e.isUpdatedSatisfied('ns/web').satisfied).toBe(true);
    expect(timeouts).toHaveLength(2);
  });

  it('deleteUpdated forgets one object or the whole workload', () => {
    const { e } = setup();
    e.expectUpdated('k', 'a', '1');
    e.expectUpdated('k', 'b', '1');
    e.deleteUpdated('k', 'a');
    expect(e.isUpdatedSatisfied('k').pending.map((p) => p.name)).toEqual(['b']);
    e.deleteUpdated('k');
    expect(e.isUpdatedSatisfied('k').satisfied).toBe(true);
    e.deleteUpdated('absent', 'x');
  });

  it('observeUpdatedFrom: what the cache already holds satisfies (the bus showed the write before it was expected)', () => {
    const { e } = setup();
    e.expectUpdated('k', 'seen', '10');
    e.expectUpdated('k', 'behind', '10');
    e.expectUpdated('k', 'gone', '10');
    const cache: Record<string, string> = { seen: '11', behind: '9' };
    e.observeUpdatedFrom('k', (name) => cache[name]);
    expect(e.isUpdatedSatisfied('k').pending).toEqual([{ name: 'behind', resourceVersion: '10' }]);
    e.observeUpdatedFrom('absent', () => '1');
  });
});
