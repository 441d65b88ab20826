// When the CloneSet looks again for pods turning available after minReadySeconds
// (docs/adr/0070-prompt-status-changes.md): from each pod's Ready transition, not the whole minReadySeconds from now.
import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { msUntilNextAvailable } from './status.js';

const now = new Date('2026-12-07T12:00:10Z');
const pod = (readySince: string | undefined, extra: { state?: string; ready?: boolean } = {}): Pod => ({
  metadata: {
    name: `p-${readySince}`,
    labels: { 'lifecycle.apps.kruise.io/state': extra.state ?? 'Normal' },
  },
  status: {
    phase: 'Running',
    conditions: [
      {
        type: 'Ready',
        status: extra.ready === false ? 'False' : 'True',
        ...(readySince ? { lastTransitionTime: readySince } : {}),
      },
    ],
  },
});

describe('msUntilNextAvailable', () => {
  it.each<[string, Pod[], number, number]>([
    ['no minReadySeconds', [pod('2026-12-07T12:00:09Z')], 0, 0],
    ['no pods', [], 10, 0],
    ['ready 1 s ago, minReadySeconds 10: 9 s (and 1 ms) to go', [pod('2026-12-07T12:00:09Z')], 10, 9001],
    [
      'the earliest of two: one ready 5 s ago, one 1 s ago',
      [pod('2026-12-07T12:00:09Z'), pod('2026-12-07T12:00:05Z')],
      10,
      5001,
    ],
    ['already available: nothing to wait for', [pod('2026-12-07T11:59:00Z')], 10, 0],
    ['available exactly now (k8s needs longer than minReadySeconds)', [pod('2026-12-07T12:00:00Z')], 10, 1],
    ['not ready: its events bring the next look', [pod('2026-12-07T12:00:09Z', { ready: false })], 10, 0],
    ['no transition time: never available by waiting', [pod(undefined)], 10, 0],
    [
      'not available for its lifecycle state, not for time',
      [pod('2026-12-07T11:59:00Z', { state: 'PreparingUpdate' })],
      10,
      0,
    ],
  ])('%s', (_, pods, minReadySeconds, want) => {
    expect(msUntilNextAvailable(pods, minReadySeconds, now)).toBe(want);
  });
});
