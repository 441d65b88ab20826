import { describe, expect, it } from 'vitest';
import type { NodeImage } from '@regatta/api';
import { guardNodeImageStatus, pullFailedMessage } from './nodeimage-status.js';
import { owner } from './testing/fixtures.js';

const at = (min: number) => new Date(Date.parse('2025-01-01T00:00:00Z') + min * 60_000);
const ni = (status?: NodeImage['status'], deadline?: number): NodeImage => ({
  metadata: { name: 'node1' },
  spec: {
    images: {
      nginx: {
        tags: [
          {
            tag: '1.20',
            version: 1,
            createdAt: '2025-01-01T00:00:00Z',
            ownerReferences: [owner()],
            pullPolicy: { ttlSecondsAfterFinished: 300, ...(deadline ? { activeDeadlineSeconds: deadline } : {}) },
          },
        ],
      },
    },
  },
  ...(status ? { status } : {}),
});

describe('NodeImage status guard', () => {
  it('waits for the node to answer for 10 min, then fails the tag and names its owners', () => {
    const early = guardNodeImageStatus(ni({ desired: 1, succeeded: 0, failed: 0, pulling: 0, waiting: 0 }), at(4));
    expect(early.status).toBeUndefined();
    expect(early.waitMs).toBe(6 * 60_000);
    const late = guardNodeImageStatus(ni(), at(11));
    expect(late.status?.imageStatuses?.['nginx']?.tags).toEqual([
      { tag: '1.20', phase: 'Failed', completionTime: '2025-01-01T00:11:00Z', version: 1, message: 'node has not responded for a long time' },
    ]);
    expect(late.status).toMatchObject({ desired: 1, failed: 1, succeeded: 0, pulling: 0 });
    expect(late.failures).toHaveLength(1);
    expect(pullFailedMessage(late.failures[0]!, 'node1')).toBe(
      'Failed to pull image nginx:1.20 on node node1 for node has not responded for a long time',
    );
  });

  it('an unfinished pull past activeDeadlineSeconds + 10 min fails', () => {
    const pulling = { desired: 1, pulling: 1, imageStatuses: { nginx: { tags: [{ tag: '1.20', phase: 'Pulling', version: 1 }] } } };
    expect(guardNodeImageStatus(ni(pulling, 60), at(10)).failures).toEqual([]);
    const g = guardNodeImageStatus(ni(pulling, 60), at(12));
    expect(g.failures[0]?.message).toBe('pulling exceeds the activeDeadlineSeconds');
  });

  it('statuses of removed tags stay until something is written (as upstream); a write recounts over spec and drops them', () => {
    const stale = {
      desired: 2,
      imageStatuses: {
        nginx: { tags: [{ tag: 'old', phase: 'Failed' }] },
        gone: { tags: [{ tag: 'a', phase: 'Failed' }] },
      },
    };
    expect(guardNodeImageStatus(ni(stale), at(1)).status).toBeUndefined();
    const g = guardNodeImageStatus(ni(stale), at(11));
    expect(g.status).toEqual({
      desired: 1,
      succeeded: 0,
      failed: 1,
      pulling: 0,
      waiting: 0,
      imageStatuses: {
        nginx: {
          tags: [
            { tag: '1.20', phase: 'Failed', completionTime: '2025-01-01T00:11:00Z', version: 1, message: 'node has not responded for a long time' },
          ],
        },
      },
    });
    expect(guardNodeImageStatus({ metadata: { name: 'n' }, spec: {} }, at(0)).status).toEqual({
      desired: 0,
      succeeded: 0,
      failed: 0,
      pulling: 0,
      waiting: 0,
    });
  });
});

describe('an image named for a member of Object.prototype (R2 run BW, docs/reliability.md finding 24)', () => {
  const named = (name: string): NodeImage => {
    const n = ni({ desired: 1, imageStatuses: {} });
    n.spec = { images: { [name]: n.spec!.images!['nginx']! } };
    return n;
  };

  it.each(['constructor', 'toString', 'hasOwnProperty'])('%s: no status yet is read as none, not as the prototype member', (name) => {
    expect(guardNodeImageStatus(named(name), at(4)).waitMs).toBe(6 * 60_000);
    expect(guardNodeImageStatus(named(name), at(11)).status?.imageStatuses?.[name]?.tags).toEqual([
      expect.objectContaining({ tag: '1.20', phase: 'Failed', message: 'node has not responded for a long time' }),
    ]);
  });
});
