// planRollingUpdate with in-place updates under way (docs/ads.md "Rolling update"): a pod this controller began
// updating in place (InPlaceUpdateReady False) holds one of maxUnavailable's slots whatever its Ready condition says,
// so a round after a refused or lost pod write never takes one node more. Found by the reliability suite
// (docs/reliability-runs-r1-ao-bq.md run AQ: 8 of 10 pods available with maxUnavailable 1).
import { CONTROLLER_REVISION_HASH_LABEL } from '@regatta/revision';
import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { planRollingUpdate } from './rolling-update.js';

const NEW = 'v2';
const OLD = 'v1';
const NOW = new Date('2026-12-05T08:00:00Z');

interface Shape {
  hash: string;
  ready: boolean;
  /** The InPlaceUpdateReady condition; absent when undefined. */
  gate?: boolean;
  /** The Ready condition's reason. */
  reason?: string;
}

const pod = (node: string, s: Shape): Pod => ({
  metadata: { name: `ds-${node}`, labels: { [CONTROLLER_REVISION_HASH_LABEL]: s.hash } },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'x' }] },
  status: {
    phase: 'Running',
    conditions: [
      {
        type: 'Ready',
        status: s.ready ? 'True' : 'False',
        lastTransitionTime: '2026-12-05T07:00:00Z',
        ...(s.reason ? { reason: s.reason } : {}),
      },
      ...(s.gate === undefined ? [] : [{ type: 'InPlaceUpdateReady', status: s.gate ? 'True' : 'False' }]),
    ],
  },
});

const ready: Shape = { hash: OLD, ready: true, gate: true };

/** Five nodes, node-4 first in the rollout's order; `first` is node-4's pod, the others old and ready. */
function plan(first: Shape, maxUnavailable: number): string[] {
  const nodes = ['node-4', 'node-3', 'node-2', 'node-1', 'node-0'];
  const nodeToPods = new Map(nodes.map((n, i) => [n, [pod(n, i === 0 ? first : ready)]]));
  const p = planRollingUpdate({
    candidates: nodes,
    nodeToPods,
    hash: NEW,
    maxSurge: 0,
    maxUnavailable,
    minReadySeconds: 0,
    now: NOW,
  });
  return p.oldPodsToUpdate.map((x) => x.spec?.nodeName ?? '');
}

describe('planRollingUpdate: an in-place update under way holds a slot', () => {
  it.each<[string, Shape, number, string[]]>([
    // [node-4's pod, maxUnavailable, nodes whose old pod goes this round]
    ['old, ready, nothing under way: the first maxUnavailable nodes', ready, 1, ['node-4']],
    [
      'old, status written (InPlaceUpdateReady False), pod write refused, Ready still True',
      { hash: OLD, ready: true, gate: false },
      1,
      ['node-4'],
    ],
    [
      'old, status written, pod write refused, Ready turned False',
      { hash: OLD, ready: false, gate: false },
      1,
      ['node-4'],
    ],
    [
      'the same with maxUnavailable 2: one slot left',
      { hash: OLD, ready: false, gate: false },
      2,
      ['node-4', 'node-3'],
    ],
    [
      'old, the gate put back True (the update never went out), Ready False for the gate until the kubelet looks',
      { hash: OLD, ready: false, gate: true, reason: 'ReadinessGatesNotReady' },
      1,
      ['node-4'],
    ],
    [
      'new, InPlaceUpdateReady False, Ready not yet turned False: no slot left',
      { hash: NEW, ready: true, gate: false },
      1,
      [],
    ],
    ['new and ready, update complete: the next node', { hash: NEW, ready: true, gate: true }, 1, ['node-3']],
    // upstream's rule kept: an old pod unavailable for its own reasons is replaced without taking a slot
    [
      'old, containers not ready, no update under way: replaced beside the next node',
      { hash: OLD, ready: false, gate: true, reason: 'ContainersNotReady' },
      1,
      ['node-4', 'node-3'],
    ],
    ['old, not ready, no readiness gate: the same', { hash: OLD, ready: false }, 1, ['node-4', 'node-3']],
  ])('%s', (_, first, maxUnavailable, want) => {
    expect(plan(first, maxUnavailable)).toEqual(want);
  });
});
