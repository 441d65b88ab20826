// Benchmark 10: the printed report (docs/benchmarks.md, section 10).
import { fmt, table } from './common.js';
import type { ColdStartResult } from './coldstart.js';

const mib = (b: number | undefined) =>
  b !== undefined && Number.isFinite(b) ? (b / 2 ** 20).toFixed(0) : 'n/a';
const seconds = (x: number | undefined, timeoutS: number) => (x === undefined ? `> ${timeoutS}` : fmt(x, 1));

/** The goal: every status current within 60 s of the start, at 10 000 pods under 1 000 CloneSets. */
export const COLD_START_GOAL_S = 60;

/** The controller's pod creates and deletes from the start until every status was current (+ 5 s). */
function podChurn(r: ColdStartResult): string {
  const t = r.requests.get('regatta-cloneset')?.byKind;
  return `${t?.get('pods create') ?? 0} / ${t?.get('pods delete') ?? 0}`;
}

export function reportColdStart(r: ColdStartResult): string {
  const programs = Object.keys(r.readyS);
  const lines = [
    `Cold start: N = ${r.pods} pods under M = ${r.sets} CloneSets on ${r.nodes} simulated nodes; the watcher and the ` +
      `cloneset program started at once on an empty bus, every CloneSet's status stale (its spec changed while ` +
      `they were stopped). Set-up (not measured): ${fmt(r.setupS, 1)} s.`,
    '',
    table([
      ['', 'Regatta', 'goal'],
      ['start → first CloneSet current (s)', seconds(r.firstCurrentS, r.timeoutS), ''],
      [
        'start → every CloneSet current (s)',
        seconds(r.currentS, r.timeoutS),
        `≤ ${COLD_START_GOAL_S} at 10 000 / 1 000`,
      ],
      ...programs.map((p) => [`start → ${p} ready (s)`, fmt(r.readyS[p] ?? NaN, 1), '']),
      ...programs.map((p) => [`${p} CPU, start → current (s)`, fmt(r.cpuS[p] ?? NaN, 1), '']),
      ...programs.map((p) => [`${p} peak RSS (MiB)`, mib(r.rssPeak[p]), '']),
      ['pods changed by the start (uid or version)', r.podsChanged, '0'],
      ['pods created / deleted by the controller during the start', podChurn(r), '0 / 0'],
      ['program restarts', r.restarts.length, '0'],
    ]),
    '',
    'API requests from the start to every status current + 5 s, by client (audit log, reads included):',
    table([
      ['client', 'reads', 'of which watches', 'writes', 'failed', 'most frequent'],
      ...[...r.requests]
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
  ];
  for (const x of r.restarts)
    lines.push(`restart: ${x.name} during ${x.phase} (code ${x.code}): ${x.reason}`);
  return lines.join('\n');
}
