import type { Pod, PodCondition } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { InPlaceUpdateStateError } from './errors.js';
import { INPLACE_UPDATE_GRACE_KEY, INPLACE_UPDATE_READY, INPLACE_UPDATE_STATE_KEY } from './keys.js';
import { refreshInPlaceUpdate } from './refresh.js';
import { type InPlaceUpdateState, formatInPlaceUpdateState, readInPlaceUpdateState } from './state.js';

const now = new Date('2024-05-01T12:00:00Z');
const aHourAgo = '2024-05-01T11:00:00Z';
const tenSecondsAgo = '2024-05-01T11:59:50Z';
const gate = { readinessGates: [{ conditionType: INPLACE_UPDATE_READY }] };
const labels = { 'controller-revision-hash': 'new-revision' };
const state = (s: Partial<InPlaceUpdateState>) =>
  formatInPlaceUpdateState({ revision: 'new-revision', updateTimestamp: aHourAgo, ...s });
const cond = (type: string, status: string, lastTransitionTime?: string): PodCondition => ({
  type,
  status,
  ...(lastTransitionTime ? { lastTransitionTime } : {}),
});

// upstream TestRefresh: 9 cases
describe('refreshInPlaceUpdate', () => {
  it('no readiness gate → nothing', () => {
    expect(refreshInPlaceUpdate({}, { now })).toEqual({ action: 'none' });
  });

  it('not in-place updated yet → nothing', () => {
    const pod: Pod = {
      metadata: {
        labels,
        annotations: {
          [INPLACE_UPDATE_STATE_KEY]:
            '{"revision":"new-revision","lastContainerStatuses":{"c1":{"imageID":"img01"}}}',
        },
      },
      spec: gate,
    };
    expect(refreshInPlaceUpdate(pod, { now }).action).toBe('none');
  });

  it('no existing condition, scheduled → set True', () => {
    expect(refreshInPlaceUpdate({ spec: { ...gate, nodeName: 'node-1' } }, { now })).toEqual({
      action: 'setReady',
      conditions: [cond(INPLACE_UPDATE_READY, 'True', '2024-05-01T12:00:00Z')],
    });
  });

  // Regatta: a new pod's first True waits for its node (docs/adr/0049, amendment), so the move to Normal rides on it
  it('no existing condition, not scheduled yet → nothing', () => {
    expect(refreshInPlaceUpdate({ spec: gate }, { now })).toEqual({
      action: 'none',
      reason: 'waiting for the pod to be scheduled',
    });
  });

  it('existing condition False → set True in place', () => {
    const pod: Pod = {
      spec: gate,
      status: { conditions: [cond('ContainersReady', 'True'), cond(INPLACE_UPDATE_READY, 'False')] },
    };
    expect(refreshInPlaceUpdate(pod, { now })).toEqual({
      action: 'setReady',
      conditions: [
        cond('ContainersReady', 'True'),
        cond(INPLACE_UPDATE_READY, 'True', '2024-05-01T12:00:00Z'),
      ],
    });
  });

  it('existing condition True → nothing', () => {
    const pod: Pod = {
      spec: gate,
      status: { conditions: [cond('ContainersReady', 'False'), cond(INPLACE_UPDATE_READY, 'True')] },
    };
    expect(refreshInPlaceUpdate(pod, { now })).toEqual({ action: 'none' });
  });

  const inGrace = (graceSeconds: number): Pod => ({
    metadata: {
      labels,
      annotations: {
        [INPLACE_UPDATE_STATE_KEY]: state({
          updateTimestamp: tenSecondsAgo,
          lastContainerStatuses: { c1: { imageID: 'img01' } },
        }),
        [INPLACE_UPDATE_GRACE_KEY]: `{"revision":"new-revision","containerImages":{"main":"img-name02"},"graceSeconds":${graceSeconds}}`,
      },
    },
    spec: { containers: [{ name: 'main', image: 'img-name01' }], ...gate },
  });

  it('in-place update still in grace → wait the remaining seconds, nothing written', () => {
    expect(refreshInPlaceUpdate(inGrace(30), { now })).toEqual({ action: 'wait', delaySeconds: 20 });
    expect(refreshInPlaceUpdate(inGrace(30), { now: new Date(now.getTime() + 500) })).toEqual({
      action: 'wait',
      delaySeconds: 20,
    });
  });

  it('in-place update reached its grace period → containers written, grace annotation removed', () => {
    const r = refreshInPlaceUpdate(inGrace(5), { now });
    expect(r.action).toBe('update');
    if (r.action !== 'update') return;
    expect(r.reason).toBe('graceExpired');
    expect(r.pod.spec?.containers).toEqual([{ name: 'main', image: 'img-name02' }]);
    expect(r.pod.metadata?.annotations?.[INPLACE_UPDATE_GRACE_KEY]).toBeUndefined();
    expect(readInPlaceUpdateState(r.pod)).toEqual({
      revision: 'new-revision',
      updateTimestamp: tenSecondsAgo,
      lastContainerStatuses: { c1: { imageID: 'img01' } },
      containerBatchesRecord: [{ timestamp: '2024-05-01T12:00:00Z', containers: ['main'] }],
    });
  });

  const batchPod = (c1ImageID: string): Pod => ({
    metadata: {
      labels,
      annotations: {
        [INPLACE_UPDATE_STATE_KEY]: state({
          lastContainerStatuses: { c1: { imageID: 'c1-img1-ID' } },
          containerBatchesRecord: [{ timestamp: aHourAgo, containers: ['c1'] }],
          nextContainerImages: { c2: 'c2-img2' },
        }),
      },
    },
    spec: {
      containers: [
        { name: 'c1', image: 'c1-img2' },
        { name: 'c2', image: 'c2-img1' },
      ],
      ...gate,
    },
    status: {
      containerStatuses: [
        { name: 'c1', imageID: c1ImageID },
        { name: 'c2', imageID: 'c2-img1-ID' },
      ],
      conditions: [cond('ContainersReady', 'True'), cond(INPLACE_UPDATE_READY, 'False', aHourAgo)],
    },
  });

  it('does not start the next batch while the first is not consistent', () => {
    expect(refreshInPlaceUpdate(batchPod('c1-img1-ID'), { now })).toEqual({
      action: 'none',
      reason: 'container c1 imageID not changed',
    });
  });

  it('starts the next batch once the first is consistent', () => {
    const r = refreshInPlaceUpdate(batchPod('c1-img2-ID'), { now });
    expect(r.action === 'update' && r.reason).toBe('nextBatch');
    if (r.action !== 'update') return;
    expect(r.pod.spec?.containers).toEqual([
      { name: 'c1', image: 'c1-img2' },
      { name: 'c2', image: 'c2-img2' },
    ]);
    expect(readInPlaceUpdateState(r.pod)).toEqual({
      revision: 'new-revision',
      updateTimestamp: aHourAgo,
      lastContainerStatuses: { c1: { imageID: 'c1-img1-ID' }, c2: { imageID: 'c2-img1-ID' } },
      containerBatchesRecord: [
        { timestamp: aHourAgo, containers: ['c1'] },
        { timestamp: '2024-05-01T12:00:00Z', containers: ['c2'] },
      ],
    });
    expect(r.pod.status).toEqual(batchPod('c1-img2-ID').status);
  });
});

