import { describe, expect, it } from 'vitest';
import { planTags } from './tag-plan.js';
import type { ImageStatus, ImageTagSpec } from './types.js';

const t = (tag: string, version = 0): ImageTagSpec => ({ tag, version });
const done = (tag: string, version: number, phase: 'Succeeded' | 'Failed' = 'Succeeded') => ({
  tag,
  version,
  phase,
  completionTime: '2026-01-01T00:00:00Z',
});

describe('planTags (realWorkerPool.Sync)', () => {
  it.each<
    [
      string,
      ImageTagSpec[],
      ImageStatus | undefined,
      [string, number][],
      { start: string[]; stop: string[]; finished: string[] },
    ]
  >([
    ['new tags start', [t('1'), t('2')], undefined, [], { start: ['1', '2'], stop: [], finished: [] }],
    [
      'running tag keeps its worker',
      [t('1')],
      { tags: [{ tag: '1', version: 0, phase: 'Pulling' }] },
      [['1', 0]],
      { start: [], stop: [], finished: [] },
    ],
    [
      'finished for this version: kept, worker stopped',
      [t('1', 2)],
      { tags: [done('1', 2)] },
      [['1', 2]],
      { start: [], stop: ['1'], finished: ['1'] },
    ],
    [
      'finished for an older version: restarted',
      [t('1', 3)],
      { tags: [done('1', 2)] },
      [],
      { start: ['1'], stop: [], finished: [] },
    ],
    [
      'version bump stops the old worker and starts one',
      [t('1', 1)],
      undefined,
      [['1', 0]],
      { start: ['1'], stop: ['1'], finished: [] },
    ],
    [
      'tag removed from spec: worker stopped',
      [],
      undefined,
      [['1', 0]],
      { start: [], stop: ['1'], finished: [] },
    ],
    [
      'a status without completionTime (a killed agent) restarts',
      [t('1')],
      { tags: [{ tag: '1', version: 0, phase: 'Pulling' }] },
      [],
      { start: ['1'], stop: [], finished: [] },
    ],
    [
      'Failed with completionTime is final',
      [t('1')],
      { tags: [done('1', 0, 'Failed')] },
      [],
      { start: [], stop: [], finished: ['1'] },
    ],
  ])('%s', (_n, tags, observed, running, want) => {
    const plan = planTags({ tags }, observed, new Map(running));
    expect({
      start: plan.start.map((x) => x.tag),
      stop: plan.stop,
      finished: plan.finished.map((x) => x.tag),
    }).toEqual(want);
    expect([...plan.tags]).toEqual(tags.map((x) => x.tag));
  });
});
