import { describe, expect, it } from 'vitest';
import { CrrKeys, type ContainerRecreateRequest } from '@regatta/api';
import {
  currentRecreateStates,
  manageRecreate,
  pickRequest,
  sameStates,
  unreadyWaitMs,
  type RuntimeContainer,
} from './daemon.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();

const crr = (o: {
  strategy?: Record<string, unknown>;
  states?: { name: string; phase: string; isKilled?: boolean; message?: string }[];
  synced?: { name: string; ready: boolean; restartCount: number; containerID?: string }[];
  names?: string[];
}): ContainerRecreateRequest =>
  ({
    metadata: {
      name: 'c',
      namespace: 'ns',
      creationTimestamp: iso(0),
      annotations: o.synced ? { [CrrKeys.SyncContainerStatuses]: JSON.stringify(o.synced) } : {},
    },
    spec: {
      podName: 'p',
      containers: (o.names ?? ['app', 'side']).map((name) => ({
        name,
        statusContext: { containerID: `containerd://${name}-0`, restartCount: 0 },
      })),
      strategy: { failurePolicy: 'Fail', ...o.strategy },
    },
    status: { phase: 'Recreating', ...(o.states ? { containerRecreateStates: o.states } : {}) },
  }) as never;

const running = (name: string, attempt = 0, startedAt = 100): RuntimeContainer => ({
  name,
  id: `${name}-${attempt}`,
  state: 'running',
  restartCount: attempt,
  startedAt: T0 + startedAt,
});

describe('currentRecreateStates', () => {
  it.each([
    ['not recreated yet → Pending', crr({}), [running('app'), running('side')], ['Pending', 'Pending']],
    ['container not on the node → Pending with a message', crr({ names: ['app'] }), [], ['Pending']],
    [
      'exited → Recreating',
      crr({ names: ['app'] }),
      [{ ...running('app'), state: 'exited' as const }],
      ['Recreating'],
    ],
    [
      'new instance, not seen ready by the manager → Recreating',
      crr({ names: ['app'] }),
      [running('app', 1)],
      ['Recreating'],
    ],
    [
      'new instance seen ready → Succeeded',
      crr({
        names: ['app'],
        synced: [{ name: 'app', ready: true, restartCount: 1, containerID: 'containerd://app-1' }],
      }),
      [running('app', 1)],
      ['Succeeded'],
    ],
    [
      'seen ready but minStartedSeconds not passed → Recreating',
      crr({
        names: ['app'],
        strategy: { minStartedSeconds: 10 },
        synced: [{ name: 'app', ready: true, restartCount: 1, containerID: 'containerd://app-1' }],
      }),
      [running('app', 1, 5000)],
      ['Recreating'],
    ],
    [
      'a final state stays',
      crr({ names: ['app'], states: [{ name: 'app', phase: 'Failed', message: 'x' }] }),
      [running('app', 1)],
      ['Failed'],
    ],
    [
      'forceRecreate and not killed yet → Pending even if recreated',
      crr({ names: ['app'], strategy: { forceRecreate: true } }),
      [running('app', 1)],
      ['Pending'],
    ],
  ])('%s', (_n, c, rcs, phases) => {
    expect(currentRecreateStates(c, rcs, T0 + 10_000).map((s) => s.phase)).toEqual(phases);
  });
});

