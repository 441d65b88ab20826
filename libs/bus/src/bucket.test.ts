import { describe, expect, it } from 'vitest';
import { bucketWatchFailure, watchCheck } from './bucket.js';
import { bucketWasReset } from './cache.js';

const notFound = Object.assign(new Error('stream not found'), { name: 'StreamNotFoundError' });
const other = new Error('timeout');

describe('bucketWatchFailure', () => {
  it.each([
    [
      'a missing bucket before the first sync: waiting',
      notFound,
      { synced: false, missing: false },
      false,
      true,
    ],
    [
      'a missing bucket still missing before the sync',
      notFound,
      { synced: false, missing: true },
      false,
      true,
    ],
    ['a bucket gone after the sync: said once', notFound, { synced: true, missing: false }, true, true],
    ['the same bucket still gone: not said again', notFound, { synced: true, missing: true }, false, true],
    ['any other failure before the sync', other, { synced: false, missing: false }, true, false],
    ['any other failure after the bucket came back', other, { synced: true, missing: true }, true, false],
  ])('%s', (_, err, was, report, missing) => {
    expect(bucketWatchFailure(err, was)).toEqual({ report, missing });
  });
});

describe('a bucket reset (docs/operations.md "A clustered bus")', () => {
  const stream = (created: string, last_seq: number) => ({ created, state: { last_seq } });
  it.each([
    ['never opened before', { created: undefined, revision: 0 }, stream('t1', 0), false],
    ['the same stream, moved on', { created: 't1', revision: 10 }, stream('t1', 12), false],
    ['the same stream, nothing new', { created: 't1', revision: 10 }, stream('t1', 10), false],
    ['made again (another creation time)', { created: 't1', revision: 10 }, stream('t2', 40), true],
    ['its sequence went backwards', { created: 't1', revision: 10 }, stream('t1', 3), true],
  ])('%s: %s', (_name, followed, info, reset) => {
    expect(bucketWasReset(followed, info)).toBe(reset);
  });
});

describe('watchCheck: a watch whose consumer is gone is watched again', () => {
  it.each([
    ['ok', 0, { stop: false, failed: 0 }],
    ['ok', 1, { stop: false, failed: 0 }],
    ['failed', 0, { stop: false, failed: 1 }],
    ['failed', 1, { stop: true, failed: 0 }],
    ['reset', 0, { stop: true, failed: 0 }],
  ] as const)('%s after %i failed looks', (look, before, want) => {
    expect(watchCheck(look, before)).toEqual(want);
  });
});
