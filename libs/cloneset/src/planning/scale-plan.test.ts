import { LIFECYCLE_STATE_KEY, type Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { INSTANCE_ID_LABEL } from './instance-id.js';
import type { PersistentVolumeClaim } from './pvc.js';
import { MAX_CREATIONS_PER_ROUND, planScale } from './scale-plan.js';
import { SPECIFIED_DELETE_KEY, type CloneSetRolloutSpec } from '@regatta/rollout';

const now = new Date('2024-05-01T12:00:00Z');
const tenSecondsAgo = '2024-05-01T11:59:50Z';
const seq = (values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length] ?? 0;
};
/** mulberry32: a small seeded generator. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const readyPod = (
  name: string,
  extra: { labels?: Record<string, string>; rev?: string; nodeName?: string } = {},
): Pod => ({
  metadata: {
    name,
    labels: {
      'controller-revision-hash': extra.rev ?? 'sample-b976d4544',
      [INSTANCE_ID_LABEL]: name,
      ...(extra.labels ?? {}),
    },
  },
  spec: {
    containers: [{ name: 'main', image: 'sample:v1' }],
    ...(extra.nodeName ? { nodeName: extra.nodeName } : {}),
  },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: tenSecondsAgo }],
  },
});
const five = () => Array.from({ length: 5 }, (_, i) => readyPod(`sample-${i}`));
const spec = (extra: Partial<CloneSetRolloutSpec> = {}): CloneSetRolloutSpec => ({
  replicas: 3,
  updateStrategy: { maxUnavailable: '20%' },
  ...extra,
});
const plan = (
  s: CloneSetRolloutSpec,
  pods: Pod[],
  pvcs: PersistentVolumeClaim[] = [],
  rev = 'sample-b976d4544',
) => planScale({ spec: s, pods, pvcs, currentRevision: rev, updateRevision: rev }, { now, random: seq([0]) });

describe('planScale: creations per round', () => {
  it.each([
    [3, 0, 3],
    [501, 0, MAX_CREATIONS_PER_ROUND],
    [2147483647, 10, MAX_CREATIONS_PER_ROUND],
  ])(
    'replicas %i with %i pods: %i creations this round, no ScaleUpLimited',
    { timeout: 5000 },
    (replicas, have, want) => {
      const pods = Array.from({ length: have }, (_, i) => readyPod(`sample-${i}`));
      const p = planScale(
        {
          spec: spec({ replicas, updateStrategy: { maxUnavailable: '100%' } }),
          pods,
          pvcs: [],
          currentRevision: 'sample-b976d4544',
          updateRevision: 'sample-b976d4544',
        },
        { now, random: seeded(7) },
      );
      expect(p.action === 'create' && p.creations.length).toBe(want);
      expect(p.action === 'create' && p.scaleUpLimited).toBe(false);
    },
  );
});

// TestScale (`pkg/controller/cloneset/sync/cloneset_scale_test.go`): 3 cases
describe('planScale (TestScale)', () => {
  it('minReadySeconds=9999: pods ready but not available → nothing deleted', () => {
    const p = plan(spec({ minReadySeconds: 9999 }), five());
    expect(p).toMatchObject({ action: 'none', reason: 'deleteReadyLimited' });
    expect(p.action === 'none' && p.diffs?.deleteReadyLimit).toBe(0);
  });
  it('minReadySeconds=0, pod-0 specified for deletion → only pod-0 deleted', () => {
    const pods = five();
    pods[0] = readyPod('sample-0', { labels: { [SPECIFIED_DELETE_KEY]: 'true' } });
    const p = plan(spec(), pods);
    expect(p.action === 'delete' && p.reason).toBe('specifiedDelete');
    expect(p.action === 'delete' && p.deletions.map((d) => d.pod.metadata?.name)).toEqual(['sample-0']);
  });
  it('minReadySeconds=0 → two pods deleted', () => {
    const p = plan(spec(), five());
    expect(p.action === 'delete' && p.reason).toBe('scaleDown');
    expect(p.action === 'delete' && p.deletions).toHaveLength(2);
  });
});

describe('planScale steps', () => {
  it('scales out with the current revision first and reused ids', () => {
    const pods = [readyPod('a', { rev: 'old' }), readyPod('b', { rev: 'new' })];
    const pvcs: PersistentVolumeClaim[] = [
      { metadata: { name: 'data-x-c', labels: { [INSTANCE_ID_LABEL]: 'c' } } },
    ];
    const p = planScale(
      {
        spec: { replicas: 5, updateStrategy: { partition: 3 } },
        pods,
        pvcs,
        currentRevision: 'old',
        updateRevision: 'new',
      },
      { now, random: seeded(7) },
    );
    expect(p.action).toBe('create');
    if (p.action !== 'create') return;
    expect(p.creations.map((c) => c.revision)).toEqual(['current', 'current', 'update']);
    expect(p.creations.map((c) => c.id)).toContain('c');
    expect(p.diffs).toMatchObject({ scaleUpNum: 3, scaleUpNumOldRevision: 2 });
  });

  it('limits creations by scaleStrategy.maxUnavailable and reports it', () => {
    const pods = [readyPod('a'), { ...readyPod('b'), status: {} }];
    const p = plan({ replicas: 5, updateStrategy: {}, scaleStrategy: { maxUnavailable: 2 } }, pods);
    expect(p).toMatchObject({ action: 'create', scaleUpLimited: true });
    expect(p.action === 'create' && p.creations).toHaveLength(1);
    const blocked = plan({ replicas: 5, updateStrategy: {}, scaleStrategy: { maxUnavailable: 1 } }, pods);
    expect(blocked).toMatchObject({ action: 'none', reason: 'scaleUpLimited', scaleUpLimited: true });
  });

  it('cancels a PreparingDelete pod when replicas were raised, unless a hook marks pods not ready', () => {
    const pods = [
      readyPod('a'),
      readyPod('b'),
      readyPod('c', { labels: { [LIFECYCLE_STATE_KEY]: 'PreparingDelete' } }),
    ];
    const p = plan({ replicas: 3, updateStrategy: {} }, pods);
    expect(p.action === 'cancelPreparingDelete' && p.pods.map((x) => x.metadata?.name)).toEqual(['c']);
    const marked = plan(
      {
        replicas: 3,
        updateStrategy: {},
        lifecycle: { preDelete: { labelsHandler: { h: 'y' }, markPodNotReady: true } },
      },
      pods,
    );
    expect(marked.action).not.toBe('cancelPreparingDelete');
  });

  it('deletes PreparingDelete pods once their hook is released, and holds hooked ones', () => {
    const lifecycle = { preDelete: { labelsHandler: { hold: 'true' } } };
    const released = readyPod('c', {
      labels: { [LIFECYCLE_STATE_KEY]: 'PreparingDelete', [SPECIFIED_DELETE_KEY]: 'true' },
    });
    const held = readyPod('d', {
      labels: { [LIFECYCLE_STATE_KEY]: 'PreparingDelete', [SPECIFIED_DELETE_KEY]: 'true', hold: 'true' },
    });
    const pvcs: PersistentVolumeClaim[] = [
      { metadata: { name: 'data-c', labels: { [INSTANCE_ID_LABEL]: 'c' } } },
    ];
    const p = plan(
      { replicas: 2, updateStrategy: {}, lifecycle },
      [readyPod('a'), readyPod('b'), released, held],
      pvcs,
    );
    expect(p.action === 'delete' && p.reason).toBe('preparingDelete');
    expect(
      p.action === 'delete' && p.deletions.map((d) => [d.pod.metadata?.name, d.step.action, d.pvcs.length]),
    ).toEqual([['c', 'delete', 1]]);
  });

  it('moves a hooked specified-delete pod to PreparingDelete instead of deleting it', () => {
    const lifecycle = { preDelete: { finalizersHandler: ['slb/online'], markPodNotReady: true } };
    const hooked = { ...readyPod('c', { labels: { [SPECIFIED_DELETE_KEY]: 'true' } }) };
    hooked.metadata = { ...hooked.metadata, finalizers: ['slb/online'] };
    const p = plan({ replicas: 3, updateStrategy: {}, lifecycle }, [readyPod('a'), readyPod('b'), hooked]);
    expect(p.action === 'delete' && p.deletions[0]?.step).toEqual({
      action: 'prepareDelete',
      markPodNotReady: true,
    });
  });

  it('waits for pending deletions before scaling in', () => {
    const pods = [...five(), readyPod('x', { labels: { [LIFECYCLE_STATE_KEY]: 'PreparingDelete' } })];
    const p = plan(
      { replicas: 3, updateStrategy: {}, lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } } },
      [
        ...pods.slice(0, 5),
        readyPod('x', { labels: { [LIFECYCLE_STATE_KEY]: 'PreparingDelete', hold: 'true' } }),
      ],
    );
    expect(p).toMatchObject({ action: 'none', reason: 'waitingForDeletions' });
  });
});

// TestSyncCloneSet scale/update rows (`pkg/controller/cloneset/cloneset_controller_test.go`), v1beta1 OnDelete has no rollingUpdate
describe('planScale (TestSyncCloneSet OnDelete rows)', () => {
  const onDelete = (replicas: number): CloneSetRolloutSpec => ({ replicas, updateStrategy: null });
  const pods = (old: number, updated: number) => [
    ...Array.from({ length: old }, (_, i) => readyPod(`old-${i}`, { rev: 'rev-old' })),
    ...Array.from({ length: updated }, (_, i) => readyPod(`new-${i}`, { rev: 'rev-new' })),
  ];
  const run = (replicas: number, old: number, updated: number) =>
    planScale(
      {
        spec: onDelete(replicas),
        pods: pods(old, updated),
        pvcs: [],
        currentRevision: 'rev-old',
        updateRevision: 'rev-new',
      },
      { now, random: seeded(42) },
    );
  it('replicas 5 / 5 old pods → nothing', () => expect(run(5, 5, 0).action).toBe('none'));
  it('replicas 5 / 3 old → 2 new pods at the update revision', () => {
    const p = run(5, 3, 0);
    expect(p.action === 'create' && p.creations.map((c) => c.revision)).toEqual(['update', 'update']);
  });
  it('replicas 6 / 3 old + 5 new → 2 old deleted', () => {
    const p = run(6, 3, 5);
    expect(p.action === 'delete' && p.deletions.map((d) => (d.pod.metadata?.name ?? '').slice(0, 3))).toEqual(
      ['old', 'old'],
    );
  });
  it('replicas 4 / 3 old + 5 new → all 3 old and 1 new deleted', () => {
    const p = run(4, 3, 5);
    expect(
      p.action === 'delete' && p.deletions.map((d) => (d.pod.metadata?.name ?? '').slice(0, 3)).sort(),
    ).toEqual(['new', 'old', 'old', 'old']);
  });
});
