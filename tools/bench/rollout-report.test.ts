import { describe, expect, it } from 'vitest';
import type { WriteTally } from './rollout-audit.js';
import type { PhaseResult, RolloutResult } from './rollout-config.js';
import { reportRollout, writesGoalCell } from './rollout-report.js';

const phase = (
  o: Partial<PhaseResult> & Pick<PhaseResult, 'name' | 'label' | 'batch' | 'boundS'>,
): PhaseResult => ({
  setupS: 10,
  durationS: 12,
  timeoutS: 600,
  podsDoneS: 11.5,
  podDoneS: [2.5, 2.6, 5.1, 5.2],
  maxUnavailable: 2,
  finalStatus: 'done',
  window: { fromMs: 0, doneMs: 12_000, toMs: 17_000 },
  cpuS: { 'everything else': 0 },
  rssPeak: {},
  hwm: {},
  idleRss: {},
  notes: ['4 pods at the end'],
  ...o,
});

const tally = (podWrites: number, all: number): WriteTally => ({
  byKind: new Map([['pods update', podWrites]]),
  podWrites,
  podFailed: 0,
  all,
  failed: 0,
  afterDone: 0,
  maxPerPod: 1,
  podsWritten: podWrites,
  podConcurrency: 2,
  podLatencyP50: 20,
  podBusyShare: 0.5,
});

const result = (o: Partial<RolloutResult> = {}): RolloutResult => ({
  title: 'Rollout over N = 4 pods',
  replicas: 4,
  restartMs: 2000,
  nodes: 3,
  controller: 'regatta-asts',
  regatta: phase({
    name: 'Advanced StatefulSet',
    label: 'Advanced StatefulSet in place',
    batch: 2,
    boundS: 4,
    durationS: 5,
    cpuS: { 'regatta-asts': 1.5, watcher: 0.5, 'everything else': 0 },
    rssPeak: { 'regatta-asts': 200 * 2 ** 20 },
  }),
  native: phase({
    name: 'StatefulSet',
    label: 'StatefulSet RollingUpdate (baseline)',
    batch: 1,
    boundS: 8,
    durationS: 10,
    podDoneS: [2.5, 5, 7.5, 10],
    cpuS: { 'kube-controller-manager': 1, 'everything else': 0 },
    rssPeak: { 'kube-controller-manager': 100 * 2 ** 20 },
  }),
  restarts: [],
  writes: {
    regatta: new Map([['regatta-asts', tally(8, 10)]]),
    native: new Map([['kube-controller-manager', tally(8, 12)]]),
  },
  ...o,
});

const row = (text: string, label: string) => text.split('\n').find((l) => l.startsWith(label)) ?? '';

describe('reportRollout', () => {
  it("names both sides, and gives each side's duration against its own bound", () => {
    const text = reportRollout(result());
    expect(text.split('\n')[0]).toBe('Rollout over N = 4 pods; 3 simulated nodes');
    expect(text).toContain('Advanced StatefulSet in place');
    expect(text).toContain('StatefulSet RollingUpdate (baseline)');
    expect(row(text, 'bound (s)')).toMatch(/4\.0\s+8\.0\s+0\.50/);
    // 5 s against 4 s: 1.25, missed; the native side 10 s against its own 8 s
    expect(row(text, 'duration / own bound')).toMatch(/1\.25\s+1\.25\s+≤ 1\.10: MISSED/);
    expect(row(text, 'duration, patch → status done')).toMatch(/5\.0\s+10\.0\s+0\.50/);
  });

  it("reads the controller's figures under its own name, and kube-controller-manager's for the baseline", () => {
    const text = reportRollout(result());
    expect(row(text, 'controller pod writes / pod')).toMatch(
      /2\.00 \(regatta-asts\)\s+2\.00 \(kube-controller-manager\)\s+1\.00/,
    );
    expect(row(text, 'controller CPU during the rollout')).toMatch(/1\.50\s+1\.00\s+1\.50/);
    expect(row(text, 'controller peak RSS')).toMatch(/200 MiB\s+100 MiB\s+2\.00/);
    expect(row(text, 'most pods unavailable at once')).toContain('≤ 2 / 1: met / MISSED');
  });

  it("counts each side's workload status writes, not the pods' (issue 17)", () => {
    const r = result();
    r.writes.regatta.get('regatta-asts')!.byKind.set('statefulsets/status patch', 3);
    r.writes.native
      .get('kube-controller-manager')!
      .byKind.set('statefulsets/status update (statefulset-controller)', 6);
    r.writes.native.get('kube-controller-manager')!.byKind.set('pods/status patch', 9);
    expect(row(reportRollout(r), 'workload status writes per rollout')).toMatch(/3\s+6\s+0\.50/);
  });

  it('checks the writes goal only when the issue sets one', () => {
    expect(row(reportRollout(result()), 'controller pod writes / pod')).not.toContain('≤');
    expect(row(reportRollout(result({ writesGoalPerPod: 1 })), 'controller pod writes / pod')).toContain(
      '≤ 1: MISSED',
    );
  });

  it("checks a recreate's writes against the native side's in the same run, pod writes and any kind", () => {
    // 4 pods: regatta 8 pod writes, 10 of any kind; native 8 and 12
    const text = reportRollout(result({ writesGoalPerPod: 'native' }));
    expect(row(text, 'controller pod writes / pod')).toContain("≤ StatefulSet's 2.00: met (ratio 1.00)");
    expect(row(text, 'controller writes of any kind / pod')).toContain(
      "≤ StatefulSet's 3.00: met (ratio 0.83)",
    );
    // an in-place goal leaves writes of any kind without one
    expect(
      row(reportRollout(result({ writesGoalPerPod: 2 })), 'controller writes of any kind / pod'),
    ).not.toContain('≤');
  });

  it.each([
    // goal, mine, native's, N, cell
    [undefined, 8, 8, 4, ''],
    [2, 8, 8, 4, '≤ 2: met'],
    [2, 9, 8, 4, '≤ 2: MISSED'],
    ['native', 8, 8, 4, "≤ Deployment's 2.00: met (ratio 1.00)"],
    ['native', 12, 8, 4, "≤ Deployment's 2.00: MISSED (ratio 1.50)"],
    ['native', 3, 0, 4, "≤ Deployment's 0.00: MISSED (ratio n/a)"],
  ] as const)('writesGoalCell(%s, %i, %i, N %i) → %s', (goal, mine, native, n, cell) => {
    expect(writesGoalCell(goal, mine, native, n, 'Deployment')).toBe(cell);
  });

  it("has one progress row per batch of Regatta's side, with each side's ideal ceil(k/batch)·t", () => {
    const text = reportRollout(result());
    const lines = text.split('\n');
    const head = lines.findIndex((l) => l.startsWith('pods new and Ready'));
    expect(lines[head + 2]).toMatch(/^2\s+2\.6\s+2\.6\s+2\.0\s+5\.0\s+5\.0\s+4\.0$/);
    expect(lines[head + 3]).toMatch(/^4\s+5\.2\s+2\.6\s+4\.0\s+10\.0\s+5\.0\s+8\.0$/);
  });

  it('says when a side did not finish', () => {
    const r = result();
    r.regatta.durationS = undefined;
    expect(row(reportRollout(r), 'duration, patch → status done')).toContain('> 600 (not done)');
  });
});