describe('manageRecreate', () => {
  const killer = (fail: string[] = []) => {
    const killed: string[] = [];
    return {
      killed,
      kill: async (c: RuntimeContainer) => {
        if (fail.includes(c.name)) throw new Error('rpc error: boom');
        killed.push(c.name);
      },
    };
  };

  it('first writes the states it sees', async () => {
    const k = killer();
    expect(await manageRecreate(crr({}), [running('app'), running('side')], T0, k.kill)).toEqual({
      kind: 'patchStates',
      states: [
        { name: 'app', phase: 'Pending' },
        { name: 'side', phase: 'Pending' },
      ],
    });
    expect(k.killed).toEqual([]);
  });

  it('stops one container per pass, the next one in the next pass (unordered)', async () => {
    const k = killer();
    const c = crr({
      states: [
        { name: 'app', phase: 'Pending' },
        { name: 'side', phase: 'Pending' },
      ],
    });
    expect(await manageRecreate(c, [running('app'), running('side')], T0, k.kill)).toEqual({
      kind: 'patchStates',
      states: [
        { name: 'app', phase: 'Recreating', isKilled: true },
        { name: 'side', phase: 'Pending' },
      ],
    });
    const c2 = crr({
      states: [
        { name: 'app', phase: 'Recreating', isKilled: true },
        { name: 'side', phase: 'Pending' },
      ],
    });
    expect(
      await manageRecreate(c2, [{ ...running('app'), state: 'exited' }, running('side')], T0, k.kill),
    ).toMatchObject({
      kind: 'patchStates',
      states: [
        { name: 'app', phase: 'Recreating' },
        { name: 'side', phase: 'Recreating', isKilled: true },
      ],
    });
    expect(k.killed).toEqual(['app', 'side']);
  });

  it('orderedRecreate: waits while the previous one is Recreating', async () => {
    const k = killer();
    const c = crr({
      strategy: { orderedRecreate: true },
      states: [
        { name: 'app', phase: 'Recreating', isKilled: true },
        { name: 'side', phase: 'Pending' },
      ],
    });
    expect(await manageRecreate(c, [running('app', 1), running('side')], T0, k.kill)).toEqual({
      kind: 'wait',
    });
    expect(k.killed).toEqual([]);
  });

  it('failurePolicy Fail: a failed stop is Failed, then the request completes', async () => {
    const k = killer(['app']);
    const c = crr({
      states: [
        { name: 'app', phase: 'Pending' },
        { name: 'side', phase: 'Pending' },
      ],
    });
    const out = await manageRecreate(c, [running('app'), running('side')], T0, k.kill);
    expect(out).toEqual({
      kind: 'patchStates',
      states: [
        { name: 'app', phase: 'Failed', message: 'kill container error: rpc error: boom' },
        { name: 'side', phase: 'Pending' },
      ],
    });
    const next = crr({ states: (out as unknown as { states: never[] }).states });
    expect(await manageRecreate(next, [running('app'), running('side')], T0, k.kill)).toEqual({
      kind: 'complete',
    });
    expect(k.killed).toEqual([]);
  });

  it('failurePolicy Ignore: a failed stop is Failed and the next container is stopped in the same pass', async () => {
    const k = killer(['app']);
    const c = crr({
      strategy: { failurePolicy: 'Ignore' },
      states: [
        { name: 'app', phase: 'Pending' },
        { name: 'side', phase: 'Pending' },
      ],
    });
    expect(await manageRecreate(c, [running('app'), running('side')], T0, k.kill)).toEqual({
      kind: 'patchStates',
      states: [
        { name: 'app', phase: 'Failed', message: 'kill container error: rpc error: boom' },
        { name: 'side', phase: 'Recreating', isKilled: true },
      ],
    });
  });

  it('all Succeeded (or Failed under Ignore) → complete; minStartedSeconds → look again after it', async () => {
    const k = killer();
    const done = crr({ names: ['app'], states: [{ name: 'app', phase: 'Succeeded', isKilled: true }] });
    expect(await manageRecreate(done, [running('app', 1)], T0, k.kill)).toEqual({ kind: 'complete' });
    const waiting = crr({
      names: ['app'],
      strategy: { minStartedSeconds: 10 },
      states: [{ name: 'app', phase: 'Recreating', isKilled: true }],
    });
    expect(await manageRecreate(waiting, [running('app', 1)], T0, k.kill)).toEqual({
      kind: 'wait',
      requeueAfterMs: 10_000,
    });
  });
});

describe('sameStates', () => {
  it('compares field by field, whatever order the API server wrote them in', () => {
    const stored = JSON.parse('[{"isKilled":true,"name":"app","phase":"Recreating"}]') as never[];
    expect(sameStates(stored, [{ name: 'app', phase: 'Recreating', isKilled: true }])).toBe(true);
    expect(sameStates(stored, [{ name: 'app', phase: 'Recreating' }])).toBe(false);
    expect(sameStates(undefined, [])).toBe(true);
  });
});

describe('pickRequest and unreadyWaitMs', () => {
  it('Recreating before Pending before new, older first; new ones behind become Pending', () => {
    const mk = (name: string, phase: string | undefined, at: number, done = false) =>
      ({
        metadata: { name, creationTimestamp: iso(at) },
        status: { ...(phase ? { phase } : {}), ...(done ? { completionTime: iso(at) } : {}) },
      }) as ContainerRecreateRequest;
    const { picked, toPending } = pickRequest([
      mk('new1', undefined, 1),
      mk('done', 'Completed', 0, true),
      mk('pend', 'Pending', 3),
      mk('new2', undefined, 2),
    ]);
    expect(picked?.metadata?.name).toBe('pend');
    expect(toPending.map((c) => c.metadata?.name)).toEqual(['new1', 'new2']);
  });

  it('waits for the unready annotation, then for the grace period', () => {
    const c = crr({ strategy: { unreadyGracePeriodSeconds: 3 } });
    expect(unreadyWaitMs(c, T0)).toBeUndefined();
    c.metadata!.annotations = { [CrrKeys.UnreadyAcquired]: iso(0) };
    expect(unreadyWaitMs(c, T0 + 1000)).toBe(2000);
    expect(unreadyWaitMs(c, T0 + 4000)).toBe(0);
    expect(unreadyWaitMs(crr({}), T0)).toBe(0);
  });
});
