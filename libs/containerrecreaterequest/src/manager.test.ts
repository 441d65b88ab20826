import { describe, expect, it } from 'vitest';
import { CrrKeys, type ContainerRecreateRequest, type Pod } from '@regatta/api';
import { CrrMessages, decideManager, formatSyncContainerStatuses, syncContainerStatuses } from './manager.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();

const crr = (o: {
  phase?: string;
  completedAt?: number;
  deleting?: boolean;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  spec?: Record<string, unknown>;
}): ContainerRecreateRequest =>
  ({
    metadata: {
      name: 'c',
      namespace: 'ns',
      creationTimestamp: iso(0),
      labels: { [CrrKeys.PodUID]: 'uid-1', [CrrKeys.Active]: 'true', ...o.labels },
      annotations: o.annotations ?? {},
      finalizers: o.finalizers ?? [],
      ...(o.deleting ? { deletionTimestamp: iso(1) } : {}),
    },
    spec: { podName: 'p', containers: [{ name: 'app' }], strategy: { failurePolicy: 'Fail' }, ...o.spec },
    status: {
      ...(o.phase ? { phase: o.phase } : {}),
      ...(o.completedAt !== undefined ? { completionTime: iso(o.completedAt) } : {}),
    },
  }) as never;

const pod = (o: { uid?: string; deleting?: boolean; startedAt?: number; ready?: boolean } = {}): Pod =>
  ({
    metadata: {
      name: 'p',
      namespace: 'ns',
      uid: o.uid ?? 'uid-1',
      ...(o.deleting ? { deletionTimestamp: iso(1) } : {}),
    },
    spec: { containers: [{ name: 'app', image: 'x' }] },
    status: {
      containerStatuses: [
        {
          name: 'app',
          containerID: 'containerd://new',
          restartCount: 1,
          ready: o.ready ?? true,
          state: { running: { startedAt: iso(o.startedAt ?? 5000) } },
        },
      ],
    },
  }) as never;

const synced = formatSyncContainerStatuses([
  { name: 'app', ready: true, restartCount: 1, containerID: 'containerd://new' },
]);

describe('decideManager', () => {
  it.each([
    [
      'finished, finalizer held → release the pod first',
      crr({ phase: 'Completed', completedAt: 0, finalizers: [CrrKeys.UnreadyAcquired] }),
      pod(),
      10,
      { kind: 'releaseNotReady' },
      undefined,
    ],
    [
      'deleting, finalizer held → release',
      crr({ deleting: true, finalizers: [CrrKeys.UnreadyAcquired] }),
      pod(),
      10,
      { kind: 'releaseNotReady' },
      undefined,
    ],
    ['deleting → nothing', crr({ deleting: true }), pod(), 10, { kind: 'none' }, undefined],
    [
      'finished with the active label → drop it',
      crr({ phase: 'Completed', completedAt: 0 }),
      pod(),
      10,
      { kind: 'removeActiveLabel' },
      undefined,
    ],
    [
      'finished, no TTL, label still there → drop it first',
      crr({ phase: 'Completed', completedAt: 0, labels: {}, spec: {} }),
      pod(),
      10,
      { kind: 'removeActiveLabel' },
      undefined,
    ],
    [
      'finished, TTL not passed, label still there → drop it first',
      crr({ phase: 'Completed', completedAt: 0, spec: { ttlSecondsAfterFinished: 10 }, labels: {} }),
      pod(),
      4000,
      { kind: 'removeActiveLabel' },
      undefined,
    ],
    [
      'pod gone → complete',
      crr({ phase: 'Recreating' }),
      undefined,
      10,
      { kind: 'complete', message: CrrMessages.PodGone },
      undefined,
    ],
    [
      'pod deleting → complete',
      crr({ phase: 'Recreating' }),
      pod({ deleting: true }),
      10,
      { kind: 'complete', message: CrrMessages.PodGone },
      undefined,
    ],
    [
      'pod replaced (other uid) → complete',
      crr({ phase: 'Recreating' }),
      pod({ uid: 'uid-2' }),
      10,
      { kind: 'complete', message: CrrMessages.PodGone },
      undefined,
    ],
    [
      'no answer for a minute → complete',
      crr({}),
      pod(),
      60_000,
      { kind: 'complete', message: CrrMessages.NoResponse },
      undefined,
    ],
    ['no answer yet → wait the rest of the minute', crr({}), pod(), 10_000, { kind: 'none' }, 50_000],
    [
      'deadline passed → complete',
      crr({ phase: 'Recreating', spec: { activeDeadlineSeconds: 5 } }),
      pod(),
      5000,
      { kind: 'complete', message: CrrMessages.Deadline },
      undefined,
    ],
    [
      'Pending with a deadline → wait for it',
      crr({ phase: 'Pending', spec: { activeDeadlineSeconds: 5 } }),
      pod(),
      1000,
      { kind: 'none' },
      4000,
    ],
    [
      'Recreating → write the statuses the agent needs',
      crr({ phase: 'Recreating' }),
      pod(),
      6000,
      { kind: 'syncContainerStatuses', value: synced },
      undefined,
    ],
    [
      'statuses written, unready grace → acquire',
      crr({
        phase: 'Recreating',
        annotations: { [CrrKeys.SyncContainerStatuses]: synced },
        spec: { strategy: { unreadyGracePeriodSeconds: 3 } },
      }),
      pod(),
      6000,
      { kind: 'acquireNotReady' },
      undefined,
    ],
    [
      'acquired already → nothing',
      crr({
        phase: 'Recreating',
        annotations: { [CrrKeys.SyncContainerStatuses]: synced, [CrrKeys.UnreadyAcquired]: iso(0) },
        spec: { strategy: { unreadyGracePeriodSeconds: 3 } },
      }),
      pod(),
      6000,
      { kind: 'none' },
      undefined,
    ],
  ])('%s', (_n, c, p, at, step, requeue) => {
    const d = decideManager(c, p, T0 + at);
    expect(d.step).toEqual(step);
    expect(d.requeueAfterMs).toBe(requeue);
  });

  it('TTL: waits for the rest, then deletes', () => {
    const c = crr({ phase: 'Completed', completedAt: 0, spec: { ttlSecondsAfterFinished: 10 } });
    delete c.metadata!.labels![CrrKeys.Active];
    expect(decideManager(c, pod(), T0 + 4000)).toEqual({ step: { kind: 'none' }, requeueAfterMs: 6000 });
    expect(decideManager(c, pod(), T0 + 10_000).step).toEqual({ kind: 'delete' });
    delete c.spec!.ttlSecondsAfterFinished;
    expect(decideManager(c, pod(), T0 + 99_000)).toEqual({ step: { kind: 'none' } });
  });
});

describe('syncContainerStatuses', () => {
  it('keeps only instances started after the request', () => {
    expect(syncContainerStatuses(crr({}), pod({ startedAt: -1000 }))).toEqual([]);
    expect(syncContainerStatuses(crr({}), pod({ startedAt: 1000, ready: false }))).toEqual([
      { name: 'app', ready: false, restartCount: 1, containerID: 'containerd://new' },
    ]);
  });
});
