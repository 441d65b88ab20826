import { describe, expect, it } from 'vitest';
import type { AnySidecarSet } from '../injection/types.js';
import {
  type AdmittedRecord,
  confirmation,
  liveRecords,
  recordsNeedingEntries,
  supersededBy,
  withAdmitted,
} from './admitted.js';

const set = (
  name: string,
  uid: string | undefined,
  generation: number,
  app = 'web',
  extra: Partial<AnySidecarSet['spec']> = {},
): AnySidecarSet => ({
  metadata: { name, ...(uid ? { uid } : {}), generation },
  spec: { selector: { matchLabels: { app } }, containers: [{ name: 'c', image: 'i' }], ...extra },
});
const record = (admitted: AnySidecarSet, admittedAt = 0, settledOn?: AnySidecarSet): AdmittedRecord => ({
  admitted,
  admittedAt,
  ...(settledOn ? { stored: settledOn, settled: true } : {}),
});

describe('admitted SidecarSets (docs/adr/0040-sidecarset-effective-at-admission.md)', () => {
  it.each([
    ['NotFound: not written yet, or refused', set('a', 'u1', 1), undefined, 'pending'],
    ['stored with its uid and generation', set('a', 'u1', 1), set('a', 'u1', 1), 'confirmed'],
    ['stored and updated since', set('a', 'u1', 1), set('a', 'u1', 3), 'confirmed'],
    ['an update not written yet (older generation)', set('a', 'u1', 2), set('a', 'u1', 1), 'pending'],
    [
      'another uid: the name was taken (AlreadyExists) or replaced',
      set('a', 'u2', 1),
      set('a', 'u1', 1),
      'gone',
    ],
    ['admitted without uid: by name and generation', set('a', undefined, 1), set('a', 'u1', 1), 'confirmed'],
  ] as const)('confirmation: %s', (_what, admitted, stored, want) => {
    expect(confirmation(admitted, stored)).toBe(want);
  });

  it.each([
    ['no cached object', record(set('a', 'u1', 1)), undefined, false],
    ['cached at the admitted generation', record(set('a', 'u1', 1)), set('a', 'u1', 1), true],
    ['cached at an older generation (an update)', record(set('a', 'u1', 2)), set('a', 'u1', 1), false],
    ['cached: another object of that name', record(set('a', 'u2', 1)), set('a', 'u1', 4), false],
    [
      'the stored generation counts once settled',
      record(set('a', 'u1', 2), 0, set('a', 'u1', 3)),
      set('a', 'u1', 2),
      false,
    ],
    [
      'settled on another object (the name was taken): the cache holds that one',
      record(set('a', 'u2', 1), 0, set('a', 'u1', 1)),
      set('a', 'u1', 1),
      true,
    ],
  ] as const)('supersededBy: %s', (_what, r, cached, want) => {
    expect(supersededBy(r, cached)).toBe(want);
  });

  it('liveRecords drops records the cache caught up with and those older than the TTL', () => {
    const fresh = record(set('fresh', 'u1', 1), 900);
    const cachedNow = record(set('cached', 'u2', 1), 900);
    const old = record(set('old', 'u3', 1), 0);
    const cache = new Map([['cached', set('cached', 'u2', 1)]]);
    expect(liveRecords([fresh, cachedNow, old], (n) => cache.get(n), 1_000, 500)).toEqual([fresh]);
  });

  it.each([
    ['not cached: a new entry', [], ['a']],
    ['cached with the same selectors: the cached entry sends the same pods', [set('a', 'u1', 1)], []],
    ['cached with another selector (an update): both entries', [set('a', 'u1', 1, 'old')], ['a']],
    [
      'cached paused, admitted injecting',
      [set('a', 'u1', 1, 'web', { injectionStrategy: { paused: true } })],
      ['a'],
    ],
  ] as const)('recordsNeedingEntries: %s', (_what, cached, want) => {
    const byName = new Map(cached.map((c) => [c.metadata!.name!, c]));
    const live = [record(set('a', 'u1', 2))];
    expect(recordsNeedingEntries(live, (n) => byName.get(n)).map((s) => s.metadata!.name)).toEqual(want);
  });

  it('recordsNeedingEntries: a refused create stands for the stored object once read; one entry per selectors', () => {
    const original = set('a', 'u1', 1, 'kept');
    const refused = record(set('a', 'u2', 1, 'other'), 0, original);
    const originalRecord = record(original);
    const entries = recordsNeedingEntries([originalRecord, refused], () => undefined);
    expect(entries.map((s) => s.spec.selector!.matchLabels!['app'])).toEqual(['kept']);
    // before the read, the refused one has its own entry (the program cannot know yet)
    const unread = recordsNeedingEntries(
      [originalRecord, record(set('a', 'u2', 1, 'other'))],
      () => undefined,
    );
    expect(unread.map((s) => s.spec.selector!.matchLabels!['app'])).toEqual(['kept', 'other']);
  });

  it('withAdmitted: a confirmed record takes the place of the cached object of its name, or is added', () => {
    const cached = [set('a', 'u1', 1, 'old'), set('b', 'u2', 1)];
    const merged = withAdmitted(cached, [set('a', 'u1', 2, 'new'), set('c', 'u3', 1)]);
    expect(merged.map((s) => [s.metadata!.name, s.spec.selector!.matchLabels!['app']])).toEqual([
      ['a', 'new'],
      ['b', 'web'],
      ['c', 'web'],
    ]);
    expect(withAdmitted(cached, [])).toEqual(cached);
  });
});
