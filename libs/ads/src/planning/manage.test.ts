// The manage plan per node (docs/ads.md "What it does"; OpenKruise `podsShouldBeOnNode`) and the status counts.
import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { planManage } from './manage.js';
import { computeCounts } from './status.js';
import { nodesToDaemonPods } from './node-pods.js';

const NOW = new Date('2026-12-02T12:00:00Z');
const pod = (
  name: string,
  node: string,
  hash: string,
  o: {
    ready?: boolean;
    readySince?: string;
    created?: string;
    phase?: string;
    state?: string;
    terminating?: boolean;
    bound?: boolean;
  } = {},
): Pod => ({
  metadata: {
    name,
    creationTimestamp: o.created ?? '2026-12-02T10:00:00Z',
    labels: {
      'controller-revision-hash': hash,
      ...(o.state ? { 'lifecycle.apps.kruise.io/state': o.state } : {}),
    },
    ...(o.terminating ? { deletionTimestamp: '2026-12-02T11:59:00Z' } : {}),
  },
  spec:
    o.bound === false
      ? {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] },
                ],
              },
            },
          },
        }
      : { nodeName: node },
  status: {
    phase: o.phase ?? 'Running',
    conditions: [
      {
        type: 'Ready',
        status: o.ready === false ? 'False' : 'True',
        lastTransitionTime: o.readySince ?? '2026-12-02T11:00:00Z',
      },
    ],
  },
});
const run = { shouldRun: true, shouldContinueRunning: true };
const keep = { shouldRun: false, shouldContinueRunning: true };
const none = { shouldRun: false, shouldContinueRunning: false };
const names = (ps: Pod[]) => ps.map((p) => p.metadata?.name).sort();
const plan = (nodes: [string, typeof run][], pods: Pod[], surge = false, minReadySeconds = 0) =>
  planManage({
    nodes: nodes.map(([name, eligibility]) => ({ name, eligibility })),
    pods,
    hash: 'v2',
    surge,
    minReadySeconds,
    now: NOW,
  });

