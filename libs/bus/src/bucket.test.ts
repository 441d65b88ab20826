import { describe, expect, it } from 'vitest';
import { bucketWatchFailure } from './bucket.js';

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
