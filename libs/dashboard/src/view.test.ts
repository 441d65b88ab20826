import { describe, expect, it } from 'vitest';
import type { ListRow, Waterfall } from '@regatta/rollout-cli';
import { APP_JS, pageHtml } from './page.js';
import { waterfallView, workloadItem, workloadRef, workloadsView } from './view.js';

const row = (over: Partial<ListRow>): ListRow => ({
  kind: 'cloneset',
  apiVersion: 'apps.kruise.io/v1alpha1',
  namespace: 'shop',
  name: 'web',
  phase: 'Completed',
  desired: 3,
  updated: 3,
  ready: 3,
  available: 3,
  ageSeconds: 300,
  ...over,
});

describe('workload items', () => {
  it.each([
    [row({ phase: 'Progressing' }), 'pause'],
    [row({ phase: 'Paused' }), 'resume'],
    [row({ phase: 'Completed' }), undefined],
    [row({ phase: 'Degraded' }), undefined],
    [row({ kind: 'ud', phase: 'Progressing' }), undefined],
  ])('%o offers %s', (r, action) => {
    expect(workloadItem(r).action).toBe(action);
  });

  it('adds the id, title and age; counts phases; names the scope', () => {
    const v = workloadsView(
      [row({}), row({ name: 'api', phase: 'Paused' }), row({ kind: 'sidecarset', namespace: undefined, name: 'log' })],
      { allNamespaces: false, namespace: 'shop' },
    );
    expect(v.scope).toBe('namespace "shop"');
    expect(v.phases).toEqual({ Completed: 2, Paused: 1 });
    expect(v.items.map((i) => [i.id, i.title, i.age, i.pausable])).toEqual([
      ['shop/cloneset/web', 'CloneSet', '5m', true],
      ['shop/cloneset/api', 'CloneSet', '5m', true],
      ['-/sidecarset/log', 'SidecarSet', '5m', true],
    ]);
    expect(workloadsView([], { allNamespaces: true, namespace: 'x' }).scope).toBe('all namespaces');
  });
});

describe('workloadRef', () => {
  it('reads kind, namespace and name; the default namespace; none for a SidecarSet', () => {
    const r = workloadRef({ kind: 'cloneset', namespace: 'shop', name: 'web' }, 'default');
    expect([r.target.info.kind, r.target.name, r.namespace]).toEqual(['CloneSet', 'web', 'shop']);
    expect(workloadRef({ kind: 'clone', name: 'web' }, 'default').namespace).toBe('default');
    expect(workloadRef({ kind: 'sidecarset', namespace: 'x', name: 'log' }, 'default').namespace).toBeUndefined();
  });

  it.each([
    [{ kind: 'cloneset' }, 'kind and name are required'],
    [{ kind: 'cloneset', name: 'a/b' }, 'is not a Kubernetes object name'],
    [{ kind: 'cloneset', name: 'web', namespace: '../x' }, 'is not a namespace name'],
    [{ kind: 'pod', name: 'web' }, 'unknown kind "pod"'],
    [{ kind: 'cloneset', name: 5 }, 'name must be a string'],
  ])('%o: %s', (input, message) => {
    expect(() => workloadRef(input, 'default')).toThrow(message);
  });
});

describe('waterfallView', () => {
  const totals = { inPlace: 2, recreated: 0, otherUpdates: 0, holdMs: 3000, holds: 1, hookWaitMs: 0, hookWaits: 0, subsetWrites: 0 };
  const w: Waterfall = {
    prefix: 'cloneset',
    startMs: 1000,
    totalMs: 10_000,
    rootFrom: 'root',
    barEndMs: 11_000,
    rows: [
      { kind: 'rollout', name: 'rollout', offsetMs: 0, durationMs: 10_000, target: '', detail: 'a → b' },
      { kind: 'pod-update', name: 'pod-update', offsetMs: 1000, durationMs: 2000, target: 'web-1', detail: 'in place' },
      { kind: 'hold', name: 'pause', offsetMs: 3000, durationMs: 3000, target: '', detail: 'hold: pause' },
      { kind: 'pod-update', name: 'pod-update', offsetMs: 9990, durationMs: 1, target: 'web-2', detail: 'in place' },
    ],
    totals,
  };

  it('places bars in percent of the rollout, with the start, duration and totals as the terminal prints them', () => {
    const v = waterfallView(w, { done: true });
    expect(v.bars.map((b) => [b.name, b.start, b.duration, b.leftPct, b.widthPct])).toEqual([
      ['rollout', '+0ms', '10.0s', 0, 100],
      ['pod-update', '+1.0s', '2.0s', 10, 20],
      ['pause', '+3.0s', '3.0s', 30, 30],
      // too short to see: a sliver
      ['pod-update', '+10.0s', '1ms', 99.5, 0.5],
    ]);
    expect(v.ticks).toEqual(['0ms', '2.5s', '5.0s', '7.5s', '10.0s']);
    expect(v.totals).toBe('2 pods updated: 2 in place, 0 recreated; holds: 1 (3.0s); total: 10.0s');
  });

  it('an open rollout line reaches the right edge: running, or open once done', () => {
    const open: Waterfall = { ...w, totalMs: undefined, rows: [{ ...w.rows[0]!, durationMs: undefined }] };
    expect(waterfallView(open).bars[0]).toMatchObject({ duration: 'running', open: true, leftPct: 0, widthPct: 100 });
    expect(waterfallView(open, { done: true }).bars[0]!.duration).toBe('open');
  });
});

describe('the page', () => {
  it('keeps the config in a data block no value can close, and its script parses', () => {
    const html = pageHtml({ token: 't', context: '<ctx>', scope: 'namespace "a"', jaeger: null, refreshMs: 2000 });
    expect(html).toContain('<title>Regatta dashboard · &lt;ctx&gt;</title>');
    expect(html).toContain('"context":"\\u003cctx>"');
    expect(html).not.toContain('<ctx>');
    expect(() => new Function(APP_JS)).not.toThrow();
  });
});
