import { describe, expect, it } from 'vitest';
import { minUpdatedReadyPods, preDownloadSettings } from './settings.js';

const P = 'apps.kruise.io/image-predownload-parallelism';
const T = 'apps.kruise.io/image-predownload-timeout-seconds';
const M = 'apps.kruise.io/image-predownload-min-updated-ready-pods';

describe('preDownloadSettings (CreateJobForWorkload)', () => {
  it.each<[string, Record<string, string> | undefined, { parallelism: number; timeoutSeconds: number }]>([
    ['no annotations: 1 and 300', undefined, { parallelism: 1, timeoutSeconds: 300 }],
    ['the seed: parallelism 5', { [P]: '5', [M]: '2' }, { parallelism: 5, timeoutSeconds: 300 }],
    ['timeout 120', { [T]: '120' }, { parallelism: 1, timeoutSeconds: 120 }],
    ['parallelism 0 (pauses the job)', { [P]: '0' }, { parallelism: 0, timeoutSeconds: 300 }],
    ['unparsable values fall back', { [P]: '50%', [T]: 'abc' }, { parallelism: 1, timeoutSeconds: 300 }],
    ['a timeout beyond int32 falls back', { [T]: '9999999999' }, { parallelism: 1, timeoutSeconds: 300 }],
  ])('%s', (_n, annotations, want) => {
    expect(preDownloadSettings(annotations)).toEqual(want);
  });
});

describe('minUpdatedReadyPods', () => {
  it.each<[string, Record<string, string> | undefined, number, number]>([
    ['absent → 0', undefined, 10, 0],
    ['int', { [M]: '2' }, 10, 2],
    ['percent rounded up', { [M]: '25%' }, 10, 3],
    ['unparsable → 0', { [M]: 'x' }, 10, 0],
  ])('%s', (_n, annotations, replicas, want) => {
    expect(minUpdatedReadyPods(annotations, replicas)).toBe(want);
  });
});
