import { describe, expect, it } from 'vitest';
import { type DaemonSetCounts, statusUnchanged } from './status.js';

const counts: DaemonSetCounts = {
  desiredNumberScheduled: 3,
  currentNumberScheduled: 3,
  numberMisscheduled: 0,
  numberReady: 3,
  updatedNumberScheduled: 3,
  numberAvailable: 3,
  numberUnavailable: 0,
};
const stored = (extra: Record<string, unknown>) => ({ ...counts, observedGeneration: 2, ...extra });

describe('statusUnchanged: nothing to write only when the stored status is current', () => {
  it.each([
    ['both hash names current', { updateRevision: 'h', daemonSetHash: 'h' }, true],
    // e2e (apps/v1alpha1/daemonset.go) reads status.daemonSetHash through v1alpha1: it must be written too
    ['daemonSetHash missing', { updateRevision: 'h' }, false],
    ['daemonSetHash stale', { updateRevision: 'h', daemonSetHash: 'old' }, false],
    ['updateRevision stale', { updateRevision: 'old', daemonSetHash: 'h' }, false],
    ['observedGeneration behind', { updateRevision: 'h', daemonSetHash: 'h', observedGeneration: 1 }, false],
    ['a count differs', { updateRevision: 'h', daemonSetHash: 'h', numberReady: 2 }, false],
    ['collisionCount differs', { updateRevision: 'h', daemonSetHash: 'h', collisionCount: 1 }, false],
  ])('%s', (_, extra, unchanged) => {
    expect(statusUnchanged(stored(extra), counts, 'h', 2, 0)).toBe(unchanged);
  });
});
