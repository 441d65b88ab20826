import { describe, expect, it } from 'vitest';
import { absolute, faultSchedule, FAULT_KINDS, rolloutPlans, seededRandom } from './schedule.js';

describe('seededRandom', () => {
  it('repeats for a seed and differs between seeds', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });
});

describe('faultSchedule', () => {
  const o = {
    horizonMs: 600_000,
    gapMs: [10_000, 20_000] as [number, number],
    downMs: [500, 3000] as [number, number],
  };

  it('is the same for the same seed', () => {
    expect(faultSchedule(1, o)).toEqual(faultSchedule(1, o));
    expect(faultSchedule(1, o)).not.toEqual(faultSchedule(2, o));
  });

  it('keeps the gaps, the down times and the horizon, and uses every kind', () => {
    const faults = faultSchedule(42, o);
    expect(faults.length).toBeGreaterThanOrEqual(30);
    let prev = 0;
    for (const f of faults) {
      expect(f.atMs - prev).toBeGreaterThanOrEqual(10_000);
      expect(f.atMs - prev).toBeLessThanOrEqual(20_000);
      expect(f.downMs).toBeGreaterThanOrEqual(500);
      expect(f.downMs).toBeLessThanOrEqual(3000);
      expect(f.atMs).toBeLessThan(600_000);
      prev = f.atMs;
    }
    expect(new Set(faults.map((f) => f.kind))).toEqual(new Set(FAULT_KINDS));
  });

  it('never starts a fault while the previous process is still down', () => {
    const faults = faultSchedule(3, { horizonMs: 100_000, gapMs: [100, 200], downMs: [1000, 1000] });
    for (let i = 1; i < faults.length; i++)
      expect(faults[i]!.atMs - faults[i - 1]!.atMs).toBeGreaterThan(faults[i - 1]!.downMs);
  });

  it('only uses the kinds asked for', () => {
    const faults = faultSchedule(5, { ...o, kinds: ['kill-nats'] });
    expect(new Set(faults.map((f) => f.kind))).toEqual(new Set(['kill-nats']));
  });
});

describe('rolloutPlans', () => {
  it('covers every change kind in turn, within the pod range', () => {
    const plans = rolloutPlans(9, 8, [30, 100]);
    expect(plans.map((p) => p.change)).toEqual([
      'in-place',
      'recreate',
      'partition',
      'scale',
      'in-place',
      'recreate',
      'partition',
      'scale',
    ]);
    for (const p of plans) {
      expect(p.replicas).toBeGreaterThanOrEqual(30);
      expect(p.replicas).toBeLessThanOrEqual(100);
      if (p.change !== 'recreate') expect(p.maxSurge).toBe(0);
      if (p.change === 'scale') expect(p.scaleTo).not.toBe(p.replicas);
      else expect(p.scaleTo).toBe(p.replicas);
      if (p.change === 'partition') expect(p.partitions.at(-1)).toBe(0);
    }
    expect(rolloutPlans(9, 8, [30, 100])).toEqual(plans);
    // a DaemonSet's: its nodes' count, no scale change
    const ds = rolloutPlans(9, 6, [30, 100], {
      changes: ['in-place', 'recreate', 'partition'],
      replicas: 10,
    });
    expect(ds.map((p) => [p.change, p.replicas, p.scaleTo])).toEqual([
      ['in-place', 10, 10],
      ['recreate', 10, 10],
      ['partition', 10, 10],
      ['in-place', 10, 10],
      ['recreate', 10, 10],
      ['partition', 10, 10],
    ]);
    expect(ds[2]!.partitions).toEqual([7, 4, 0]);
  });
});

describe('absolute', () => {
  it.each([
    [5, 40, false, 5],
    ['10%', 45, false, 4],
    ['10%', 45, true, 5],
    ['50%', 31, false, 15],
  ] as const)('%s of %d (round up %s) is %d', (v, n, up, want) => {
    expect(absolute(v, n, up)).toBe(want);
  });
});
