import { describe, expect, it } from 'vitest';
import type { Pod } from '@regatta/api';
import { podRow, podStatus, podUpdateKind, rolloutWindow, type RolloutWindow } from './pod-rows.js';

const NOW = new Date('2026-12-04T10:10:00Z');
const WINDOW: RolloutWindow = { to: 'web-new', start: Date.parse('2026-12-04T10:00:00Z'), end: Number.POSITIVE_INFINITY };

function pod(o: {
  revision?: string;
  created?: string;
  state?: { revision: string; updateTimestamp: string };
  deleting?: boolean;
  waiting?: string;
  phase?: string;
  sidecarState?: string;
}): Pod {
  return {
    metadata: {
      name: 'web-a',
      namespace: 'ns',
      creationTimestamp: o.created ?? '2026-12-04T09:00:00Z',
      ...(o.deleting ? { deletionTimestamp: '2026-12-04T10:05:00Z' } : {}),
      labels: { ...(o.revision ? { 'controller-revision-hash': o.revision } : {}), 'lifecycle.apps.kruise.io/state': 'Normal' },
      annotations: {
        ...(o.state ? { 'apps.kruise.io/inplace-update-state': JSON.stringify(o.state) } : {}),
        ...(o.sidecarState ? { 'kruise.io/sidecarset-inplace-update-state': o.sidecarState } : {}),
      },
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] },
    status: {
      phase: (o.phase ?? 'Running') as 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        { name: 'a', ready: true, restartCount: 2, image: 'x', imageID: '', ...(o.waiting ? { state: { waiting: { reason: o.waiting } } } : {}) },
        { name: 'b', ready: false, restartCount: 1, image: 'y', imageID: '' },
      ],
    },
  } as Pod;
}

describe('podUpdateKind', () => {
  it.each([
    ['in place during the rollout', pod({ revision: 'web-new', state: { revision: 'web-new', updateTimestamp: '2026-12-04T10:01:00Z' } }), WINDOW, 'in place'],
    ['in place in an earlier rollout', pod({ revision: 'web-new', state: { revision: 'web-new', updateTimestamp: '2026-12-04T08:00:00Z' } }), WINDOW, ''],
    ['in place, no rollout record', pod({ revision: 'web-new', state: { revision: 'web-new', updateTimestamp: '2026-12-04T08:00:00Z' } }), undefined, 'in place'],
    ['state of another revision (later recreated)', pod({ revision: 'web-new', created: '2026-12-04T10:02:00Z', state: { revision: 'web-old', updateTimestamp: '2026-12-04T10:01:00Z' } }), WINDOW, 'recreated'],
    ['short-hash label matches the state', pod({ revision: 'new', state: { revision: 'web-new', updateTimestamp: '2026-12-04T10:01:00Z' } }), WINDOW, 'in place'],
    ['created during the rollout at the update revision', pod({ revision: 'web-new', created: '2026-12-04T10:00:00Z' }), WINDOW, 'recreated'],
    ['created during the rollout at the old revision', pod({ revision: 'web-old', created: '2026-12-04T10:02:00Z' }), WINDOW, ''],
    ['created before the rollout', pod({ revision: 'web-new' }), WINDOW, ''],
    ['no label, no record', pod({}), undefined, ''],
  ] as const)('%s', (_name, p, w, expected) => {
    expect(podUpdateKind(p, w)).toBe(expected);
  });

  it.each([
    ['sidecar upgraded during the rollout', '{"logging":{"revision":"r2","updateTimestamp":"2026-12-04T10:03:00Z"}}', 'in place'],
    ['another SidecarSet upgraded it', '{"other":{"revision":"r2","updateTimestamp":"2026-12-04T10:03:00Z"}}', ''],
    ['not JSON', 'nope', ''],
  ] as const)('SidecarSet: %s', (_name, state, expected) => {
    expect(podUpdateKind(pod({ sidecarState: state }), WINDOW, 'logging')).toBe(expected);
  });
});

describe('podStatus', () => {
  it.each([
    ['running', pod({}), 'Running'],
    ['terminating wins', pod({ deleting: true, waiting: 'CrashLoopBackOff' }), 'Terminating'],
    ['a waiting reason', pod({ waiting: 'ContainerCreating', phase: 'Pending' }), 'ContainerCreating'],
    ['pending', pod({ phase: 'Pending' }), 'Pending'],
  ] as const)('%s', (_name, p, expected) => {
    expect(podStatus(p)).toBe(expected);
  });
});

describe('podRow', () => {
  it('counts ready containers and restarts, reads lifecycle, node and age', () => {
    expect(podRow(pod({ revision: 'web-new' }), NOW, WINDOW)).toEqual({
      name: 'web-a',
      namespace: 'ns',
      status: 'Running',
      ready: '1/2',
      podReady: true,
      restarts: 3,
      update: '',
      lifecycle: 'Normal',
      node: 'node-1',
      ageSeconds: 4200,
      terminating: false,
    });
  });
});

describe('rolloutWindow', () => {
  it.each([
    ['no record', undefined, undefined],
    ['running', { traceparent: 't', from: 'a', to: 'b', start: '2026-12-04T10:00:00Z' }, { to: 'b', start: WINDOW.start, end: Number.POSITIVE_INFINITY }],
    [
      'done',
      { traceparent: 't', from: 'a', to: 'b', start: '2026-12-04T10:00:00Z', done: true, end: '2026-12-04T10:01:00Z' },
      { to: 'b', start: WINDOW.start, end: Date.parse('2026-12-04T10:01:00Z') },
    ],
    ['bad start', { traceparent: 't', from: 'a', to: 'b', start: 'soon' }, undefined],
  ] as const)('%s', (_name, record, expected) => {
    expect(rolloutWindow(record)).toEqual(expected);
  });
});
