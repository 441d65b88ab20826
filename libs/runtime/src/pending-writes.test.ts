import { describe, expect, it } from 'vitest';
import { Expectations } from './expectations.js';
import { pendingWrites, waitForPendingWrites } from './pending-writes.js';

describe('pendingWrites', () => {
  const now = 1_000_000;
  const fresh = () => new Expectations({ clock: () => now });

  it('nothing pending: the round may run', () => {
    expect(pendingWrites(fresh(), 'ns/web', () => undefined)).toBeUndefined();
  });

  it('creates and deletes first, rechecked within 5 s', () => {
    const e = fresh();
    e.expectScale('ns/web', 'create', 'web-a');
    e.expectUpdated('ns/web', 'web-0', '100');
    expect(pendingWrites(e, 'ns/web', () => '100')).toEqual({
      kind: 'scale',
      pending: { create: ['web-a'], delete: [] },
      requeueAfterMs: 5_000,
    });
  });

  it('then pod updates, observed from the cache: pending until it shows the resourceVersion, rechecked within 2 s', () => {
    const e = fresh();
    e.expectUpdated('ns/web', 'web-0', '100');
    expect(pendingWrites(e, 'ns/web', () => '99')).toEqual({
      kind: 'updates',
      pending: [{ name: 'web-0', resourceVersion: '100' }],
      requeueAfterMs: 2_000,
    });
    expect(pendingWrites(e, 'ns/web', () => '100')).toBeUndefined();
  });
});

describe('waitForPendingWrites', () => {
  const now = 1_000_000;
  const said: string[] = [];
  const log = { debug: (_obj: object, msg: string) => void said.push(msg) };

  it('a round may run: no result, nothing said', () => {
    said.length = 0;
    expect(
      waitForPendingWrites(new Expectations({ clock: () => now }), 'ns/web', () => undefined, log),
    ).toBeUndefined();
    expect(said).toEqual([]);
  });

  it('writes pending: look again after the recheck delay, and say what it waits for', () => {
    said.length = 0;
    const e = new Expectations({ clock: () => now });
    e.expectScale('ns/web', 'delete', 'web-b');
    expect(waitForPendingWrites(e, 'ns/web', () => undefined, log)).toEqual({ requeueAfterMs: 5_000 });
    e.observeScale('ns/web', 'delete', 'web-b');
    e.expectUpdated('ns/web', 'web-0', '7');
    expect(waitForPendingWrites(e, 'ns/web', () => '6', log)).toEqual({ requeueAfterMs: 2_000 });
    expect(said).toEqual(['waiting for scale expectations', 'waiting for the cache to show our pod updates']);
  });
});
