// Which pods a round upgrades: OpenKruise `pkg/controller/sidecarset/sidecarset_strategy_test.go`
// (TestGetNextUpgradePods, TestSortNextUpgradePods, TestParseUpdateScatterTerms) as tables.
import type { IntOrString } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { getNextUpgradePods, parseUpdateScatterTerms } from './next-upgrade.js';
import type { PodOptions } from './testing/fixtures.js';
import { pod, pods, sidecarSet } from './testing/fixtures.js';

describe('getNextUpgradePods', () => {
  const rows: {
    name: string;
    maxUnavailable?: IntOrString;
    partition?: IntOrString;
    total: number;
    updated: number;
    notReadyUpdated: number;
    expected: number;
  }[] = [
    {
      name: 'maxUnavailable 10, 30 of 100 updated (26 ready)',
      maxUnavailable: 10,
      total: 100,
      updated: 30,
      notReadyUpdated: 4,
      expected: 6,
    },
    {
      name: 'maxUnavailable 10%, 300 of 1000 updated (260 ready)',
      maxUnavailable: '10%',
      total: 1000,
      updated: 300,
      notReadyUpdated: 40,
      expected: 60,
    },
    {
      name: 'maxUnavailable 5%, 300 of 1000 updated (250 ready)',
      maxUnavailable: '5%',
      total: 1000,
      updated: 300,
      notReadyUpdated: 50,
      expected: 0,
    },
    {
      name: 'maxUnavailable 100, 30 of 100 updated (27 ready)',
      maxUnavailable: 100,
      total: 100,
      updated: 30,
      notReadyUpdated: 3,
      expected: 70,
    },
    {
      name: 'partition 180',
      partition: 180,
      maxUnavailable: 100,
      total: 1000,
      updated: 800,
      notReadyUpdated: 40,
      expected: 20,
    },
    {
      name: 'partition 100',
      partition: 100,
      maxUnavailable: 100,
      total: 1000,
      updated: 800,
      notReadyUpdated: 40,
      expected: 60,
    },
    {
      name: 'partition 18%',
      partition: '18%',
      maxUnavailable: 100,
      total: 1000,
      updated: 800,
      notReadyUpdated: 40,
      expected: 20,
    },
    {
      name: 'partition 10%',
      partition: '10%',
      maxUnavailable: 100,
      total: 1000,
      updated: 800,
      notReadyUpdated: 40,
      expected: 60,
    },
    {
      name: 'maxUnavailable 5% of 5 pods rounds up',
      maxUnavailable: '5%',
      total: 5,
      updated: 0,
      notReadyUpdated: 0,
      expected: 1,
    },
    {
      name: 'partition 99% of 5 keeps 4',
      maxUnavailable: 5,
      partition: '99%',
      total: 5,
      updated: 0,
      notReadyUpdated: 0,
      expected: 1,
    },
    {
      name: 'partition 1% of 5 keeps 1',
      maxUnavailable: 5,
      partition: '1%',
      total: 5,
      updated: 0,
      notReadyUpdated: 0,
      expected: 4,
    },
  ];
  it.each(rows)('$name → $expected', (r) => {
    const set = sidecarSet({
      updateStrategy: {
        maxUnavailable: r.maxUnavailable ?? null,
        ...(r.partition !== undefined ? { partition: r.partition } : {}),
      },
    });
    expect(getNextUpgradePods(set, pods(r.total, r.updated, r.notReadyUpdated)).upgrade).toHaveLength(
      r.expected,
    );
  });

  it('selector canary: only the 30 selected pods', () => {
    const set = sidecarSet({
      updateStrategy: { maxUnavailable: 100, selector: { matchLabels: { canary: 'true' } } },
    });
    const all = pods(100, 0, 0, (i) => ({ labels: i < 30 ? { canary: 'true' } : {} }) as PodOptions);
    const next = getNextUpgradePods(set, all);
    expect(next.upgrade).toHaveLength(30);
    expect(next.upgrade.every((p) => p.metadata?.labels?.['canary'] === 'true')).toBe(true);
  });

  it('not upgradable (a non-image field changed): none chosen, all reported', () => {
    const set = sidecarSet({ updateStrategy: { maxUnavailable: 100 } });
    const next = getNextUpgradePods(
      set,
      pods(100, 0, 0, () => ({ withoutImage: 'without-0' })),
    );
    expect(next.upgrade).toHaveLength(0);
    expect(next.notUpgradable).toHaveLength(100);
  });

  it('maxUnavailable defaults to 1', () => {
    expect(getNextUpgradePods(sidecarSet({ updateStrategy: {} }), pods(10, 0, 0)).upgrade).toHaveLength(1);
  });

  it('not-ready candidates are taken without using the budget', () => {
    const all = pods(5, 0, 0).map((p, i) =>
      i < 2 ? pod({ name: p.metadata?.name ?? '', ready: false, createdAt: i }) : p,
    );
    const next = getNextUpgradePods(sidecarSet(), all);
    expect(next.upgrade.map((p) => p.metadata?.name)).toEqual(['pod-1', 'pod-0', 'pod-4']);
  });
});

describe('sort of the next pods (TestSortNextUpgradePods)', () => {
  it('newer pods first with equal state; not-ready pods before ready ones', () => {
    const set = sidecarSet({ updateStrategy: { maxUnavailable: 10 } });
    const all = pods(20, 10, 0, (i) => ({ ready: !(i === 13 || i === 10) }));
    const next = getNextUpgradePods(set, all).upgrade.map((p) => p.metadata?.name);
    expect(next.slice(0, 7)).toEqual(['pod-13', 'pod-10', 'pod-19', 'pod-18', 'pod-17', 'pod-16', 'pod-15']);
  });

  it('priority: the heavier weight first', () => {
    const set = sidecarSet({
      updateStrategy: {
        maxUnavailable: 10,
        priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { key: 'a' } } }] },
      },
    });
    const all = pods(5, 0, 0, (i) => ({ labels: i === 1 ? { key: 'a' } : {} }) as PodOptions);
    expect(getNextUpgradePods(set, all).upgrade[0]?.metadata?.name).toBe('pod-1');
  });
});

describe('parseUpdateScatterTerms', () => {
  it('expands * to every value present, keeps plain terms, drops duplicates', () => {
    const all = [
      pod({ labels: { labelA: 'x' } }),
      pod({ labels: { labelA: 'y' } }),
      pod({ labels: { labelA: 'x' } }),
    ];
    expect(
      parseUpdateScatterTerms(
        [
          { key: 'labelA', value: '*' },
          { key: 'labelB', value: 'b' },
          { key: 'labelA', value: 'x' },
        ],
        all,
      ),
    ).toEqual([
      { key: 'labelA', value: 'x' },
      { key: 'labelA', value: 'y' },
      { key: 'labelB', value: 'b' },
    ]);
  });
});
