// When a DaemonSet rollout pre-downloads its images (docs/ads.md "Differences": the jobs themselves wait for ImagePullJob).
import { describe, expect, it } from 'vitest';
import { daemonSetRollout } from './daemonset-object.js';
import { preDownloadStep } from './image-predownload.js';
import { daemonSet } from './testing/world.js';

describe('preDownloadStep', () => {
  const ds = (status: Record<string, unknown>, ru: Record<string, unknown> = { maxUnavailable: 1 }) => {
    const d = daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru } });
    d.status = status;
    return d;
  };
  it.each([
    [
      'no rollout: clean up',
      { desiredNumberScheduled: 5, updatedNumberScheduled: 5, updateRevision: 'h' },
      undefined,
      'cleanup',
    ],
    [
      'a new hash: prepare',
      { desiredNumberScheduled: 5, updatedNumberScheduled: 5, updateRevision: 'old' },
      undefined,
      'prepare',
    ],
    [
      'nodes still old: prepare',
      { desiredNumberScheduled: 5, updatedNumberScheduled: 2, updateRevision: 'h' },
      undefined,
      'prepare',
    ],
    [
      'everything at once: skip',
      { desiredNumberScheduled: 5, updatedNumberScheduled: 2, updateRevision: 'h' },
      { maxUnavailable: '100%' },
      'skip',
    ],
  ] as const)('%s', (_n, status, ru, want) => {
    const d = ds(status, ru ?? { maxUnavailable: 1 });
    expect(preDownloadStep(d, daemonSetRollout(d), 'h').action).toBe(want);
  });
});
