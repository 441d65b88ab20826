import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { isCurrentRevisionNeeded } from './revision-choice.js';
import { sortPodsToUpdate } from './update-order.js';

const pod = (rev: string, extra: Record<string, string> = {}, name?: string): Pod => ({
  metadata: { ...(name ? { name } : {}), labels: { 'controller-revision-hash': rev, ...extra } },
});
const PU = { 'lifecycle.apps.kruise.io/state': 'PreparingUpdate' };
const weights = {
  weightPriority: [
    { weight: 20, matchSelector: { matchLabels: { k: 'v1' } } },
    { weight: 10, matchSelector: { matchLabels: { k: 'v2' } } },
  ],
};
const slots = (s: string) =>
  s.split(' ').map((x) => (x === '-' ? undefined : x === 'PU' ? pod('r0', PU) : pod(x)));

describe('sortPodsToUpdate (TestSortPodsToUpdate; gate PreparingUpdateAsUpdate on)', () => {
  it.each([
    {
      name: 'nil strategy',
      partition: 0,
      replicas: 3,
      unordered: false,
      slots: 'r0 r0 r0',
      expected: [2, 1, 0],
    },
    {
      name: 'unordered weights, partition 6',
      partition: 6,
      replicas: 10,
      unordered: true,
      slots: 'r0 r0 r0 r0 r0 r0 r1 r1 r0 r0',
      expected: [7, 6, 9, 8],
    },
    {
      name: 'nil strategy, some updated',
      partition: 0,
      replicas: 3,
      unordered: false,
      slots: 'r1 r1 r0',
      expected: [2, 1, 0],
    },
    {
      name: 'partition 2 with reserved slots',
      partition: 2,
      replicas: 3,
      unordered: false,
      slots: 'r0 - r0 - r0',
      expected: [4],
    },
    {
      name: 'unordered with reserved slots',
      partition: 6,
      replicas: 10,
      unordered: true,
      slots: 'r0 r0 r0 - r0 r0 r0 r1 r1 r0 - r0',
      expected: [8, 7, 11, 9],
    },
    {
      name: 'PreparingUpdate counts as updated',
      partition: 6,
      replicas: 10,
      unordered: true,
      slots: 'PU PU r0 - r0 r0 r0 r1 r1 r0 - r0',
      expected: [8, 7, 1, 0],
    },
  ])('$name → $expected', ({ partition, replicas, unordered, slots: s, expected }) => {
    const input = {
      partition,
      replicas,
      unordered,
      priorityStrategy: unordered ? weights : null,
      updateRevision: 'r1',
      preparingUpdateAsUpdate: true,
    };
    expect(sortPodsToUpdate(input, slots(s))).toEqual(expected);
  });

  it('weights pick the heaviest waiting pods first', () => {
    const s = [pod('r0', { k: 'v2' }), pod('r0', { k: 'v1' }), pod('r0'), pod('r0', { k: 'v1' })];
    const input = {
      partition: 0,
      replicas: 4,
      unordered: true,
      priorityStrategy: weights,
      updateRevision: 'r1',
      preparingUpdateAsUpdate: false,
    };
    expect(sortPodsToUpdate(input, s)).toEqual([3, 1, 0, 2]);
  });
});

// existing: compact list "ordinal=cur|upd" (no placeholder), or exact slots with '-' (TestIsCurrentRevisionNeeded)
function existing(spec: string): (Pod | undefined)[] {
  if (spec.startsWith('[')) {
    return spec
      .slice(1, -1)
      .split(', ')
      .map((x) => {
        if (x === '-') return undefined;
        const [o, r] = x.split('=');
        return pod(r === 'cur' ? '1' : '2', {}, `web-${o}`);
      });
  }
  return spec.split(' ').flatMap((x) => {
    const m = /^(\d+)\.\.(\d+)=(\w+)$/.exec(x);
    if (m) {
      const out: Pod[] = [];
      for (let o = Number(m[1]); o <= Number(m[2]); o++)
        out.push(pod(m[3] === 'cur' ? '1' : '2', {}, `web-${o}`));
      return out;
    }
    const [o, r] = x.split('=');
    return [pod(r === 'cur' ? '1' : '2', {}, `web-${o}`)];
  });
}

