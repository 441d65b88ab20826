import { describe, expect, it } from 'vitest';
import {
  formatRecentPodUpdates,
  formatSpanTime,
  formatWaterfall,
  traceWaterfall,
  type JaegerJsonSpan,
  type JaegerJsonTrace,
} from './waterfall.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const T0 = Date.parse('2026-12-03T10:00:00Z');
let next = 0;

/** A span as Jaeger's query API returns it: `at` and `dur` in seconds from T0, tags as a map. */
function span(
  name: string,
  at: number,
  dur: number,
  tags: Record<string, string | number> = {},
  parent?: string,
): JaegerJsonSpan {
  return {
    traceID: TRACE,
    spanID: (++next).toString(16).padStart(16, '0'),
    operationName: name,
    references: parent ? [{ refType: 'CHILD_OF', traceID: TRACE, spanID: parent }] : [],
    startTime: (T0 + at * 1000) * 1000,
    duration: dur * 1_000_000,
    tags: Object.entries(tags).map(([key, value]) => ({
      key,
      type: typeof value === 'number' ? 'int64' : 'string',
      value,
    })),
    processID: 'p1',
  };
}

const ROOT_ID = '00000000000000ff';
const root = (prefix: string, dur: number, tags: Record<string, string | number> = {}): JaegerJsonSpan => ({
  ...span(`${prefix}.rollout`, 0, dur, {
    [`${prefix}.revision.from`]: 'web-1',
    [`${prefix}.revision.to`]: 'web-2',
    ...tags,
  }),
  spanID: ROOT_ID,
});
const pod = (at: number, dur: number, name: string, how: string) =>
  span(
    'cloneset.pod-update',
    at,
    dur,
    { 'k8s.pod.name': name, 'cloneset.update.type': how, 'cloneset.revision.to': 'web-2' },
    ROOT_ID,
  );

/** The lines without the bars' padding differences: each row as its cells (bar included). */
const cells = (lines: string[]) =>
  lines.slice(1, -1).map((l) => {
    const at = l.indexOf('|');
    return [...l.slice(0, at).trim().split(/ {2,}/), l.slice(at)];
  });

describe('traceWaterfall of a CloneSet rollout', () => {
  // listed out of order: the waterfall sorts by start, the root first
  const trace: JaegerJsonTrace = {
    traceID: TRACE,
    spans: [
      pod(12, 8, 'web-b', 'recreate'),
      span('cloneset.partition-hold', 2, 10, { 'cloneset.hold': 'partition' }, ROOT_ID),
      pod(1, 4, 'web-a', 'in-place'),
      span(
        'cloneset.hook-wait',
        12,
        3,
        { 'k8s.pod.name': 'web-b', 'cloneset.lifecycle.hook': 'preDelete' },
        ROOT_ID,
      ),
      root('cloneset', 20),
    ],
  };

  it('orders rows by start, root first, with pod, update type, hold and hook', () => {
    const w = traceWaterfall(trace);
    expect(w.prefix).toBe('cloneset');
    expect(w.rootFrom).toBe('root');
    expect(w.rows.map((r) => [r.name, r.offsetMs, r.durationMs, r.target, r.detail])).toEqual([
      ['rollout', 0, 20_000, '', 'web-1 → web-2'],
      ['pod-update', 1000, 4000, 'web-a', 'in place'],
      ['partition-hold', 2000, 10_000, '', 'hold: partition'],
      ['hook-wait', 12_000, 3000, 'web-b', 'hook: preDelete'],
      ['pod-update', 12_000, 8000, 'web-b', 'recreate'],
    ]);
    expect(w.totals).toMatchObject({
      inPlace: 1,
      recreated: 1,
      holds: 1,
      holdMs: 10_000,
      hookWaits: 1,
      hookWaitMs: 3000,
    });
  });

  it('prints bars scaled to the width and a footer with the totals', () => {
    const lines = formatWaterfall(traceWaterfall(trace), 20);
    expect(lines[0]).toMatch(/^START +DURATION +SPAN +POD\/SUBSET +DETAIL +WATERFALL$/);
    expect(cells(lines)).toEqual([
      ['+0ms', '20.0s', 'rollout', '-', 'web-1 → web-2', `|${'━'.repeat(20)}|`],
      ['+1.0s', '4.0s', 'pod-update', 'web-a', 'in place', `| ${'█'.repeat(4)}${' '.repeat(15)}|`],
      ['+2.0s', '10.0s', 'partition-hold', '-', 'hold: partition', `|  ${'░'.repeat(10)}${' '.repeat(8)}|`],
      [
        '+12.0s',
        '3.0s',
        'hook-wait',
        'web-b',
        'hook: preDelete',
        `|${' '.repeat(12)}${'▒'.repeat(3)}${' '.repeat(5)}|`,
      ],
      ['+12.0s', '8.0s', 'pod-update', 'web-b', 'recreate', `|${' '.repeat(12)}${'█'.repeat(8)}|`],
    ]);
    expect(lines.at(-1)).toBe(
      '2 pods updated: 1 in place, 1 recreated; holds: 1 (10.0s); hook waits: 1 (3.0s); total: 20.0s',
    );
  });

  it('gives a span shorter than a column one column', () => {
    const w = traceWaterfall({
      traceID: TRACE,
      spans: [root('cloneset', 100), pod(50, 0.01, 'web-a', 'in-place')],
    });
    expect(cells(formatWaterfall(w, 10))[1]).toEqual([
      '+50.0s',
      '10ms',
      'pod-update',
      'web-a',
      'in place',
      '|     █    |',
    ]);
  });
});

