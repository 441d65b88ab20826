import { describe, expect, it } from 'vitest';
import { mergeConditions, podPhase, readyCondition, rfc3339, statusFingerprint } from './pod-status.js';
import { cond, pod, PodSim, T0 } from './test-support.js';
import type { Pod, PodStatus } from './types.js';

const gated = (gates: string[]) =>
  pod({
    containers: [{ name: 'app', image: 'nginx' }],
    readinessGates: gates.map((conditionType) => ({ conditionType })),
  });

const withConditions = (p: Pod, conditions: PodStatus['conditions']): Pod => ({
  ...p,
  status: { ...p.status, conditions },
});

describe('Ready and readiness gates (kubelet GeneratePodReadyCondition)', () => {
  it('a missing gate condition keeps the pod not Ready, with kubelet reason and message', () => {
    const s = new PodSim(gated(['InPlaceUpdateReady']));
    s.at(0);
    const st = s.at(1000);
    expect(cond(st, 'ContainersReady')?.status).toBe('True');
    expect(cond(st, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message: 'corresponding condition of pod readiness gate "InPlaceUpdateReady" does not exist.',
    });
  });

  it('Ready follows the gate conditions other writers set, every gate joined in the message', () => {
    const s = new PodSim(gated(['InPlaceUpdateReady', 'KruisePodReady']));
    s.at(0);
    s.at(1000);
    const existing = s.pod.status?.conditions ?? [];
    s.pod = withConditions(s.pod, [
      ...existing,
      { type: 'InPlaceUpdateReady', status: 'False', reason: 'StartInPlaceUpdate' },
    ]);
    expect(cond(s.at(1100), 'Ready')?.message).toBe(
      'the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False, corresponding condition of pod readiness gate "KruisePodReady" does not exist.',
    );
    const conds = (s.pod.status?.conditions ?? []).map((c) =>
      c.type === 'InPlaceUpdateReady' ? { ...c, status: 'True' } : c,
    );
    s.pod = withConditions(s.pod, [...conds, { type: 'KruisePodReady', status: 'True' }]);
    const st = s.at(1200);
    expect(cond(st, 'Ready')).toMatchObject({ status: 'True' });
    expect(cond(st, 'Ready')?.reason).toBeUndefined();
    // conditions the kubelet does not own are kept as they were
    expect(cond(st, 'InPlaceUpdateReady')).toMatchObject({ status: 'True', reason: 'StartInPlaceUpdate' });
    expect(cond(st, 'KruisePodReady')?.status).toBe('True');
  });

  it('containers not ready win over gates', () => {
    const p = gated(['G']);
    expect(
      readyCondition(
        p,
        {
          type: 'ContainersReady',
          status: 'False',
          reason: 'ContainersNotReady',
          message: 'containers with unready status: [app]',
        },
        [],
      ),
    ).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [app]',
    });
  });
});

describe('conditions', () => {
  it('kubelet-owned conditions come first with lastProbeTime null; transition time kept while status is unchanged', () => {
    const existing = [
      { type: 'Ready', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' },
      { type: 'apps.kruise.io/x', status: 'True' },
    ];
    const out = mergeConditions(
      existing,
      [
        { type: 'Ready', status: 'True' },
        { type: 'Initialized', status: 'False' },
      ],
      T0,
      3,
    );
    expect(out).toEqual([
      {
        type: 'Ready',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: '2020-01-01T00:00:00Z',
        observedGeneration: 3,
      },
      {
        type: 'Initialized',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: rfc3339(T0),
        observedGeneration: 3,
      },
      { type: 'apps.kruise.io/x', status: 'True' },
    ]);
  });

  it('reports every kubelet condition and PodScheduled True', () => {
    const s = new PodSim(gated([]));
    const st = s.at(0);
    expect(st.conditions?.map((c) => c.type)).toEqual([
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ]);
    expect(cond(st, 'PodScheduled')?.status).toBe('True');
    expect(st.observedGeneration).toBe(1);
  });
});

describe('podPhase (kubelet getPhase)', () => {
  const p = (restartPolicy: string) => pod({ restartPolicy, containers: [{ name: 'a' }, { name: 'b' }] });
  const running = { name: 'a', ready: true, restartCount: 0, image: '', imageID: '', state: { running: {} } };
  const done = (name: string, exitCode: number) => ({
    name,
    ready: false,
    restartCount: 0,
    image: '',
    imageID: '',
    state: { terminated: { exitCode } },
  });
  const waiting = (name: string, restarted: boolean) => ({
    name,
    ready: false,
    restartCount: 0,
    image: '',
    imageID: '',
    state: { waiting: { reason: 'X' } },
    lastState: restarted ? { terminated: { exitCode: 1 } } : {},
  });

  it.each([
    ['Always', [running, waiting('b', false)], false, 'Pending'],
    ['Always', [running, waiting('b', true)], false, 'Running'],
    ['Always', [running], false, 'Pending'],
    ['Always', [done('a', 0), done('b', 1)], false, 'Running'],
    ['Always', [done('a', 0), done('b', 0)], true, 'Succeeded'],
    ['Always', [done('a', 0), done('b', 137)], true, 'Failed'],
    ['Never', [done('a', 0), done('b', 0)], false, 'Succeeded'],
    ['Never', [done('a', 0), done('b', 2)], false, 'Failed'],
    ['OnFailure', [done('a', 0), done('b', 2)], false, 'Running'],
    ['OnFailure', [done('a', 0), done('b', 0)], false, 'Succeeded'],
  ] as const)('%s %j terminal=%s → %s', (policy, statuses, terminal, want) => {
    expect(podPhase(p(policy), [], statuses as never, terminal)).toBe(want);
  });
});

describe('statusFingerprint', () => {
  it('ignores timestamps of conditions and non-kubelet conditions, sees everything the kubelet writes', () => {
    const a: PodStatus = {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 'x' }],
    };
    const b: PodStatus = {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: 'y' },
        { type: 'G', status: 'False' },
      ],
    };
    expect(statusFingerprint(a)).toBe(statusFingerprint(b));
    expect(statusFingerprint(a)).not.toBe(statusFingerprint({ ...a, podIP: '1.2.3.4' }));
    expect(statusFingerprint(a)).not.toBe(
      statusFingerprint({ ...a, conditions: [{ type: 'Ready', status: 'False' }] }),
    );
  });
});
