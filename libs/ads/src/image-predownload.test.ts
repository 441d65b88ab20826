// When a DaemonSet rollout pre-downloads its images, and why not (daemonset_predownload_image.go); the jobs
// themselves are libs/image-predownload's.
import { describe, expect, it } from 'vitest';
import { daemonSetRollout } from './daemonset-object.js';
import { daemonSetPreDownloadIgnore, preDownloadStep } from './image-predownload.js';
import { daemonSet } from './testing/world.js';

const ds = (status: Record<string, unknown>, ru: Record<string, unknown> = { maxUnavailable: 1 }) => {
  const d = daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru } });
  d.status = status;
  return d;
};

describe('preDownloadStep', () => {
  it.each([
    [
      'no rollout: clean up',
      { desiredNumberScheduled: 5, updatedNumberScheduled: 5, updateRevision: 'h' },
      'cleanup',
    ],
    [
      'a new hash: prepare',
      { desiredNumberScheduled: 5, updatedNumberScheduled: 5, updateRevision: 'old' },
      'prepare',
    ],
    [
      'nodes still old: prepare',
      { desiredNumberScheduled: 5, updatedNumberScheduled: 2, updateRevision: 'h' },
      'prepare',
    ],
  ] as const)('%s', (_n, status, want) => {
    expect(preDownloadStep(ds(status), 'h').action).toBe(want);
  });
});

describe('daemonSetPreDownloadIgnore', () => {
  const status = { desiredNumberScheduled: 5, updatedNumberScheduled: 0 };
  it.each<[string, Record<string, unknown>, ReturnType<typeof daemonSetPreDownloadIgnore>]>([
    ['maxUnavailable 1 of 5: create', { maxUnavailable: 1 }, undefined],
    ['maxUnavailable 100%: one batch', { maxUnavailable: '100%' }, 'OneBatch'],
    ['maxUnavailable 90% of 5 rounds up to 5: one batch', { maxUnavailable: '90%' }, 'OneBatch'],
    ['one batch but a partition holds nodes: create', { maxUnavailable: '100%', partition: 2 }, undefined],
    ['partition 10% of 5 rounds down to 0: one batch', { maxUnavailable: 5, partition: '10%' }, 'OneBatch'],
  ])('%s', (_n, ru, want) => {
    const d = ds(status, ru);
    expect(daemonSetPreDownloadIgnore(d, daemonSetRollout(d))).toBe(want);
  });
});