describe('formatRecentPodUpdates (status --watch)', () => {
  it('shows the rollout line and the last n pod updates by end, in start order, without the footer', () => {
    const w = traceWaterfall({
      traceID: TRACE,
      spans: [
        root('cloneset', 20),
        pod(0, 19, 'web-a', 'in-place'),
        pod(2, 2, 'web-b', 'recreate'),
        pod(5, 3, 'web-c', 'in-place'),
      ],
    });
    expect(cells([...formatRecentPodUpdates(w, 2, 10), '']).map((c) => [c[2], c[3]])).toEqual([
      ['rollout', '-'],
      ['pod-update', 'web-a'],
      ['pod-update', 'web-c'],
    ]);
    expect(formatRecentPodUpdates(w, 2, 10)[0]).toMatch(/^START +DURATION/);
    expect(formatRecentPodUpdates(w, 2, 10)[1]).toMatch(/^\+0ms +20\.0s +rollout /);
    expect(
      formatRecentPodUpdates(traceWaterfall({ traceID: TRACE, spans: [root('cloneset', 20)] }), 2, 10),
    ).toEqual([]);
  });
});

describe('traceWaterfall without the root span', () => {
  it('a resumed rollout: the rollout line is the resumed span, noted', () => {
    const w = traceWaterfall({
      traceID: TRACE,
      spans: [
        pod(3, 2, 'web-a', 'in-place'),
        span('cloneset.rollout.resumed', 0, 10, { 'cloneset.revision.to': 'web-2' }, ROOT_ID),
        span('cloneset.pause', 5, 4, { 'cloneset.hold': 'paused' }, ROOT_ID),
      ],
    });
    expect(w.rootFrom).toBe('resumed');
    expect(w.totalMs).toBe(10_000);
    expect(w.rows.map((r) => [r.name, r.offsetMs, r.durationMs, r.detail])).toEqual([
      ['rollout', 0, 10_000, 'to web-2; resumed: root span not in Jaeger'],
      ['pod-update', 3000, 2000, 'in place'],
      ['pause', 5000, 4000, 'hold: paused'],
    ]);
    expect(formatWaterfall(w, 10).at(-1)).toBe(
      '1 pod updated: 1 in place, 0 recreated; holds: 1 (4.0s); total: 10.0s',
    );
  });

  it('a running rollout: start from the record, no duration, the bar open up to now', () => {
    const w = traceWaterfall(
      { traceID: TRACE, spans: [pod(2, 2, 'web-a', 'in-place')] },
      { from: 'web-1', to: 'web-2', start: new Date(T0).toISOString() },
      T0 + 8000,
    );
    expect(w.rootFrom).toBe('record');
    expect(w.rows[0]).toMatchObject({
      name: 'rollout',
      durationMs: undefined,
      detail: 'web-1 → web-2; root span not in Jaeger yet',
    });
    const lines = formatWaterfall(w, 8);
    expect(cells(lines).map((c) => [c[1], c.at(-1)])).toEqual([
      ['running', `|${'━'.repeat(7)}>|`],
      ['2.0s', '|  ██    |'],
    ]);
    expect(lines.at(-1)).toBe('1 pod updated: 1 in place, 0 recreated; holds: 0; total: not ended');
  });
});

describe('traceWaterfall of a UnitedDeployment change', () => {
  it('shows subset writes and subset rollouts by subset/workload', () => {
    const sub = (name: string, at: number, dur: number, subset: string, reason?: string) =>
      span(
        `uniteddeployment.${name}`,
        at,
        dur,
        {
          'uniteddeployment.subset': subset,
          'uniteddeployment.workload': `ud-${subset}-x7`,
          'uniteddeployment.workload.kind': 'CloneSet',
          ...(reason ? { 'uniteddeployment.reason': reason } : {}),
        },
        ROOT_ID,
      );
    const w = traceWaterfall({
      traceID: TRACE,
      spans: [
        sub('subset-rollout', 1, 30, 'zone-a'),
        sub('subset-update', 0.5, 0.1, 'zone-a', 'replicas 2 → 3'),
        sub('subset-create', 0.5, 0.2, 'zone-b'),
        root('uniteddeployment', 40, { 'uniteddeployment.generation': 4 }),
      ],
    });
    expect(w.prefix).toBe('uniteddeployment');
    expect(w.rows.map((r) => [r.name, r.target, r.detail])).toEqual([
      ['rollout', '', 'web-1 → web-2'],
      ['subset-update', 'zone-a/ud-zone-a-x7', 'CloneSet: replicas 2 → 3'],
      ['subset-create', 'zone-b/ud-zone-b-x7', 'CloneSet'],
      ['subset-rollout', 'zone-a/ud-zone-a-x7', 'CloneSet'],
    ]);
    expect(formatWaterfall(w, 10).at(-1)).toBe(
      '0 pods updated: 0 in place, 0 recreated; holds: 0; subset writes: 3; total: 40.0s',
    );
  });
});

describe('formatSpanTime', () => {
  it.each([
    [0, '0ms'],
    [850, '850ms'],
    [12_340, '12.3s'],
    [125_000, '2m05s'],
    [3_720_000, '1h02m'],
    [-1500, '-1.5s'],
  ])('%i ms → %s', (v, text) => {
    expect(formatSpanTime(v)).toBe(text);
  });
});
