import { describe, expect, it } from 'vitest';
import type { WriteTally } from './rollout-audit.js';
import type { PhaseResult, RolloutResult } from './rollout-config.js';
import {
  peerColumn,
  peerColumns,
  peerRows,
  peerSummary,
  reportPeer,
  type PeerColumn,
} from './peer-report.js';

const MiB = 2 ** 20;

const phase = (o: Partial<PhaseResult>): PhaseResult => ({
  name: 'x',
  label: 'x',
  batch: 10,
  boundS: 50,
  setupS: 10,
  durationS: 57,
  timeoutS: 600,
  podsDoneS: 56,
  podDoneS: [],
  maxUnavailable: 10,
  finalStatus: 'done',
  window: { fromMs: 0, doneMs: 57_000, toMs: 62_000 },
  cpuS: {},
  rssPeak: {},
  hwm: {},
  idleRss: {},
  notes: [],
  ...o,
});

const writes = (podWrites: number, podFailed: number, all: number): WriteTally => ({
  byKind: new Map(),
  podWrites,
  podFailed,
  all,
  failed: podFailed,
  afterDone: 0,
  maxPerPod: 3,
  podsWritten: 100,
  podConcurrency: 1,
  podLatencyP50: 5,
  podBusyShare: 0.5,
});

describe('peerColumn', () => {
  it('adds what Regatta reads through to CPU and memory; watches: with less without, less the follower', () => {
    const p = phase({
      cpuS: { 'regatta-cloneset': 2, watcher: 1.5 },
      rssPeak: { 'regatta-cloneset': 180 * MiB, watcher: 130 * MiB },
      idleRss: { 'regatta-cloneset': 100 * MiB },
      loadedRss: { 'regatta-cloneset': 150 * MiB },
      apiWatches: 41, // with the controller, the benchmark's follower included
      apiWatchesWithout: 31,
    });
    const c = peerColumn(p, writes(200, 3, 260), {
      proc: 'regatta-cloneset',
      reader: 'watcher',
      n: 100,
    });
    expect(c).toEqual({
      durationS: 57,
      boundS: 50,
      podWrites: 200,
      podFailed: 3,
      writes: 260,
      cpuS: 2,
      cpuWithReaderS: 3.5,
      peakRss: 180 * MiB,
      peakRssWithReader: 310 * MiB,
      rssPerPod: (50 * MiB) / 100,
      watches: 9,
      maxUnavailable: 10,
    });
  });

  it('has nothing to add without a reader, and says n/a for what was not measured', () => {
    const c = peerColumn(phase({ durationS: undefined, cpuS: { 'kruise-manager': 4 } }), undefined, {
      proc: 'kruise-manager',
      n: 100,
    });
    expect(c.cpuWithReaderS).toBe(4);
    expect(c.podWrites).toBe(0);
    expect(c.durationS).toBeNaN();
    expect(c.watches).toBeNaN();
    expect(c.rssPerPod).toBeNaN();
  });
});

describe('peerRows', () => {
  const col = (o: Partial<PeerColumn>): PeerColumn => ({
    durationS: 57,
    boundS: 50,
    podWrites: 200,
    podFailed: 0,
    writes: 300,
    cpuS: 2,
    cpuWithReaderS: 3,
    peakRss: 100 * MiB,
    peakRssWithReader: 200 * MiB,
    rssPerPod: 51 * 1024,
    watches: 10,
    maxUnavailable: 10,
    ...o,
  });

  it('prints both columns and kruise ÷ Regatta', () => {
    const rows = peerRows(
      col({}),
      col({
        durationS: 150.5,
        podWrites: 400,
        podFailed: 12,
        writes: 900,
        cpuS: 5,
        cpuWithReaderS: 5,
        watches: 25,
      }),
      100,
    );
    const byLabel = new Map(rows.map((r) => [r[0], r.slice(1)]));
    expect(byLabel.get('duration, patch → status done (s)')).toEqual(['57.0', '150.5', '2.64']);
    expect(byLabel.get('duration / bound')).toEqual(['1.14', '3.01', '2.64']);
    expect(byLabel.get('controller pod writes / pod (failed)')).toEqual(['2.00 (0)', '4.00 (12)', '2.00']);
    expect(byLabel.get('controller writes of any kind / pod')).toEqual(['3.00', '9.00', '3.00']);
    expect(byLabel.get('controller CPU, patch → done (s)')).toEqual(['2.00', '5.00', '2.50']);
    expect(byLabel.get('controller peak RSS in the rollout')).toEqual(['100 MiB', '100 MiB', '1.00']);
    expect(byLabel.get('controller RSS growth per pod (idle → N ready)')).toEqual([
      '51 KiB',
      '51 KiB',
      '1.00',
    ]);
    expect(byLabel.get("API WATCH requests held (Regatta: the watcher's)")).toEqual(['10', '25', '2.50']);
  });

  it('says n/a where a side did not finish', () => {
    const rows = peerRows(col({}), col({ durationS: NaN }), 100);
    expect(rows[0]).toEqual(['duration, patch → status done (s)', '57.0', 'n/a', 'n/a']);
  });
});

