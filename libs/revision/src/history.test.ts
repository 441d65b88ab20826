import { describe, expect, it } from 'vitest';
import { newCloneSetRevision } from './controller-revision.js';
import {
  currentRevisionOf,
  decideUpdateRevision,
  equalRevision,
  findEqualRevisions,
  nextRevision,
  ownedRevisions,
  revisionOfPod,
  revisionsToTruncate,
  sortControllerRevisions,
} from './history.js';
import { REVISION_HASH_LABEL, VCT_HASH_ANNOTATION } from './keys.js';
import type { ControllerRevision, RevisionedWorkload } from './types.js';
import { volumeClaimTemplatesHash } from './vct-hash.js';

function rev(
  name: string,
  revision: number,
  data: unknown = { n: name },
  extra: Partial<ControllerRevision['metadata']> = {},
): ControllerRevision {
  return { metadata: { name, ...extra }, revision, data };
}

describe('ordering', () => {
  it('sorts by revision, then older creationTimestamp, then name; next is last+1', () => {
    const sorted = sortControllerRevisions([
      rev('c', 2),
      rev('b', 1, {}, { creationTimestamp: '2024-01-02T00:00:00Z' }),
      rev('a', 1, {}, { creationTimestamp: '2024-01-02T00:00:00Z' }),
      rev('z', 1, {}, { creationTimestamp: '2024-01-01T00:00:00Z' }),
    ]);
    expect(sorted.map((r) => r.metadata?.name)).toEqual(['z', 'a', 'b', 'c']);
    expect(nextRevision(sorted)).toBe(3);
    expect(nextRevision([])).toBe(1);
  });
});

describe('ownedRevisions', () => {
  const parent = { metadata: { name: 'web', namespace: 'ns', uid: 'me' } };
  const ref = (uid: string) => [
    { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'x', uid, controller: true },
  ];
  it('keeps matching revisions that are orphans or ours', () => {
    const revisions = [
      rev('mine', 1, {}, { namespace: 'ns', labels: { app: 'web' }, ownerReferences: ref('me') }),
      rev('orphan', 2, {}, { namespace: 'ns', labels: { app: 'web' } }),
      rev('theirs', 3, {}, { namespace: 'ns', labels: { app: 'web' }, ownerReferences: ref('other') }),
      rev('unmatched', 4, {}, { namespace: 'ns', labels: { app: 'db' } }),
      rev('elsewhere', 5, {}, { namespace: 'other', labels: { app: 'web' } }),
    ];
    expect(
      ownedRevisions(revisions, parent, { matchLabels: { app: 'web' } }).map((r) => r.metadata?.name),
    ).toEqual(['mine', 'orphan']);
  });
});

describe('equalRevision', () => {
  it('compares data bytes, unless both hash labels parse as int32 and differ', () => {
    expect(equalRevision(rev('a', 1, { x: [1, 2] }), rev('b', 9, { x: [1, 2] }))).toBe(true);
    expect(equalRevision(rev('a', 1, { x: [1, 2] }), rev('b', 1, { x: [2, 1] }))).toBe(false);
    const labelled = (h: string) => rev('a', 1, { same: true }, { labels: { [REVISION_HASH_LABEL]: h } });
    expect(equalRevision(labelled('123'), labelled('124'))).toBe(false);
    // safe-encoded hashes usually contain letters and never parse: then only the data counts
    expect(equalRevision(labelled('5d4b9c8f7'), labelled('6c7f9d8'))).toBe(true);
    expect(equalRevision(labelled('99999999999'), labelled('1'))).toBe(true);
    expect(equalRevision(undefined, undefined)).toBe(true);
    expect(equalRevision(labelled('1'), undefined)).toBe(false);
  });
  it('finds all equal revisions in order', () => {
    const rs = [rev('a', 1, { v: 1 }), rev('b', 2, { v: 2 }), rev('c', 3, { v: 1 })];
    expect(findEqualRevisions(rs, rev('n', 4, { v: 1 })).map((r) => r.metadata?.name)).toEqual(['a', 'c']);
  });
});