describe('isCurrentRevisionNeeded (TestIsCurrentRevisionNeeded, gate StatefulSetStartOrdinal on)', () => {
  it.each([
    ['start 0, no partition, update 0', 3, null, 0, [], false, 1, '0=cur 2=cur', true],
    ['start 0, no partition, update 1', 3, null, 0, [], false, 1, '0=cur 2=upd', false],
    ['start 0, partition 1, update 0', 3, 1, 0, [], false, 1, '0=cur 2=cur', false],
    ['start 0, partition 1, update 1', 3, 1, 0, [], false, 1, '0=cur 2=upd', false],
    ['start 0, partition 1, create pod0 (1..2 cur)', 3, 1, 0, [], false, 0, '1..2=cur', true],
    ['start 0, partition 1, create pod0', 3, 1, 0, [], false, 0, '[1=cur, 2=cur]', true],
    ['reserved 1, partition 2, create pod0', 3, 2, 0, [1], false, 0, '[-, -, 2=cur, 3=cur]', true],
    ['start 2, no partition, update 0', 3, null, 2, [], false, 3, '2=cur 4=cur', true],
    ['start 2, no partition, update 1', 3, null, 2, [], false, 3, '2=cur 4=upd', false],
    ['start 2, partition 1, update 0', 3, 1, 2, [], false, 3, '2=cur 4=cur', false],
    ['start 2, partition 1, update 1', 3, 1, 2, [], false, 3, '2=cur 4=upd', false],
    ['start 2, partition 1, create pod2 (3..4 cur)', 3, 1, 2, [], false, 2, '3..4=cur', true],
    ['start 2, partition 1, create pod2', 3, 1, 2, [], false, 2, '[1=cur, 2=cur]', true],
    ['unordered, partition 1, one updated', 3, 1, 0, [], true, 1, '0=cur 2=upd', false],
    ['unordered, partition 1, two updated', 3, 1, 0, [], true, 1, '0=upd 2=upd', true],
    ['unordered, start 2, one updated', 3, 1, 2, [], true, 3, '2=cur 4=upd', false],
    ['unordered, start 2, two updated', 3, 1, 2, [], true, 3, '2=upd 4=upd', true],
    ['reserved 1, unordered, partition 1, one updated', 3, 1, 0, [1], true, 2, '[0=cur, -, -, 3=upd]', false],
    [
      'reserved 1, unordered, partition 1, two updated',
      3,
      1,
      0,
      [1],
      true,
      2,
      '[0=upd, -, 2=cur, 3=upd]',
      true,
    ],
    ['start 0, reserved 1, partition 2, create pod2', 3, 2, 0, [1], false, 2, '[0=cur, -, -, 3=upd]', true],
    ['start 2, reserved 1, partition 2, create pod4', 3, 2, 2, [1], false, 4, '[2=cur, -, -, 5=upd]', true],
  ] as const)('%s', (_name, _replicas, partition, start, _reserve, unordered, ordinal, spec, want) => {
    const pods = existing(spec);
    const currentReplicas = pods.filter(
      (p) => p?.metadata?.labels?.['controller-revision-hash'] === '1',
    ).length;
    const got = isCurrentRevisionNeeded(
      {
        updateType: 'RollingUpdate',
        hasRollingUpdate: partition !== null,
        unordered,
        partition: partition ?? 0,
        start,
        currentReplicas,
        updateRevision: '2',
        preparingUpdateAsUpdate: false,
      },
      ordinal,
      pods,
    );
    expect(got).toBe(want);
  });

  it('OnDelete: always the update revision', () => {
    const input = {
      updateType: 'OnDelete',
      hasRollingUpdate: false,
      unordered: false,
      partition: 5,
      start: 0,
      currentReplicas: 3,
      updateRevision: '2',
      preparingUpdateAsUpdate: false,
    } as const;
    expect(isCurrentRevisionNeeded(input, 0, [])).toBe(false);
  });
});
