// `--peer=kruise`'s table (docs/benchmarks-rollouts-kruise-manager.md, "side by side with kruise-manager" in sections 4, 5 and 6):
// the same rollout (CloneSet, Advanced StatefulSet, Advanced DaemonSet) with Regatta's controller and with
// kruise-manager, one column each and kruise ÷ Regatta, and a one-line summary of both (docs/benchmarks.md's table).
import { fmt, ratio, table } from './common.js';
import type { WriteTally } from './rollout-audit.js';
import type { PhaseResult, RolloutResult } from './rollout-config.js';
import { describeLimits } from './peer-config.js';

/** The benchmark's own watch on the workload, open in the first sample of a side and closed in the second. */
export const FOLLOWER_WATCHES = 1;

/** One controller's figures over one rollout of N pods. */
export interface PeerColumn {
  durationS: number;
  boundS: number;
  podWrites: number;
  podFailed: number;
  writes: number;
  /** CPU seconds patch → done: the controller, and what it reads through (Regatta's watcher; 0 for kruise). */
  cpuS: number;
  cpuWithReaderS: number;
  peakRss: number;
  peakRssWithReader: number;
  /** (RSS with the N pods ready − idle) ÷ N, bytes. */
  rssPerPod: number;
  /** WATCH requests held on the API server with the pods ready, less those held once the controller stopped. */
  watches: number;
  maxUnavailable: number;
}

/**
 * A column from a side's measurements: `proc` is the controller's process and user agent, `reader` the process it
 * reads the API through (Regatta's watcher).
 */
export function peerColumn(
  p: PhaseResult,
  w: WriteTally | undefined,
  o: { proc: string; reader?: string; n: number },
): PeerColumn {
  const plus = (rec: Record<string, number>) =>
    (rec[o.proc] ?? NaN) + (o.reader ? (rec[o.reader] ?? NaN) : 0);
  return {
    durationS: p.durationS ?? NaN,
    boundS: p.boundS,
    podWrites: w?.podWrites ?? 0,
    podFailed: w?.podFailed ?? 0,
    writes: w?.all ?? 0,
    cpuS: p.cpuS[o.proc] ?? NaN,
    cpuWithReaderS: plus(p.cpuS),
    peakRss: p.rssPeak[o.proc] ?? NaN,
    peakRssWithReader: plus(p.rssPeak),
    rssPerPod: ((p.loadedRss?.[o.proc] ?? NaN) - (p.idleRss[o.proc] ?? NaN)) / o.n,
    watches:
      p.apiWatches === undefined || p.apiWatchesWithout === undefined
        ? NaN
        : p.apiWatches - p.apiWatchesWithout - FOLLOWER_WATCHES,
    maxUnavailable: p.maxUnavailable,
  };
}

const mib = (b: number) => (Number.isFinite(b) ? `${(b / 2 ** 20).toFixed(0)} MiB` : 'n/a');
const kib = (b: number) => (Number.isFinite(b) ? `${(b / 1024).toFixed(0)} KiB` : 'n/a');

/** The table's rows: a figure, Regatta's, kruise-manager's, kruise ÷ Regatta. */
export function peerRows(r: PeerColumn, k: PeerColumn, n: number): string[][] {
  const per = (x: number) => fmt(x / n, 2);
  /** One figure of both columns, shown by `show`; the ratio is of the raw values. */
  const row = (label: string, of: (c: PeerColumn) => number, show: (v: number, c: PeerColumn) => string) => [
    label,
    show(of(r), r),
    show(of(k), k),
    ratio(of(k), of(r)),
  ];
  const s1 = (v: number) => fmt(v, 1);
  const s2 = (v: number) => fmt(v, 2);
  return [
    row('duration, patch → status done (s)', (c) => c.durationS, s1),
    row('duration / bound', (c) => c.durationS / c.boundS, s2),
    row(
      'controller pod writes / pod (failed)',
      (c) => c.podWrites,
      (v, c) => `${per(v)} (${c.podFailed})`,
    ),
    row('controller writes of any kind / pod', (c) => c.writes, per),
    row('controller CPU, patch → done (s)', (c) => c.cpuS, s2),
    row('  + what it reads through (Regatta: the watcher)', (c) => c.cpuWithReaderS, s2),
    row('controller peak RSS in the rollout', (c) => c.peakRss, mib),
    row('  + what it reads through', (c) => c.peakRssWithReader, mib),
    row('controller RSS growth per pod (idle → N ready)', (c) => c.rssPerPod, kib),
    row(
      "API WATCH requests held (Regatta: the watcher's)",
      (c) => c.watches,
      (v) => fmt(v, 0),
    ),
    row(
      'most pods unavailable at once',
      (c) => c.maxUnavailable,
      (v) => `${v}`,
    ),
  ];
}

