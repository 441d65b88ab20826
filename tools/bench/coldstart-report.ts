// Benchmark 10: the printed report (docs/benchmarks-coldstart.md, section 10).
import { fmt, ratio, table } from './common.js';
import type { ColdStartResult, ColdStartSide } from './coldstart.js';

const mib = (b: number | undefined) =>
  b !== undefined && Number.isFinite(b) ? (b / 2 ** 20).toFixed(0) : 'n/a';
const sum = (xs: Record<string, number>) => Object.values(xs).reduce((a, b) => a + b, 0);
const max = (xs: Record<string, number>) => Math.max(0, ...Object.values(xs));

/** The goal: every status current within 60 s of the start, at 10 000 pods under 1 000 CloneSets. */
export const COLD_START_GOAL_S = 60;

/** The side's controller: its reads, watches and writes in the window, and its pod creates and deletes. */
function controllerRequests(s: ColdStartSide) {
  const mine = s.clients.map((c) => s.requests.get(c));
  const total = (f: (t: NonNullable<(typeof mine)[number]>) => number) =>
    mine.reduce((a, t) => a + (t ? f(t) : 0), 0);
  return {
    reads: total((t) => t.reads),
    watches: total((t) => t.watches),
    writes: total((t) => t.writes),
    statusWrites: total(
      (t) => (t.byKind.get('clonesets/status patch') ?? 0) + (t.byKind.get('clonesets/status update') ?? 0),
    ),
    podCreates: total((t) => t.byKind.get('pods create') ?? 0),
    podDeletes: total((t) => t.byKind.get('pods delete') ?? 0),
  };
}

export function reportColdStart(r: ColdStartResult): string {
  const sides = [r.regatta, ...(r.peer ? [r.peer] : [])];
  const seconds = (x: number | undefined) => (x === undefined ? `> ${r.timeoutS}` : fmt(x, 1));
  /** One row: a value per side, then the peer ÷ Regatta ratio when there is a peer. */
  const row = (
    label: string,
    f: (s: ColdStartSide) => number | undefined,
    show: (x: number | undefined) => string,
  ) => [
    label,
    ...sides.map((s) => show(f(s))),
    ...(r.peer ? [ratio(f(r.peer) ?? NaN, f(r.regatta) ?? NaN)] : []),
  ];
  const num = (x: number | undefined) => (x === undefined ? 'n/a' : String(x));
  const req = sides.map(controllerRequests);
  const lines = [
    `Cold start: N = ${r.pods} pods under M = ${r.sets} CloneSets on ${r.nodes} simulated nodes. Each controller made ` +
      `its world, was stopped, every CloneSet's spec changed (its status stale), and it started again: Regatta's ` +
      `watcher and cloneset program at once on an empty bus${r.peer ? ', then kruise-manager on its own world' : ''}.`,
    '',
    table([
      ['', ...sides.map((s) => s.name), ...(r.peer ? ['peer / Regatta'] : [])],
      row('start → first CloneSet current (s)', (s) => s.firstCurrentS, seconds),
      row('start → every CloneSet current (s)', (s) => s.currentS, seconds),
      row(
        'start → ready, slowest process (s)',
        (s) => max(s.readyS),
        (x) => fmt(x ?? NaN, 1),
      ),
      row(
        'CPU from the start, all processes (s)',
        (s) => sum(s.cpuS),
        (x) => fmt(x ?? NaN, 1),
      ),
      row('peak RSS, all processes (MiB)', (s) => sum(s.rssPeak), mib),
      row('controller API reads', (s) => req[sides.indexOf(s)]!.reads, num),
      row('controller API watches', (s) => req[sides.indexOf(s)]!.watches, num),
      row('controller API writes', (s) => req[sides.indexOf(s)]!.writes, num),
      row('of which CloneSet status writes', (s) => req[sides.indexOf(s)]!.statusWrites, num),
      row(
        'pods created + deleted by the controller',
        (s) => req[sides.indexOf(s)]!.podCreates + req[sides.indexOf(s)]!.podDeletes,
        num,
      ),
      row('pods changed (uid or version)', (s) => s.podsChanged, num),
      row(
        'set-up, not measured (s)',
        (s) => s.setupS,
        (x) => fmt(x ?? NaN, 1),
      ),
      row('program restarts', (s) => s.restarts.length, num),
    ]),
    `goal: every status current ≤ ${COLD_START_GOAL_S} s at 10 000 pods / 1 000 CloneSets and faster than ` +
      `kruise-manager; 0 pods created, deleted or changed.`,
  ];
  for (const s of sides) {
    lines.push(
      '',
      `${s.name}: API requests from the start to every status current + 5 s, by client (audit log, reads included):`,
      table([
        ['client', 'reads', 'of which watches', 'writes', 'failed', 'most frequent'],
        ...[...s.requests]
          .sort((a, b) => b[1].reads + b[1].writes - (a[1].reads + a[1].writes))
          .map(([client, t]) => [
            client,
            t.reads,
            t.watches,
            t.writes,
            t.failed,
            [...t.byKind]
              .sort((a, b) => b[1] - a[1])
              .slice(0, 3)
              .map(([k, n]) => `${k} ${n}`)
              .join(', '),
          ]),
      ]),
    );
    if (s.limits)
      lines.push(
        `${s.name}: set-up (not measured) at ${s.limits.setup}; measured start at ${s.limits.start}`,
      );
    for (const x of s.restarts)
      lines.push(`restart: ${x.name} during ${x.phase} (code ${x.code}): ${x.reason}`);
  }
  return lines.join('\n');
}