describe('planManage', () => {
  it('creates on eligible nodes without a pod (sorted), not on nodes with only a terminating pod', () => {
    const p = plan(
      [
        ['b', run],
        ['a', run],
        ['c', run],
        ['d', keep],
      ],
      [pod('c1', 'c', 'v2', { terminating: true })],
    );
    expect(p.nodesNeedingPods).toEqual(['a', 'b']);
    expect(p.podsToDelete).toEqual([]);
  });
  it('deletes every pod on a node that should not keep running it; keeps pods on NoSchedule-tainted nodes', () => {
    const p = plan(
      [
        ['a', none],
        ['b', keep],
      ],
      [pod('a1', 'a', 'v1'), pod('b1', 'b', 'v1')],
    );
    expect(names(p.podsToDelete)).toEqual(['a1']);
  });
  it('without surge keeps the oldest of duplicates', () => {
    const p = plan(
      [['a', run]],
      [pod('new', 'a', 'v2', { created: '2026-12-02T11:00:00Z' }), pod('old', 'a', 'v1')],
    );
    expect(names(p.podsToDelete)).toEqual(['new']);
  });
  it('failed pods are deleted and reported; PreparingDelete pods go to the delete list (syncNodes holds hooked ones)', () => {
    const p = plan(
      [
        ['a', run],
        ['b', run],
      ],
      [pod('f', 'a', 'v2', { phase: 'Failed' }), pod('pd', 'b', 'v1', { state: 'PreparingDelete' })],
    );
    expect(names(p.podsToDelete)).toEqual(['f', 'pd']);
    expect(p.failedPods.map((f) => f.node)).toEqual(['a']);
    expect(p.nodesNeedingPods).toEqual([]);
  });
  it('surge: old deleted when the new is available, or when the old is not ready; requeue until available', () => {
    const avail = plan(
      [['a', run]],
      [pod('old', 'a', 'v1'), pod('new', 'a', 'v2', { created: '2026-12-02T11:00:00Z' })],
      true,
    );
    expect(names(avail.podsToDelete)).toEqual(['old']);
    const oldNotReady = plan(
      [['a', run]],
      [pod('old', 'a', 'v1', { ready: false }), pod('new', 'a', 'v2', { ready: false })],
      true,
    );
    expect(names(oldNotReady.podsToDelete)).toEqual(['old']);
    const waiting = plan(
      [['a', run]],
      [pod('old', 'a', 'v1'), pod('new', 'a', 'v2', { readySince: '2026-12-02T11:59:55Z' })],
      true,
      10,
    );
    expect(waiting.podsToDelete).toEqual([]);
    expect(waiting.requeueAfterMs).toBe(6_000);
    const extra = plan(
      [['a', run]],
      [pod('o1', 'a', 'v1'), pod('o2', 'a', 'v1', { created: '2026-12-02T11:00:00Z' })],
      true,
    );
    expect(names(extra.podsToDelete)).toEqual(['o2']);
  });
  it.each<[string, Pod[], boolean, string[]]>([
    // [the node's pods, them, surge, nodes that get a pod]
    ['none', [], false, ['a']],
    ['a terminating one', [pod('t', 'a', 'v1', { terminating: true })], false, []],
    ['a failed one', [pod('f', 'a', 'v1', { phase: 'Failed' })], false, []],
    ['a PreparingDelete one', [pod('pd', 'a', 'v1', { state: 'PreparingDelete' })], false, []],
    ['none, surging', [], true, ['a']],
    ['a terminating one, surging', [pod('t', 'a', 'v1', { terminating: true })], true, ['a']],
    ['a failed one, surging', [pod('f', 'a', 'v1', { phase: 'Failed' })], true, ['a']],
    ['a PreparingDelete one, surging', [pod('pd', 'a', 'v1', { state: 'PreparingDelete' })], true, ['a']],
    [
      'a terminating and a running one, surging',
      [pod('t', 'a', 'v1', { terminating: true }), pod('r', 'a', 'v1')],
      true,
      [],
    ],
  ])('pods on the node: %s', (_case, pods, surge, needing) => {
    expect(plan([['a', run]], pods, surge).nodesNeedingPods).toEqual(needing);
    // a node that should not get new pods gets none, whatever it holds
    expect(plan([['a', keep]], pods, surge).nodesNeedingPods).toEqual([]);
  });
  it('an unbound pod meant for a node that is gone is deleted', () => {
    const p = plan([['a', run]], [pod('a1', 'a', 'v2'), pod('ghost', 'gone', 'v2', { bound: false })]);
    expect(names(p.podsToDelete)).toEqual(['ghost']);
  });
});

describe('computeCounts', () => {
  it('judges each node by its oldest pod; misscheduled, ready, available, updated', () => {
    const pods = [
      pod('a-old', 'a', 'v1'),
      pod('a-new', 'a', 'v2', { created: '2026-12-02T11:00:00Z' }),
      pod('b', 'b', 'v2', { readySince: '2026-12-02T11:59:59Z' }),
      pod('c', 'c', 'v2', { ready: false }),
      pod('d', 'd', 'v2'),
    ];
    const c = computeCounts({
      nodes: [
        { name: 'a', eligibility: run },
        { name: 'b', eligibility: run },
        { name: 'c', eligibility: run },
        { name: 'd', eligibility: keep },
        { name: 'e', eligibility: run },
      ],
      nodeToPods: nodesToDaemonPods(pods),
      hash: 'v2',
      minReadySeconds: 5,
      now: NOW,
    });
    expect(c).toEqual({
      desiredNumberScheduled: 4,
      currentNumberScheduled: 3,
      numberMisscheduled: 1,
      numberReady: 2,
      updatedNumberScheduled: 2,
      numberAvailable: 1,
      numberUnavailable: 3,
    });
  });
  it('a pod whose InPlaceUpdateReady condition is False is not available', () => {
    const p = pod('a', 'a', 'v2');
    p.status!.conditions!.push({ type: 'InPlaceUpdateReady', status: 'False' });
    const c = computeCounts({
      nodes: [{ name: 'a', eligibility: run }],
      nodeToPods: nodesToDaemonPods([p]),
      hash: 'v2',
      minReadySeconds: 0,
      now: NOW,
    });
    expect(c).toMatchObject({ numberReady: 1, numberAvailable: 0 });
  });
});
