import { describe, expect, it } from 'vitest';
import { isPulling, nodeImageStatus } from './status.js';
import type { ImageSpec, ImageTagStatus } from './types.js';

const held = (entries: Record<string, ImageTagStatus[]>) =>
  new Map(Object.entries(entries).map(([k, v]) => [k, new Map(v.map((s) => [s.tag, s]))] as const));

describe('nodeImageStatus', () => {
  const images: Record<string, ImageSpec> = {
    nginx: {
      tags: [
        { tag: '1.21', version: 1 },
        { tag: '1.20', version: 0 },
      ],
    },
    redis: { tags: [{ tag: '7', version: 0 }] },
    busybox: { tags: [{ tag: 'latest' }] },
  };

  it('desired counts spec tags; statuses sorted by tag; counts per phase; images without status left out', () => {
    const st = nodeImageStatus(
      images,
      held({
        nginx: [
          { tag: '1.21', phase: 'Pulling', version: 1 },
          { tag: '1.20', phase: 'Succeeded', version: 0 },
          { tag: 'gone', phase: 'Failed', version: 0 },
        ],
        redis: [{ tag: '7', phase: 'Waiting', version: 0 }],
      }),
    );
    expect(st).toEqual({
      desired: 4,
      pulling: 1,
      waiting: 1,
      succeeded: 1,
      failed: 0,
      imageStatuses: {
        nginx: {
          tags: [
            { tag: '1.20', phase: 'Succeeded', version: 0 },
            { tag: '1.21', phase: 'Pulling', version: 1 },
          ],
        },
        redis: { tags: [{ tag: '7', phase: 'Waiting', version: 0 }] },
      },
    });
  });

  it('no images: desired 0, no imageStatuses', () => {
    expect(nodeImageStatus(undefined, new Map())).toEqual({
      desired: 0,
      pulling: 0,
      waiting: 0,
      succeeded: 0,
      failed: 0,
    });
  });
});

describe('isPulling', () => {
  const images: Record<string, ImageSpec> = { nginx: { tags: [{ tag: '1.20', version: 2 }] } };
  it.each([
    ['fewer finished than desired', { desired: 1, succeeded: 0, failed: 0 }, true],
    [
      'all finished, same version',
      {
        desired: 1,
        succeeded: 1,
        imageStatuses: { nginx: { tags: [{ tag: '1.20', phase: 'Succeeded' as const, version: 2 }] } },
      },
      false,
    ],
    [
      'finished for an older version',
      {
        desired: 1,
        succeeded: 1,
        imageStatuses: { nginx: { tags: [{ tag: '1.20', phase: 'Succeeded' as const, version: 1 }] } },
      },
      true,
    ],
    [
      'failed counts as finished',
      {
        desired: 1,
        failed: 1,
        imageStatuses: { nginx: { tags: [{ tag: '1.20', phase: 'Failed' as const, version: 2 }] } },
      },
      false,
    ],
  ])('%s → %s', (_n, status, want) => expect(isPulling(images, status)).toBe(want));
});
