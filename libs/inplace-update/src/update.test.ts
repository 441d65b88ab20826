import { type Pod, LifecycleState, setPodLifecycle } from '@regatta/lifecycle';
import type { ControllerRevision } from '@regatta/revision';
import { describe, expect, it } from 'vitest';
import { INPLACE_UPDATE_GRACE_KEY, INPLACE_UPDATE_READY, INPLACE_UPDATE_STATE_KEY } from './keys.js';
import { refreshInPlaceUpdate } from './refresh.js';
import { readInPlaceUpdateState } from './state.js';
import { planInPlaceUpdate } from './update.js';

const now = new Date('2024-05-01T12:00:00Z');
const T = '2024-05-01T12:00:00Z';
const template = (image: string, env?: unknown) => ({
  spec: {
    template: {
      $patch: 'replace',
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c1', image, ...(env ? { env } : {}) }] },
    },
  },
});
const oldRev: ControllerRevision = { metadata: { name: 'rev_old' }, data: template('foo1'), revision: 1 };
const newRev: ControllerRevision = { metadata: { name: 'rev_new' }, data: template('foo2'), revision: 2 };
const pod: Pod = {
  metadata: {
    name: 'pod-0',
    labels: { app: 'web', 'controller-revision-hash': 'rev_old', 'lifecycle.apps.kruise.io/state': 'Normal' },
  },
  spec: {
    containers: [{ name: 'c1', image: 'foo1' }],
    readinessGates: [{ conditionType: INPLACE_UPDATE_READY }],
  },
  status: {
    phase: 'Running',
    conditions: [
      { type: 'ContainersReady', status: 'True' },
      { type: 'Ready', status: 'True' },
      { type: INPLACE_UPDATE_READY, status: 'True' },
    ],
    containerStatuses: [{ name: 'c1', image: 'foo1', imageID: 'image-id-xyz', ready: true }],
  },
};
const updating = (p: Pod) => setPodLifecycle(p, LifecycleState.Updating, now);

// CloneSet TestUpdate in-place rows (`pkg/controller/cloneset/sync/cloneset_update_test.go`)
describe('planInPlaceUpdate', () => {
  it('inplace update: image, labels, state, one batch, InPlaceUpdateReady False', () => {
    const plan = planInPlaceUpdate(pod, oldRev, newRev, { now, additional: [updating] });
    expect(plan.inPlace).toBe(true);
    if (!plan.inPlace) return;
    expect(plan.conditions).toEqual([
      { type: 'ContainersReady', status: 'True' },
      {
        type: 'Ready',
        status: 'False',
        reason: 'ReadinessGatesNotReady',
        message: 'the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False',
      },
      { type: INPLACE_UPDATE_READY, status: 'False', reason: 'StartInPlaceUpdate', lastTransitionTime: T },
    ]);
    expect(plan.pod.spec?.containers).toEqual([{ name: 'c1', image: 'foo2' }]);
    expect(plan.pod.metadata?.labels).toEqual({
      app: 'web',
      'controller-revision-hash': 'rev_new',
      'pod-template-hash': 'rev_new',
      'lifecycle.apps.kruise.io/state': 'Updating',
    });
    expect(readInPlaceUpdateState(plan.pod)).toEqual({
      revision: 'rev_new',
      updateTimestamp: T,
      updateImages: true,
      lastContainerStatuses: { c1: { imageID: 'image-id-xyz' } },
      containerBatchesRecord: [{ timestamp: T, containers: ['c1'] }],
    });
    expect(plan.delaySeconds).toBe(0);
    expect(pod.spec?.containers?.[0]?.image).toBe('foo1');
  });

  it('inplace update with grace period 3630 s: grace annotation, image unchanged', () => {
    const plan = planInPlaceUpdate(pod, oldRev, newRev, {
      now,
      gracePeriodSeconds: 3630,
      additional: [updating],
    });
    if (!plan.inPlace) throw new Error('expected in place');
    expect(plan.pod.spec?.containers).toEqual([{ name: 'c1', image: 'foo1' }]);
    expect(plan.pod.metadata?.annotations?.[INPLACE_UPDATE_GRACE_KEY]).toBe(
      '{"revision":"rev_new","containerImages":{"c1":"foo2"},"graceSeconds":3630}',
    );
    expect(plan.pod.metadata?.annotations?.[INPLACE_UPDATE_STATE_KEY]).toBe(
      `{"revision":"rev_new","updateTimestamp":"${T}","lastContainerStatuses":null,"updateImages":true}`,
    );
    expect(plan.pod.metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe('Updating');
    expect(plan.conditions?.find((c) => c.type === INPLACE_UPDATE_READY)).toMatchObject({
      status: 'False',
      reason: 'StartInPlaceUpdate',
    });
    expect(plan.delaySeconds).toBe(3630);

    // during the grace period: unchanged
    const during = refreshInPlaceUpdate(plan.pod, { now: new Date(now.getTime() + 3610_000) });
    expect(during).toEqual({ action: 'wait', delaySeconds: 20 });
    // after it: image applied, grace removed, state gains lastContainerStatuses and one batch; labels unchanged
    const after = refreshInPlaceUpdate(plan.pod, { now: new Date(now.getTime() + 3660_000) });
    if (after.action !== 'update') throw new Error('expected an update');
    expect(after.pod.spec?.containers).toEqual([{ name: 'c1', image: 'foo2' }]);
    expect(after.pod.metadata?.annotations?.[INPLACE_UPDATE_GRACE_KEY]).toBeUndefined();
    expect(after.pod.metadata?.labels).toEqual(plan.pod.metadata?.labels);
    expect(readInPlaceUpdateState(after.pod)).toEqual({
      revision: 'rev_new',
      updateTimestamp: T,
      updateImages: true,
      lastContainerStatuses: { c1: { imageID: 'image-id-xyz' } },
      containerBatchesRecord: [{ timestamp: '2024-05-01T13:01:00Z', containers: ['c1'] }],
    });
  });

  it('recreate update (env added): not in place', () => {
    const withEnv: ControllerRevision = {
      metadata: { name: 'rev_new' },
      data: template('foo2', [{ name: 'e', value: 'v' }]),
      revision: 2,
    };
    expect(planInPlaceUpdate(pod, oldRev, withEnv, { now })).toMatchObject({
      inPlace: false,
      reason: 'SpecFieldAddedOrRemoved',
    });
  });

  it('skips the status write for pods without the readiness gate and removes the old state key', () => {
    const plain: Pod = {
      ...pod,
      metadata: { ...pod.metadata, annotations: { 'inplace-update-state': '{}' } },
      spec: { containers: [{ name: 'c1', image: 'foo1' }] },
    };
    const plan = planInPlaceUpdate(plain, oldRev, newRev, { now });
    if (!plan.inPlace) throw new Error('expected in place');
    expect(plan.conditions).toBeUndefined();
    expect(plan.pod.metadata?.annotations?.['inplace-update-state']).toBeUndefined();
    expect(plan.pod.status).toEqual(pod.status);
  });

  it('uses the given revision writer (short hash gate, ASTS)', () => {
    const plan = planInPlaceUpdate(pod, oldRev, newRev, {
      now,
      writeRevision: (p, r) => ({
        ...p,
        metadata: { ...p.metadata, labels: { ...p.metadata?.labels, 'controller-revision-hash': r } },
      }),
    });
    expect(plan.inPlace && plan.pod.metadata?.labels?.['pod-template-hash']).toBeUndefined();
  });
});