describe('refreshInPlaceUpdate edge cases', () => {
  it('waits for the containers the next batch requires to be ready', () => {
    const pod: Pod = {
      metadata: {
        annotations: {
          [INPLACE_UPDATE_STATE_KEY]: state({
            nextContainerImages: { c2: 'x' },
            preCheckBeforeNext: { containersRequiredReady: ['c1'] },
          }),
        },
      },
      spec: { containers: [{ name: 'c1' }, { name: 'c2' }] },
      status: { containerStatuses: [{ name: 'c1', ready: false }] },
    };
    expect(refreshInPlaceUpdate(pod, { now })).toEqual({
      action: 'none',
      reason: 'waiting container c1 to be ready',
    });
    expect(refreshInPlaceUpdate({ ...pod, status: {} }, { now })).toEqual({
      action: 'none',
      reason: 'not found container c1 in pod status',
    });
  });

  it('drops the parked spec when the pod moved to another revision', () => {
    const pod: Pod = {
      metadata: {
        labels: { 'controller-revision-hash': 'web-other' },
        annotations: {
          [INPLACE_UPDATE_STATE_KEY]: state({}),
          [INPLACE_UPDATE_GRACE_KEY]: '{"revision":"web-new","graceSeconds":30}',
        },
      },
    };
    const r = refreshInPlaceUpdate(pod, { now });
    expect(r).toMatchObject({ action: 'update', reason: 'graceDropped' });
    expect(r.action === 'update' && r.pod.metadata?.annotations).toEqual({
      [INPLACE_UPDATE_STATE_KEY]: state({}),
    });
  });

  it('refuses a grace annotation without a state', () => {
    const pod: Pod = { metadata: { annotations: { [INPLACE_UPDATE_GRACE_KEY]: '{"revision":"r"}' } } };
    expect(() => refreshInPlaceUpdate(pod, { now })).toThrow(InPlaceUpdateStateError);
  });
});
