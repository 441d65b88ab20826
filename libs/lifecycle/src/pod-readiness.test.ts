import { describe, expect, it } from 'vitest';
import type { Pod, PodCondition, PodReadinessGate } from './pod.js';
import { recomputePodReady, setPodCondition } from './pod-conditions.js';
import {
  KRUISE_POD_READY,
  addNotReadyKey,
  formatNotReadyKeys,
  initialKruisePodReady,
  needsInitialKruisePodReady,
  notReadyKeys,
  removeNotReadyKey,
  withKruisePodReadinessGate,
} from './pod-readiness.js';

const now = new Date('2024-05-01T12:00:00Z');
const key = { userAgent: 'Lifecycle', key: 'preDeleteHook' };
const ready = (status = 'True'): PodCondition[] => [
  { type: 'ContainersReady', status: 'True' },
  { type: 'Ready', status, lastTransitionTime: '2024-01-01T00:00:00Z' },
];
const gated = (conditions: PodCondition[] = ready()): Pod => ({
  metadata: { name: 'p' },
  spec: { readinessGates: [{ conditionType: KRUISE_POD_READY }] },
  status: { conditions },
});

describe('setPodCondition (Kruise semantics)', () => {
  it('appends new types and replaces only on a status change', () => {
    const base: PodCondition[] = [{ type: 'X', status: 'False', reason: 'a' }];
    expect(setPodCondition(base, { type: 'Y', status: 'True' })).toEqual([
      ...base,
      { type: 'Y', status: 'True' },
    ]);
    expect(setPodCondition(base, { type: 'X', status: 'False', reason: 'b' })).toEqual(base);
    expect(setPodCondition(base, { type: 'X', status: 'True' })).toEqual([{ type: 'X', status: 'True' }]);
  });
});

describe('recomputePodReady', () => {
  it('sets Ready False with the upstream message when a gate is missing or not True', () => {
    const conditions = recomputePodReady(gated(), now);
    expect(conditions.find((c) => c.type === 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message: 'corresponding condition of pod readiness gate "KruisePodReady" does not exist.',
    });
  });
  it('sets Ready True when every gate is True', () => {
    const pod = gated([...ready('False'), { type: KRUISE_POD_READY, status: 'True' }]);
    expect(recomputePodReady(pod, now).find((c) => c.type === 'Ready')).toEqual({
      type: 'Ready',
      status: 'True',
      lastTransitionTime: '2024-05-01T12:00:00Z',
    });
  });
  it('leaves everything alone without Ready or with ContainersReady not True', () => {
    const noReady = gated([{ type: 'ContainersReady', status: 'True' }]);
    expect(recomputePodReady(noReady, now)).toEqual(noReady.status?.conditions);
    const notContainers = gated([
      { type: 'ContainersReady', status: 'False' },
      { type: 'Ready', status: 'True' },
    ]);
    expect(recomputePodReady(notContainers, now)).toEqual(notContainers.status?.conditions);
  });
});

describe('not-ready keys', () => {
  it('formats keys sorted by userAgent then key', () => {
    expect(
      formatNotReadyKeys([
        { userAgent: 'b', key: 'a' },
        { userAgent: 'a', key: 'z' },
        { userAgent: 'a', key: 'b' },
      ]),
    ).toBe('[{"userAgent":"a","key":"b"},{"userAgent":"a","key":"z"},{"userAgent":"b","key":"a"}]');
  });

  it('creates the condition without a status and turns Ready False', () => {
    const conditions = addNotReadyKey(gated(), key, now);
    expect(conditions?.find((c) => c.type === KRUISE_POD_READY)).toEqual({
      type: KRUISE_POD_READY,
      status: '',
      message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
      lastTransitionTime: '2024-05-01T12:00:00Z',
    });
    expect(conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
  });

  it('adds a second key to an existing condition and sets it False', () => {
    const pod = gated([...ready(), { type: KRUISE_POD_READY, status: 'True', message: '[]' }]);
    const conditions = addNotReadyKey(pod, key, now);
    expect(conditions?.find((c) => c.type === KRUISE_POD_READY)?.status).toBe('False');
    const again = addNotReadyKey({ ...pod, status: { conditions: conditions ?? [] } }, key, now);
    expect(again).toBeUndefined();
  });

  it('does nothing without the readiness gate', () => {
    expect(addNotReadyKey({ status: { conditions: ready() } }, key, now)).toBeUndefined();
    expect(removeNotReadyKey({ status: { conditions: ready() } }, key, now)).toBeUndefined();
  });

  it('removes keys and turns True when none is left', () => {
    const other = { userAgent: 'CRR', key: 'x' };
    const pod = gated([
      ...ready('False'),
      { type: KRUISE_POD_READY, status: 'False', message: formatNotReadyKeys([key, other]) },
    ]);
    const first = removeNotReadyKey(pod, key, now);
    expect(first?.find((c) => c.type === KRUISE_POD_READY)).toMatchObject({
      status: 'False',
      message: '[{"userAgent":"CRR","key":"x"}]',
    });
    const second = removeNotReadyKey(gated(first), other, now);
    expect(second?.find((c) => c.type === KRUISE_POD_READY)).toMatchObject({ status: 'True', message: '[]' });
    expect(notReadyKeys(gated(second))).toEqual([]);
    expect(removeNotReadyKey(gated(second), other, now)).toBeUndefined();
  });
});

describe('the KruisePodReady gate at creation and its first condition (pod_readiness.go, podreadiness)', () => {
  it.each<[string, PodReadinessGate[] | undefined, string[]]>([
    ['no gates', undefined, [KRUISE_POD_READY]],
    ['other gates kept first', [{ conditionType: 'InPlaceUpdateReady' }], ['InPlaceUpdateReady', KRUISE_POD_READY]],
    ['already there: not duplicated', [{ conditionType: KRUISE_POD_READY }], [KRUISE_POD_READY]],
  ])('withKruisePodReadinessGate: %s', (_name, gates, want) => {
    const pod: Pod = { metadata: { name: 'p' }, spec: { containers: [], ...(gates ? { readinessGates: gates } : {}) } };
    const before = JSON.stringify(pod);
    expect(withKruisePodReadinessGate(pod).spec?.readinessGates?.map((g) => g.conditionType)).toEqual(want);
    expect(JSON.stringify(pod)).toBe(before);
  });

  it.each<[string, Pod, PodCondition | undefined]>([
    ['gate, no condition → True', gated([]), { type: KRUISE_POD_READY, status: 'True', lastTransitionTime: '2024-05-01T12:00:00Z' }],
    ['gate, other conditions only → True', gated(ready('False')), { type: KRUISE_POD_READY, status: 'True', lastTransitionTime: '2024-05-01T12:00:00Z' }],
    ['condition already False (a key holds it) → nothing', gated([{ type: KRUISE_POD_READY, status: 'False' }]), undefined],
    ['condition True → nothing', gated([{ type: KRUISE_POD_READY, status: 'True' }]), undefined],
    ['condition without status (AddNotReadyKey on an absent one) → nothing', gated([{ type: KRUISE_POD_READY, status: '' }]), undefined],
    ['no gate → nothing', { metadata: { name: 'p' }, spec: { containers: [] } }, undefined],
    ['being deleted → nothing', { ...gated([]), metadata: { name: 'p', deletionTimestamp: '2024-05-01T11:00:00Z' } }, undefined],
  ])('initialKruisePodReady: %s', (_name, pod, want) => {
    expect(initialKruisePodReady(pod, now)).toEqual(want);
    expect(needsInitialKruisePodReady(pod)).toBe(want !== undefined);
  });
});