// TestGetActiveRevisions (`pkg/controller/cloneset/cloneset_controller_test.go`): 6 cases
describe('decideUpdateRevision (getActiveRevisions)', () => {
  const vcts = [
    {
      metadata: { name: 'data-vol' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  ];
  const cs: RevisionedWorkload = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'test-cs', namespace: 'default', uid: 'test-uid' },
    spec: {
      template: {
        metadata: { labels: { app: 'test' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.9.1' }] },
      },
      volumeClaimTemplates: vcts,
    },
  };
  const expectedVct = volumeClaimTemplatesHash(vcts);
  const equalData = newCloneSetRevision(cs, 1, 0).data;
  const differentData = {
    spec: {
      template: { $patch: 'replace', spec: { containers: [{ image: 'different:1.0', name: 'nginx' }] } },
    },
  };
  const candidateFor = (history: ControllerRevision[]) =>
    newCloneSetRevision(cs, nextRevision(sortControllerRevisions(history)), 0);

  it('equal revision with nil annotations: rolled back, VCT hash filled, revision 3', () => {
    const history = [rev('test-cs-equal-1', 1, equalData), rev('test-cs-diff-2', 2, differentData)];
    const d = decideUpdateRevision(history, candidateFor(history));
    expect(d.type).toBe('rollback');
    expect(d.revision.metadata?.name).toBe('test-cs-equal-1');
    expect(d.revision.metadata?.annotations?.[VCT_HASH_ANNOTATION]).toBe(expectedVct);
    expect(d.revision.revision).toBe(3);
    expect(d.type === 'rollback' && d.previous.revision).toBe(1);
    expect(history[0]?.revision).toBe(1);
  });

  it('equal revision is the latest: reused by name, no write', () => {
    const history = [
      rev('test-cs-diff-1', 1, differentData),
      rev('test-cs-equal-2', 2, equalData, { annotations: { [VCT_HASH_ANNOTATION]: expectedVct } }),
    ];
    const d = decideUpdateRevision(history, candidateFor(history));
    expect(d).toEqual({ type: 'reuse', revision: history[1] });
  });

  it('no equal revision: create revision 2', () => {
    const history = [rev('test-cs-diff-1', 1, differentData)];
    const d = decideUpdateRevision(history, candidateFor(history));
    expect(d.type).toBe('create');
    expect(d.revision.revision).toBe(2);
  });

  it('equal revision with the matching VCT hash: annotations untouched, revision 3', () => {
    const history = [
      rev('test-cs-equal-1', 1, equalData, {
        annotations: { [VCT_HASH_ANNOTATION]: expectedVct, keep: 'me' },
      }),
      rev('test-cs-diff-2', 2, differentData),
    ];
    const d = decideUpdateRevision(history, candidateFor(history));
    expect(d.revision.metadata?.annotations).toEqual({ [VCT_HASH_ANNOTATION]: expectedVct, keep: 'me' });
    expect(d.revision.revision).toBe(3);
  });

  it('equal revision with a wrong VCT hash: overwritten, revision 3', () => {
    const history = [
      rev('test-cs-equal-1', 1, equalData, { annotations: { [VCT_HASH_ANNOTATION]: 'wrong-hash' } }),
      rev('test-cs-diff-2', 2, differentData),
    ];
    const d = decideUpdateRevision(history, candidateFor(history));
    expect(d.revision.metadata?.annotations?.[VCT_HASH_ANNOTATION]).toBe(expectedVct);
    expect(d.revision.revision).toBe(3);
  });

  it('empty history: create revision 1', () => {
    const d = decideUpdateRevision([], candidateFor([]));
    expect(d.type).toBe('create');
    expect(d.revision.revision).toBe(1);
  });
});

describe('currentRevisionOf', () => {
  it('is the revision named by status.currentRevision, else the update revision', () => {
    const a = rev('a', 1);
    const b = rev('b', 2);
    expect(currentRevisionOf([a, b], 'a', b)).toBe(a);
    expect(currentRevisionOf([a, b], undefined, b)).toBe(b);
    expect(currentRevisionOf([a], 'gone', b)).toBe(b);
  });
});

describe('revisionOfPod', () => {
  it('finds the revision a pod is at by full name or short hash', () => {
    const revs = [rev('web-aaa', 1), rev('web-bbb', 2)];
    expect(
      revisionOfPod({ metadata: { labels: { 'controller-revision-hash': 'bbb' } } }, revs)?.metadata?.name,
    ).toBe('web-bbb');
    expect(revisionOfPod({ metadata: {} }, revs)).toBeUndefined();
  });
});

describe('revisionsToTruncate', () => {
  const history = Array.from({ length: 6 }, (_, i) => rev(`web-h${i + 1}`, i + 1));
  const pod = (label: string) => ({ metadata: { labels: { 'controller-revision-hash': label } } });
  const cases: [string, { limit?: number; current: string; update: string; pods: string[] }, string[]][] = [
    ['within the limit', { limit: 10, current: 'web-h5', update: 'web-h6', pods: [] }, []],
    [
      'oldest non-live beyond the limit',
      { limit: 2, current: 'web-h5', update: 'web-h6', pods: [] },
      ['web-h1', 'web-h2'],
    ],
    [
      'never the current or update revision',
      { limit: 0, current: 'web-h1', update: 'web-h6', pods: [] },
      ['web-h2', 'web-h3', 'web-h4', 'web-h5'],
    ],
    [
      'never a revision a pod uses (full name)',
      { limit: 1, current: 'web-h5', update: 'web-h6', pods: ['web-h2'] },
      ['web-h1', 'web-h3'],
    ],
    [
      'never a revision a pod uses (short hash)',
      { limit: 1, current: 'web-h5', update: 'web-h6', pods: ['h1'] },
      ['web-h2', 'web-h3'],
    ],
    ['default limit 10', { current: 'web-h5', update: 'web-h6', pods: [] }, []],
  ];
  it.each(cases)('%s', (_n, c, expected) => {
    const out = revisionsToTruncate({
      sortedRevisions: history,
      currentRevision: c.current,
      updateRevision: c.update,
      pods: c.pods.map(pod),
      ...(c.limit !== undefined ? { revisionHistoryLimit: c.limit } : {}),
    });
    expect(out.map((r) => r.metadata?.name)).toEqual(expected);
  });
});
