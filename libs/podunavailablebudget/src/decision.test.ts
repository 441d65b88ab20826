import type { PodUnavailableBudget, PodUnavailableBudgetStatus } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { readyPod } from './budget.test.js';
import {
  canResizeInPlace,
  decide,
  isPodUnavailableChanged,
  protectedOperations,
  refusalMessage,
  spend,
  startsInPlaceUpdate,
} from './decision.js';

const status = (s: Partial<PodUnavailableBudgetStatus> = {}): PodUnavailableBudgetStatus => ({
  unavailableAllowed: 1,
  currentAvailable: 2,
  desiredAvailable: 1,
  totalReplicas: 2,
  ...s,
});
const pub = (
  s: Partial<PodUnavailableBudgetStatus> = {},
  annotations?: Record<string, string>,
): PodUnavailableBudget => ({
  metadata: { name: 'web-pub', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
  status: status(s),
});

describe('decide (upstream PodUnavailableBudgetValidatePod)', () => {
  const optedOut = readyPod('a');
  optedOut.metadata!.annotations = { 'pub.kruise.io/no-protect': 'true' };
  const notReady = { ...readyPod('a'), status: { phase: 'Pending' } };
  it.each([
    ['the opt-out annotation', optedOut, pub(), 'DELETE', 'no-protect'],
    ['a pod not ready costs nothing', notReady, pub(), 'DELETE', 'not-available'],
    ['no budget', readyPod('a'), undefined, 'DELETE', 'no-budget'],
    ['nothing desired available', readyPod('a'), pub({ desiredAvailable: 0 }), 'EVICT', 'nothing-desired'],
    [
      'an operation not guarded',
      readyPod('a'),
      pub({}, { 'kruise.io/pub-protect-operations': 'DELETE' }),
      'UPDATE',
      'operation-not-guarded',
    ],
    [
      'already recorded: no double spending',
      readyPod('a'),
      pub({ disruptedPods: { a: 't' } }),
      'DELETE',
      'recorded',
    ],
    ['recorded as unavailable', readyPod('a'), pub({ unavailablePods: { a: 't' } }), 'EVICT', 'recorded'],
  ] as const)('%s → allow', (_, pod, p, op, reason) => {
    expect(decide(pod, p, op)).toEqual({ kind: 'allow', reason });
  });
  it('a guarded, available pod spends the budget', () => {
    expect(decide(readyPod('a'), pub(), 'EVICT').kind).toBe('spend');
  });
});

describe('protectedOperations (upstream isNeedPubProtection)', () => {
  it.each([
    [undefined, false, ['DELETE', 'EVICT', 'RESIZE', 'UPDATE']],
    ['', true, ['DELETE', 'EVICT', 'UPDATE']],
    ['DELETE', false, ['DELETE']],
    ['EVICT,UPDATE', true, ['EVICT', 'UPDATE']],
  ] as const)('annotation %j, vertical scaling %s', (value, vps, want) => {
    const p = pub({}, value === undefined ? undefined : { 'kruise.io/pub-protect-operations': value });
    expect([...protectedOperations(p, vps)].sort()).toEqual(want);
  });
});

describe('spend (upstream checkAndDecrement)', () => {
  const now = new Date('2026-01-01T00:00:00.123Z');
  it('records a deletion or eviction in disruptedPods', () => {
    const r = spend(status(), 'a', 'EVICT', now);
    expect(r).toEqual({
      ok: true,
      status: {
        ...status(),
        unavailableAllowed: 0,
        disruptedPods: { a: '2026-01-01T00:00:00Z' },
        unavailablePods: {},
      },
    });
  });
  it('records an in-place update in unavailablePods', () => {
    const r = spend(status(), 'a', 'UPDATE', now);
    expect(r.ok && r.status.unavailablePods).toEqual({ a: '2026-01-01T00:00:00Z' });
  });
  it('refuses when nothing may be disrupted', () => {
    expect(spend(status({ unavailableAllowed: 0 }), 'a', 'DELETE', now)).toEqual({
      ok: false,
      refusal: 'pub unavailable allowed is negative',
    });
  });
  it('refuses when the records are full', () => {
    const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`p${i}`, 't']));
    expect(spend(status({ disruptedPods: many }), 'a', 'DELETE', now).ok).toBe(false);
  });
  it("the refusal is upstream's Forbidden message, naming Regatta", () => {
    expect(refusalMessage('web-pub', 'pub unavailable allowed is negative')).toBe(
      'podunavailablebudget.policy.kruise.io "web-pub" is forbidden: pub unavailable allowed is negative (Regatta PodUnavailableBudget admission)',
    );
  });
});

describe('updates that may make a pod unavailable', () => {
  const base = readyPod('a');
  const withImage = { ...base, spec: { containers: [{ name: 'main', image: 'nginx:2' }] } };
  const labelled = {
    ...base,
    metadata: { ...base.metadata, labels: { 'unavailable-pod.kruise.io/x': 'true' } },
  };
  const annotated = { ...base, metadata: { ...base.metadata, annotations: { x: 'y' } } };
  const resized = {
    ...base,
    spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '2' } } }] },
  };
  it.each([
    ['a new image', withImage, true, false],
    ['an unavailable label added', labelled, true, false],
    ['an annotation', annotated, false, true],
    ['a cpu request (no resize policy: in place)', resized, true, true],
  ] as const)('%s', (_, next, changed, resize) => {
    expect(isPodUnavailableChanged(base, next)).toBe(changed);
    expect(canResizeInPlace(base, next)).toBe(resize);
  });
});

describe('startsInPlaceUpdate: the status write where an in-place update begins', () => {
  const withCondition = (status?: string) => {
    const p = readyPod('a');
    if (status)
      p.status!.conditions = [...(p.status!.conditions ?? []), { type: 'InPlaceUpdateReady', status }];
    return p;
  };
  it.each([
    ['True → False', 'True', 'False', true],
    ['none → False', undefined, 'False', true],
    ['False → False (a later status write)', 'False', 'False', false],
    ['False → True (the update done)', 'False', 'True', false],
  ] as const)('%s', (_, before, after, want) => {
    expect(startsInPlaceUpdate(withCondition(before), withCondition(after))).toBe(want);
  });
});