/** Regatta's column and kruise-manager's from a rollout run with a peer; undefined without one. */
export function peerColumns(r: RolloutResult): { regatta: PeerColumn; kruise: PeerColumn } | undefined {
  if (!r.peer) return undefined;
  const n = r.replicas;
  return {
    regatta: peerColumn(r.regatta, r.writes.regatta.get(r.controller), {
      proc: r.controller,
      reader: 'watcher',
      n,
    }),
    kruise: peerColumn(r.peer.phase, r.writes.peer?.get('kruise-manager'), { proc: 'kruise-manager', n }),
  };
}

/**
 * Both columns in one line: duration and its ratio to the bound, pod writes per pod (kruise's failed ones), peak
 * RSS (Regatta's with the watcher), watches; then kruise ÷ Regatta of the duration, pod writes and peak RSS.
 */
export function peerSummary(reg: PeerColumn, kru: PeerColumn, n: number): string {
  const side = (c: PeerColumn, withReader: boolean) =>
    `${fmt(c.durationS, 1)} s = ${fmt(c.durationS / c.boundS, 2)}× bound, ` +
    `${fmt(c.podWrites / n, 2)} pod writes/pod (${c.podFailed} failed), peak ${mib(c.peakRss)}` +
    (withReader ? ` (+ watcher ${mib(c.peakRssWithReader)})` : '') +
    `, ${fmt(c.watches, 0)} watches`;
  return (
    `Regatta ${side(reg, true)} | kruise-manager ${side(kru, false)} | kruise ÷ Regatta: duration ` +
    `${ratio(kru.durationS, reg.durationS)}, pod writes ${ratio(kru.podWrites, reg.podWrites)}, ` +
    `peak RSS ${ratio(kru.peakRss, reg.peakRss)}`
  );
}

export function reportPeer(r: RolloutResult): string {
  const p = r.peer;
  const cols = peerColumns(r);
  if (!p || !cols) return '';
  const n = r.replicas;
  const { regatta: reg, kruise: kru } = cols;
  const workload = r.regatta.name;
  const load = (x: PhaseResult) =>
    `${fmt((100 * (x.cpuS['everything else'] ?? NaN)) / (x.durationS ?? x.timeoutS), 0)} %`;
  const relays = ['kruise relay (host)', 'kruise relay (netns)'].reduce(
    (s, k) => s + (p.phase.cpuS[k] ?? 0),
    0,
  );
  return [
    `Side by side with kruise-manager v${p.version} (${describeLimits(p)}; ready ${fmt(p.readyS, 1)} s after start): ` +
      `the same ${workload}, ${n} pods, bound ${fmt(r.regatta.boundS, 1)} s, same cluster, namespace of its own`,
    '',
    table([
      ['', `Regatta ${r.controller}`, `kruise-manager ${p.qps}/${p.burst}`, 'kruise / Regatta'],
      ...peerRows(reg, kru, n),
    ]),
    '',
    'WATCH requests: apiserver_longrunning_requests{verb="WATCH"} with the pods ready, less the same 3 s after ' +
      `the side's controller stopped, less the benchmark's own watch on the ${workload}. kruise-manager runs in a ` +
      `network namespace of its own behind two byte relays (docs/adr/0053); their CPU (${fmt(relays, 2)} s) is in ` +
      `none of its figures. Work outside the benchmark took ${load(r.regatta)} of a core during Regatta's rollout, ` +
      `${load(p.phase)} during kruise-manager's (2 cores, shared): durations are loaded, writes and memory are not.`,
    ...[
      [r.controller, r.writes.regatta.get(r.controller)] as const,
      ['kruise-manager', r.writes.peer?.get('kruise-manager')] as const,
    ].map(
      ([who, w]) =>
        `${who} writes by kind: ` +
        ([...(w?.byKind ?? [])]
          .sort((a, b) => b[1] - a[1])
          .map(([k, x]) => `${k} ${x}`)
          .join(', ') || 'none'),
    ),
    `kruise-manager at the end: ${p.phase.finalStatus}`,
    `  ${p.phase.notes.join('\n  ')}`,
    `summary: ${peerSummary(reg, kru, n)}`,
  ].join('\n');
}
