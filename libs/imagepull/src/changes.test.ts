import { describe, expect, it } from 'vitest';
import type { ImageTagSpec, NodeImage } from '@regatta/api';
import { changedSpecTags, changedStatusTags, jobsForNodeImageUpdate } from './changes.js';
import { owner } from './testing/fixtures.js';

const t = (tag: string, version = 0): ImageTagSpec => ({ tag, version });
const set = (...tags: string[]) => new Set(tags);

describe('getChangedSpecTags (§8.7)', () => {
  it.each([
    ['both empty', [], [], set()],
    ['identical', [t('1.20')], [t('1.20')], set()],
    ['reordered', [t('1.20'), t('1.21')], [t('1.21'), t('1.20')], set()],
    ['added 1.21', [t('1.20')], [t('1.20'), t('1.21')], set('1.21')],
    ['removed 1.21', [t('1.20'), t('1.21')], [t('1.20')], set('1.21')],
    ['version bump of 1.20', [t('1.20', 1)], [t('1.20', 2)], set('1.20')],
    ['1.20 replaced by 1.22', [t('1.20')], [t('1.22')], set('1.20', '1.22')],
    ['old duplicate 1.20 (v1, v2) vs new v2', [t('1.20', 1), t('1.20', 2)], [t('1.20', 2)], set()],
    ['new duplicate 1.20 (v1, v3) vs old v2', [t('1.20', 2)], [t('1.20', 1), t('1.20', 3)], set('1.20')],
    ['old empty', [], [t('1.20')], set('1.20')],
    ['new empty', [t('1.20')], [], set('1.20')],
  ] as const)('%s', (_n, a, b, want) => {
    expect(changedSpecTags([...a], [...b])).toEqual(want);
  });
});

describe('getChangedStatusTags', () => {
  const s = (...tags: [string, string, number?][]) => ({
    tags: tags.map(([tag, phase, version]) => ({ tag, phase, version: version ?? 0 })),
  });
  it.each([
    ['identical', s(['1.20', 'Pulling']), s(['1.20', 'Pulling']), set()],
    ['reordered', s(['a', 'Pulling'], ['b', 'Failed']), s(['b', 'Failed'], ['a', 'Pulling']), set()],
    ['phase change', s(['1.20', 'Pulling']), s(['1.20', 'Succeeded']), set('1.20')],
    ['added', s(), s(['1.21', 'Waiting']), set('1.21')],
    ['removed', s(['1.21', 'Waiting']), undefined, set('1.21')],
  ] as const)('%s', (_n, a, b, want) => {
    expect(changedStatusTags(a, b)).toEqual(want);
  });
});

describe('NodeImage handleUpdate enqueues', () => {
  const j1 = owner('u1', 'job1');
  const j2 = owner('u2', 'job2');
  const ni = (v20 = 0, phase20 = 'Pulling', secrets: string[] = []): NodeImage => ({
    metadata: { name: 'n' },
    spec: {
      images: {
        nginx: {
          tags: [
            { tag: '1.20', version: v20, ownerReferences: [j1] },
            { tag: '1.21', version: 0, ownerReferences: [j2] },
          ],
          pullSecrets: secrets.map((name) => ({ namespace: 'c', name })),
        },
      },
    },
    status: { desired: 2, imageStatuses: { nginx: { tags: [{ tag: '1.20', phase: phase20, version: v20 }] } } },
  });
  it('only the job owning the changed tag, not its siblings of the same image', () => {
    expect(jobsForNodeImageUpdate(ni(0), ni(1))).toEqual(set('default/job1'));
  });
  it('a status change of one tag → only its job', () => {
    expect(jobsForNodeImageUpdate(ni(0, 'Pulling'), ni(0, 'Succeeded'))).toEqual(set('default/job1'));
  });
  it('all jobs of an image when its secrets changed or it was removed', () => {
    expect(jobsForNodeImageUpdate(ni(), ni(0, 'Pulling', ['s']))).toEqual(set('default/job1', 'default/job2'));
    expect(jobsForNodeImageUpdate(ni(), { metadata: { name: 'n' }, spec: {} })).toEqual(set('default/job1', 'default/job2'));
  });
  it('nothing changed → nobody', () => {
    expect(jobsForNodeImageUpdate(ni(), ni())).toEqual(set());
  });
});