describe('peerSummary', () => {
  it('puts both columns and the three ratios on one line', () => {
    const reg = peerColumn(
      phase({
        durationS: 15,
        boundS: 10,
        cpuS: { 'regatta-ads': 1, watcher: 1 },
        rssPeak: { 'regatta-ads': 150 * MiB, watcher: 120 * MiB },
        apiWatches: 40,
        apiWatchesWithout: 34,
      }),
      writes(150, 0, 200),
      { proc: 'regatta-ads', reader: 'watcher', n: 50 },
    );
    const kru = peerColumn(
      phase({
        durationS: 30,
        boundS: 10,
        rssPeak: { 'kruise-manager': 90 * MiB },
        apiWatches: 70,
        apiWatchesWithout: 35,
      }),
      writes(225, 5, 260),
      { proc: 'kruise-manager', n: 50 },
    );
    expect(peerSummary(reg, kru, 50)).toBe(
      'Regatta 15.0 s = 1.50× bound, 3.00 pod writes/pod (0 failed), peak 150 MiB (+ watcher 270 MiB), ' +
        '5 watches | kruise-manager 30.0 s = 3.00× bound, 4.50 pod writes/pod (5 failed), peak 90 MiB, ' +
        '34 watches | kruise ÷ Regatta: duration 2.00, pod writes 1.50, peak RSS 0.60',
    );
  });
});

describe('reportPeer', () => {
  const result = (o: Partial<RolloutResult>): RolloutResult => ({
    title: 't',
    replicas: 50,
    restartMs: 2000,
    nodes: 50,
    controller: 'regatta-ads',
    regatta: phase({ name: 'Advanced DaemonSet', cpuS: { 'regatta-ads': 1 } }),
    native: phase({ name: 'DaemonSet' }),
    restarts: [],
    writes: { regatta: new Map([['regatta-ads', writes(150, 0, 200)]]), native: new Map() },
    ...o,
  });

  it('is empty without a peer', () => {
    expect(peerColumns(result({}))).toBeUndefined();
    expect(reportPeer(result({}))).toBe('');
  });

  it("names the run's workload and prints both columns from the run's writes", () => {
    const r = result({
      peer: {
        phase: phase({ name: 'kruise-manager', cpuS: { 'kruise-manager': 2 } }),
        qps: 30,
        burst: 50,
        version: '1.9.1',
        readyS: 6,
      },
      writes: {
        regatta: new Map([['regatta-ads', writes(150, 0, 200)]]),
        native: new Map(),
        peer: new Map([['kruise-manager', writes(225, 5, 260)]]),
      },
    });
    const cols = peerColumns(r);
    expect(cols?.regatta.podWrites).toBe(150);
    expect(cols?.kruise.podWrites).toBe(225);
    const text = reportPeer(r);
    expect(text).toContain('the same Advanced DaemonSet, 50 pods');
    expect(text).toContain("the benchmark's own watch on the Advanced DaemonSet");
    expect(text).not.toContain('CloneSet');
    expect(text).toMatch(/controller pod writes \/ pod \(failed\)\s+3\.00 \(0\)\s+4\.50 \(5\)\s+1\.50/);
    expect(text).toContain('summary: Regatta 57.0 s = 1.14× bound, 3.00 pod writes/pod');
  });
});
