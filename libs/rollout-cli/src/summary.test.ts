import { describe, expect, it } from 'vitest';
import { ROLLOUT_KINDS, parseTarget } from './kinds.js';
import { rolloutProgress, type Workload } from './progress.js';
import { formatSummary, rolloutTraceOf } from './summary.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const record = (done: boolean) =>
  JSON.stringify({ traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`, from: 'web-1', to: 'web-2', start: '2026-12-03T10:00:00Z', done });

const cloneset = (annotations: Record<string, string>): Workload => ({
  metadata: { name: 'web', generation: 2, annotations },
  spec: { replicas: 3, updateStrategy: { partition: 1, paused: true } },
  status: {
    observedGeneration: 2,
    replicas: 3,
    updatedReplicas: 1,
    readyReplicas: 3,
    availableReplicas: 3,
    updateRevision: 'web-2',
    currentRevision: 'web-1',
  },
});

describe('rolloutTraceOf', () => {
  it.each([
    ['no annotation', {}, undefined, undefined],
    ['not JSON', { 'regatta.dev/rollout-trace': 'nope' }, undefined, undefined],
    ['a rollout, no Jaeger', { 'regatta.dev/rollout-trace': record(false) }, undefined, { traceId: TRACE_ID, done: false }],
    [
      'a finished rollout with Jaeger',
      { 'regatta.dev/rollout-trace': record(true) },
      'http://127.0.0.1:16686/',
      { traceId: TRACE_ID, done: true, link: `http://127.0.0.1:16686/trace/${TRACE_ID}` },
    ],
  ])('%s', (_name, annotations, jaeger, expected) => {
    expect(rolloutTraceOf(cloneset(annotations), jaeger)).toEqual(expected);
  });
});

describe('formatSummary', () => {
  it('prints the counts, partition, pause, revisions and trace of a waiting rollout', () => {
    const t = parseTarget('clone/web');
    const w = cloneset({ 'regatta.dev/rollout-trace': record(false) });
    expect(formatSummary(t.info, 'web', rolloutProgress('CloneSet', w), rolloutTraceOf(w, 'http://jaeger:16686'))).toBe(
      [
        'Waiting for CloneSet "web" rollout to finish: 1 of 2 pods to be updated (paused)',
        '  replicas:          3 desired, 1 updated (2 expected), 3 ready, 3 available',
        '  partition:         1',
        '  paused:            true',
        '  updateRevision:    web-2',
        '  currentRevision:   web-1',
        '  generation:        2 (observed 2)',
        `  rollout trace:     ${TRACE_ID}`,
        `  jaeger:            http://jaeger:16686/trace/${TRACE_ID}`,
      ].join('\n'),
    );
  });

  it('says a complete rollout succeeded, daemon counts in nodes, without a trace line when there is none', () => {
    const t = parseTarget('ads/agent');
    const w: Workload = {
      metadata: { name: 'agent', generation: 1 },
      status: { observedGeneration: 1, desiredNumberScheduled: 2, updatedNumberScheduled: 2, numberReady: 2, numberAvailable: 2 },
    };
    expect(formatSummary(t.info, 'agent', rolloutProgress('DaemonSet', w)).split('\n').slice(0, 2)).toEqual([
      'Advanced DaemonSet "agent" successfully rolled out',
      '  nodes:             2 desired, 2 updated (2 expected), 2 ready, 2 available',
    ]);
  });
});

describe('formatSummary of a SidecarSet', () => {
  it('counts matched pods and updated-and-ready ones', () => {
    const info = ROLLOUT_KINDS.find((k) => k.kind === 'SidecarSet')!;
    const p = rolloutProgress('SidecarSet', {
      metadata: { name: 'logging', generation: 1 },
      spec: {},
      status: { observedGeneration: 1, matchedPods: 2, updatedPods: 2, readyPods: 2, updatedReadyPods: 2, latestRevision: 'logging-7c' },
    });
    expect(formatSummary(info, 'logging', p).split('\n').slice(0, 2)).toEqual([
      'SidecarSet "logging" successfully rolled out',
      '  pods:              2 matched, 2 updated (2 expected), 2 ready, 2 updated and ready',
    ]);
  });
});
