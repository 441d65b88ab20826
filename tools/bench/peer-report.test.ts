import { describe, expect, it } from 'vitest';
import type { WriteTally } from './rollout-audit.js';
import type { PhaseResult } from './rollout-config.js';
import { peerColumn, peerRows, type PeerColumn } from './peer-report.js';

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
