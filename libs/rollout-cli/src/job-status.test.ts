import { describe, expect, it } from 'vitest';
import type { AdvancedCronJob, BroadcastJob, ContainerRecreateRequest } from '@regatta/api';
import { jobState } from './job-status.js';
import { parseJobTarget } from './job-status-command.js';
import { RolloutUsageError, UnknownKindError } from './errors.js';

const NOW = Date.parse('2026-12-07T12:00:00Z');

const bcj = (status: BroadcastJob['status'], completionPolicy?: 'Always' | 'Never'): BroadcastJob =>
  ({
    metadata: { name: 'security-patch' },
    spec: { template: {}, ...(completionPolicy ? { completionPolicy: { type: completionPolicy } } : {}) },
    status,
  }) as BroadcastJob;

const counts = { active: 0, succeeded: 0, failed: 0, desired: 10 };

describe('jobState of a BroadcastJob', () => {
  it.each([
    ['no status yet', undefined, { phase: 'waiting', done: false, failed: false }],
    [
      'running',
      { ...counts, active: 2, succeeded: 3, phase: 'running' },
      { phase: 'running', done: false, failed: false },
    ],
    ['paused', { ...counts, phase: 'paused' }, { phase: 'paused', done: false, failed: false }],
    [
      'completed',
      { ...counts, succeeded: 10, phase: 'completed' },
      { phase: 'completed', done: true, failed: false },
    ],
    ['failed', { ...counts, failed: 1, phase: 'failed' }, { phase: 'failed', done: true, failed: true }],
  ] as const)('%s', (_, status, want) => {
    expect(jobState('BroadcastJob', bcj(status as BroadcastJob['status']), NOW)).toMatchObject(want);
  });

  it('reads as counts, duration and the failure reason', () => {
    const s = jobState(
      'BroadcastJob',
      bcj({
        ...counts,
        succeeded: 9,
        failed: 1,
        phase: 'failed',
        startTime: '2026-12-07T11:58:00Z',
        completionTime: '2026-12-07T11:59:30Z',
        conditions: [
          { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'a pod failed' },
        ],
      }),
      NOW,
    );
    expect(s.lines).toEqual([
      'failed: 9 of 10 pods succeeded, 0 active, 1 failed',
      'took 90s',
      'BackoffLimitExceeded: a pod failed',
    ]);
  });

  it('says a Never job keeps running', () => {
    const s = jobState(
      'BroadcastJob',
      bcj({ ...counts, phase: 'running', startTime: '2026-12-07T11:00:00Z' }, 'Never'),
      NOW,
    );
    expect(s.lines).toEqual([
      'running: 0 of 10 pods succeeded, 0 active, 0 failed',
      'running for 60m',
      'completionPolicy Never: it keeps running (new nodes get pods) and never completes',
    ]);
  });
});

const crr = (status: ContainerRecreateRequest['status']): ContainerRecreateRequest =>
  ({
    metadata: { name: 'crr-demo' },
    spec: { podName: 'web-0', containers: [{ name: 'app' }] },
    status,
  }) as ContainerRecreateRequest;

describe('jobState of a ContainerRecreateRequest', () => {
  it.each([
    ['no status yet', undefined, { done: false, failed: false, phase: 'waiting' }],
    [
      'recreating',
      { phase: 'Recreating', containerRecreateStates: [{ name: 'app', phase: 'Recreating' }] },
      { done: false, failed: false },
    ],
    [
      'completed',
      { phase: 'Completed', containerRecreateStates: [{ name: 'app', phase: 'Succeeded' }] },
      { done: true, failed: false },
    ],
    [
      'a container failed',
      {
        phase: 'Completed',
        containerRecreateStates: [{ name: 'app', phase: 'Failed', message: 'stop failed' }],
      },
      { done: true, failed: true },
    ],
    [
      'past its deadline',
      { phase: 'Completed', message: 'recreating has exceeded the activeDeadlineSeconds' },
      { done: true, failed: true },
    ],
  ] as const)('%s', (_, status, want) => {
    expect(
      jobState('ContainerRecreateRequest', crr(status as ContainerRecreateRequest['status']), NOW),
    ).toMatchObject(want);
  });

  it('lists each container', () => {
    const s = jobState(
      'ContainerRecreateRequest',
      crr({
        phase: 'Recreating',
        containerRecreateStates: [
          { name: 'app', phase: 'Succeeded' },
          { name: 'side', phase: 'Recreating' },
        ],
      }),
      NOW,
    );
    expect(s.lines).toEqual(['Recreating: pod "web-0"', '  app: Succeeded', '  side: Recreating']);
  });
});

describe('jobState of an AdvancedCronJob', () => {
  const acj = (spec: Partial<AdvancedCronJob['spec']>, status?: AdvancedCronJob['status']): AdvancedCronJob =>
    ({
      metadata: { name: 'nightly' },
      spec: { schedule: '*/5 * * * *', template: {}, ...spec },
      status,
    }) as AdvancedCronJob;

  it('never ends; shows its schedule, last run and active jobs', () => {
    const s = jobState(
      'AdvancedCronJob',
      acj(
        { timeZone: 'Europe/Paris', template: { broadcastJobTemplate: { spec: {} } } } as Partial<
          AdvancedCronJob['spec']
        >,
        { lastScheduleTime: '2026-12-07T11:55:00Z', active: [{ kind: 'BroadcastJob', name: 'nightly-1' }] },
      ),
      NOW,
    );
    expect(s).toEqual({
      phase: 'scheduled',
      done: false,
      failed: false,
      lines: [
        'schedule "*/5 * * * *" (Europe/Paris)',
        'last scheduled 5m ago (2026-12-07T11:55:00Z)',
        'active: BroadcastJob/nightly-1',
      ],
    });
  });

  it('paused, never scheduled', () => {
    expect(jobState('AdvancedCronJob', acj({ paused: true }), NOW)).toMatchObject({
      phase: 'paused',
      lines: ['schedule "*/5 * * * *", paused', 'not scheduled yet', 'no active Job'],
    });
  });
});

describe('parseJobTarget', () => {
  it.each([
    ['bcj/security-patch', 'BroadcastJob', 'security-patch'],
    ['broadcastjob.apps.kruise.io/x', 'BroadcastJob', 'x'],
    ['CRR/crr-demo', 'ContainerRecreateRequest', 'crr-demo'],
    ['advancedcronjobs/nightly', 'AdvancedCronJob', 'nightly'],
  ])('%s', (arg, kind, name) => {
    const t = parseJobTarget(arg);
    expect([t.info.kind, t.name]).toEqual([kind, name]);
  });

  it('sends a rollout kind to `rollout status`; names the valid kinds for an unknown one', () => {
    expect(() => parseJobTarget('clone/web')).toThrow(RolloutUsageError);
    expect(() => parseJobTarget('clone/web')).toThrow('follow it with `regatta rollout status clone/web`');
    expect(() => parseJobTarget('job/x')).toThrow(UnknownKindError);
    expect(() => parseJobTarget('job/x')).toThrow(/bcj, broadcastjob/);
  });
});
