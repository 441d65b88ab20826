import { describe, expect, it } from 'vitest';
import { formatAge, formatHistory, revisionHistory, type ControllerRevision } from './history.js';

const rev = (name: string, revision: number, created: string, ownerUid: string, controller = true): ControllerRevision => ({
  metadata: {
    name,
    creationTimestamp: created,
    labels: { 'controller-revision-hash': name.slice(name.lastIndexOf('-') + 1) },
    ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: ownerUid, controller }],
  },
  revision,
});

describe('revisionHistory', () => {
  const now = new Date('2026-12-03T12:00:00Z');
  const revisions = [
    rev('web-7d9f', 2, '2026-12-03T11:59:00Z', 'u1'),
    rev('web-5c6b', 1, '2026-12-03T10:00:00Z', 'u1'),
    rev('other-1111', 1, '2026-12-03T10:00:00Z', 'u2'),
    rev('web-adopted', 3, '2026-12-03T11:00:00Z', 'u1', false),
  ];

  it('keeps the revisions the workload controls, by revision number, marking current and update', () => {
    expect(revisionHistory('u1', revisions, { currentRevision: 'web-5c6b', updateRevision: 'web-7d9f' }, now)).toEqual([
      { revision: 1, name: 'web-5c6b', hash: '5c6b', ageSeconds: 7200, current: true, update: false },
      { revision: 2, name: 'web-7d9f', hash: '7d9f', ageSeconds: 60, current: false, update: true },
    ]);
  });

  it('prints a table', () => {
    const rows = revisionHistory('u1', revisions, { currentRevision: 'web-7d9f', updateRevision: 'web-7d9f' }, now);
    expect(formatHistory(rows)).toBe(
      ['REVISION  NAME      HASH  AGE', '1         web-5c6b  5c6b  2h', '2         web-7d9f  7d9f  60s  current,update'].join('\n'),
    );
  });

  it.each([
    [0, '0s'],
    [119, '119s'],
    [120, '2m'],
    [7199, '119m'],
    [7200, '2h'],
    [172_800, '2d'],
  ])('age %i s → %s', (s, text) => {
    expect(formatAge(s)).toBe(text);
  });
});
