import type { Pod, PodUnavailableBudget } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import {
  budgetStatus,
  countAvailable,
  desiredAvailable,
  isPodAvailable,
  keepRecordedPods,
  sameStatus,
} from './budget.js';

export const readyPod = (
  name: string,
  extra: { labels?: Record<string, string>; deleting?: boolean } = {},
): Pod => ({
  metadata: {
    name,
    namespace: 'ns',
    labels: { app: 'web', ...extra.labels },
    ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});
const notReady = (name: string): Pod => ({ ...readyPod(name), status: { phase: 'Pending' } });
const pub = (spec: PodUnavailableBudget['spec']): PodUnavailableBudget => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec,
});

describe('desiredAvailable (upstream getDesiredAvailableForPub)', () => {
  it.each([
    ['maxUnavailable int', { maxUnavailable: 1 }, 2, 1],
    ['maxUnavailable 0', { maxUnavailable: 0 }, 1, 1],
    ['maxUnavailable above total', { maxUnavailable: 5 }, 2, 0],
    ['maxUnavailable 25% of 4 (rounded up)', { maxUnavailable: '25%' }, 4, 3],
    ['maxUnavailable 25% of 5 rounds up to 2', { maxUnavailable: '25%' }, 5, 3],
    ['minAvailable int, not capped', { minAvailable: 3 }, 2, 3],
    ['minAvailable 50% of 3 rounds up', { minAvailable: '50%' }, 3, 2],
    ['neither', {}, 4, 0],
  ] as const)('%s', (_, spec, expected, want) => {
    expect(desiredAvailable(pub(spec), expected)).toBe(want);
  });
});

describe('availability (upstream IsPodReady + IsPodStateConsistent)', () => {
  it.each([
    ['running and ready', readyPod('a'), true],
    ['pending', notReady('a'), false],
    ['unavailable label', readyPod('a', { labels: { 'unavailable-pod.kruise.io/data': 'true' } }), false],
  ] as const)('%s', (_, pod, want) => expect(isPodAvailable(pod)).toBe(want));
});

describe('a sidecar upgrade under way (upstream IsSidecarContainerUpdateCompleted)', () => {
  const sidecarPod = (statusImage: string, imageID: string): Pod => {
    const p = readyPod('a');
    p.metadata!.annotations = {
      'kruise.io/sidecarset-injected-list': 'sc',
      'kruise.io/sidecarset-inplace-update-state': JSON.stringify({
        sc: { revision: 'r', updateTimestamp: 't', lastContainerStatuses: { side: { imageID: 'old-id' } } },
      }),
    };
    p.spec!.containers = [
      { name: 'main', image: 'nginx' },
      { name: 'side', image: 'side:2', env: [{ name: 'IS_INJECTED', value: 'true' }] },
    ];
    p.status!.containerStatuses = [{ name: 'side', image: statusImage, imageID, ready: true } as never];
    return p;
  };
  it.each([
    ['still the recorded image', sidecarPod('side:1', 'old-id'), false],
    ['restarted on the new image', sidecarPod('side:2', 'new-id'), true],
  ] as const)('%s', (_, pod, want) => expect(isPodAvailable(pod)).toBe(want));
});

describe('keepRecordedPods (upstream buildDisruptedAndUnavailablePods)', () => {
  const now = Date.parse('2026-01-01T00:00:30Z');
  it.each([
    [
      'a deletion admitted 5 s ago is kept',
      { disruptedPods: { a: '2026-01-01T00:00:25Z' } },
      ['a'],
      [],
      now + 15_000,
      [],
    ],
    [
      'a deletion admitted 25 s ago expired (NotDeleted)',
      { disruptedPods: { a: '2026-01-01T00:00:05Z' } },
      [],
      [],
      undefined,
      ['a'],
    ],
    [
      'an update admitted 5 s ago is kept',
      { unavailablePods: { a: '2026-01-01T00:00:25Z' } },
      [],
      ['a'],
      now + 5_000,
      [],
    ],
    [
      'an update admitted 11 s ago expired',
      { unavailablePods: { a: '2026-01-01T00:00:19Z' } },
      [],
      [],
      undefined,
      [],
    ],
    [
      'a pod gone drops its record',
      { disruptedPods: { gone: '2026-01-01T00:00:29Z' } },
      [],
      [],
      undefined,
      [],
    ],
  ] as const)('%s', (_, recorded, disrupted, unavailable, recheck, notDeleted) => {
    const status = {
      unavailableAllowed: 0,
      currentAvailable: 0,
      desiredAvailable: 0,
      totalReplicas: 0,
      ...recorded,
    };
    const r = keepRecordedPods([readyPod('a'), readyPod('b')], status, now);
    expect(Object.keys(r.disruptedPods)).toEqual(disrupted);
    expect(Object.keys(r.unavailablePods)).toEqual(unavailable);
    expect(r.recheckAtMs).toBe(recheck);
    expect(r.notDeleted).toEqual(notDeleted);
  });
});

describe('status math', () => {
  it('counts active, unrecorded, available pods; allowed = current − desired, at least 0', () => {
    const pods = [
      readyPod('a'),
      readyPod('b'),
      notReady('c'),
      readyPod('d', { deleting: true }),
      readyPod('e'),
    ];
    const recorded = { disruptedPods: { e: '2026-01-01T00:00:00Z' }, unavailablePods: {} };
    const current = countAvailable(pods, recorded);
    expect(current).toBe(2);
    const s = budgetStatus({
      generation: 3,
      currentAvailable: current,
      desiredAvailable: 1,
      totalReplicas: 4,
      recorded,
    });
    expect(s).toEqual({
      unavailableAllowed: 1,
      currentAvailable: 2,
      desiredAvailable: 1,
      totalReplicas: 4,
      observedGeneration: 3,
      disruptedPods: { e: '2026-01-01T00:00:00Z' },
    });
    expect(
      budgetStatus({ generation: 1, currentAvailable: 1, desiredAvailable: 3, totalReplicas: 3, recorded })
        .unavailableAllowed,
    ).toBe(0);
  });
  it('sameStatus treats absent and empty maps alike', () => {
    const s = {
      unavailableAllowed: 1,
      currentAvailable: 2,
      desiredAvailable: 1,
      totalReplicas: 2,
      observedGeneration: 1,
    };
    expect(sameStatus({ ...s, disruptedPods: {} }, s)).toBe(true);
    expect(sameStatus({ ...s, disruptedPods: { a: 't' } }, s)).toBe(false);
    expect(sameStatus(undefined, s)).toBe(false);
  });
});
