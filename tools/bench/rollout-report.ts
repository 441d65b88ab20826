// The rollout benchmarks' report: Regatta's controller next to the native baseline, progress by batch,
// API writes by client, CPU by process (how to read it: docs/benchmarks.md). The same for every comparison.
import { fmt, ratio, table } from './common.js';
import { TAIL_MS, type RolloutResult, type WritesGoal } from './rollout-config.js';
import { type WriteTally, workloadStatusWrites } from './rollout-audit.js';

const mib = (b: number | undefined) =>
  b !== undefined && Number.isFinite(b) ? `${(b / 2 ** 20).toFixed(0)} MiB` : 'n/a';
const perPod = (x: number | undefined, n: number) => (x === undefined ? 'n/a' : (x / n).toFixed(2));
const goal = (ok: boolean) => (ok ? 'met' : 'MISSED');

/**
 * A writes row's goal cell for `mine` writes against the native side's `native`, over N pods: `≤ 2: met` for a
 * number of writes per pod; for `native` (a recreate, issue 17: what the ReplicaSet controller's costs) at most the
 * native side's, with the ratio: `≤ Deployment's 2.00: MISSED (ratio 1.50)`. Empty without a goal.
 */
export function writesGoalCell(
  g: WritesGoal | undefined,
  mine: number,
  native: number,
  n: number,
  nativeName: string,
): string {
  if (g === undefined) return '';
  if (g !== 'native') return `≤ ${g}: ${goal(mine / n <= g)}`;
  return `≤ ${nativeName}'s ${perPod(native, n)}: ${goal(mine <= native)} (ratio ${ratio(mine, native)})`;
}

export function reportRollout(r: RolloutResult): string {
  const n = r.replicas;
  const cs = r.regatta;
  const dp = r.native;
  const ctl = r.controller;
  const kcm = 'kube-controller-manager';
  const csW = r.writes.regatta.get(ctl);
  const dpW = r.writes.native.get(kcm);
  const csRatio = cs.durationS === undefined ? undefined : cs.durationS / cs.boundS;
  const writesGoal = r.writesGoalPerPod;
  const out: string[] = [];

  out.push(
    `${r.title}; ${r.nodes} simulated nodes`,
    '',
    table([
      ['', cs.label, dp.label, `${cs.name} / ${dp.name}`, 'goal'],
      [
        'duration, patch → status done (s)',
        cs.durationS === undefined ? `> ${cs.timeoutS} (not done)` : fmt(cs.durationS, 1),
        dp.durationS === undefined ? `> ${dp.timeoutS} (not done)` : fmt(dp.durationS, 1),
        ratio(cs.durationS ?? NaN, dp.durationS ?? NaN),
        '',
      ],
      ['bound (s)', fmt(cs.boundS, 1), fmt(dp.boundS, 1), ratio(cs.boundS, dp.boundS), ''],
      [
        'duration / own bound',
        csRatio === undefined ? 'n/a' : fmt(csRatio, 2),
        dp.durationS === undefined ? 'n/a' : fmt(dp.durationS / dp.boundS, 2),
        '',
        `≤ 1.10: ${csRatio !== undefined && csRatio <= 1.1 ? 'met' : 'MISSED'}`,
      ],
      [
        'patch → last pod new and Ready (s)',
        cs.podsDoneS === undefined ? 'n/a' : fmt(cs.podsDoneS, 1),
        dp.podsDoneS === undefined ? 'n/a' : fmt(dp.podsDoneS, 1),
        ratio(cs.podsDoneS ?? NaN, dp.podsDoneS ?? NaN),
        '',
      ],
      [
        'controller pod writes / pod',
        `${perPod(csW?.podWrites ?? 0, n)} (${ctl})`,
        `${perPod(dpW?.podWrites ?? 0, n)} (${kcm})`,
        ratio(csW?.podWrites ?? 0, dpW?.podWrites ?? 0),
        writesGoalCell(writesGoal, csW?.podWrites ?? 0, dpW?.podWrites ?? 0, n, dp.name),
      ],
      [
        'controller writes of any kind / pod',
        perPod(csW?.all ?? 0, n),
        perPod(dpW?.all ?? 0, n),
        ratio(csW?.all ?? 0, dpW?.all ?? 0),
        // the recreate's goal is the whole cost of the native controllers'; an in-place goal counts pod writes only
        writesGoal === 'native' ? writesGoalCell(writesGoal, csW?.all ?? 0, dpW?.all ?? 0, n, dp.name) : '',
      ],
      [
        'workload status writes per rollout',
        `${workloadStatusWrites(csW)}`,
        `${workloadStatusWrites(dpW)}`,
        ratio(workloadStatusWrites(csW), workloadStatusWrites(dpW)),
        '',
      ],
      [
        'controller CPU during the rollout (s)',
        fmt(cs.cpuS[ctl] ?? NaN, 2),
        fmt(dp.cpuS[kcm] ?? NaN, 2),
        ratio(cs.cpuS[ctl] ?? NaN, dp.cpuS[kcm] ?? NaN),
        '',
      ],
      [
        '  + the watcher (Regatta reads through it)',
        fmt((cs.cpuS[ctl] ?? NaN) + (cs.cpuS['watcher'] ?? NaN), 2),
        fmt(dp.cpuS[kcm] ?? NaN, 2),
        ratio((cs.cpuS[ctl] ?? NaN) + (cs.cpuS['watcher'] ?? NaN), dp.cpuS[kcm] ?? NaN),
        '',
      ],
      [
        'controller peak RSS during the rollout',
        mib(cs.rssPeak[ctl]),
        mib(dp.rssPeak[kcm]),
        ratio(cs.rssPeak[ctl] ?? NaN, dp.rssPeak[kcm] ?? NaN),
        '',
      ],
      ['controller RSS before the workload (idle)', mib(cs.idleRss[ctl]), mib(dp.idleRss[kcm]), '', ''],
      ['controller VmHWM (peak since start)', mib(cs.hwm[ctl]), mib(dp.hwm[kcm]), '', ''],
      [
        'most pods unavailable at once',
        `${cs.maxUnavailable}`,
        `${dp.maxUnavailable}`,
        '',
        `≤ ${cs.batch} / ${dp.batch}: ${goal(cs.maxUnavailable <= cs.batch)} / ${goal(dp.maxUnavailable <= dp.batch)}`,
      ],
      [
        'N pods created to all ready (s)',
        fmt(cs.setupS, 1),
        fmt(dp.setupS, 1),
        ratio(cs.setupS, dp.setupS),
        '',
      ],
      [
        'controller exits: during setup / rollout',
        `${r.restarts.filter((x) => x.phase === `${cs.name} setup`).length} / ` +
          `${r.restarts.filter((x) => x.phase === `${cs.name} rollout`).length}`,
        '(not supervised)',
        '',
        '',
      ],
    ]),
  );

  // progress: when each batch's worth of pods was done
  const batches = Math.ceil(n / cs.batch);
  const ideal = (k: number, batch: number) => fmt((Math.ceil(k / batch) * r.restartMs) / 1000, 1);
  const rows: (string | number)[][] = [
    [
      'pods new and Ready',
      `${cs.name} at (s)`,
      'Δ (s)',
      'ideal (s)',
      `${dp.name} at (s)`,
      'Δ (s)',
      'ideal (s)',
    ],
  ];
  const at = (xs: number[], k: number) => xs[k - 1] ?? NaN;
  for (let b = 1; b <= batches; b++) {
    const k = Math.min(n, b * cs.batch);
    const kPrev = (b - 1) * cs.batch;
    const delta = (xs: number[]) => at(xs, k) - (kPrev ? at(xs, kPrev) : 0);
    rows.push([
      `${k}`,
      fmt(at(cs.podDoneS, k), 1),
      fmt(delta(cs.podDoneS), 1),
      ideal(k, cs.batch),
      fmt(at(dp.podDoneS, k), 1),
      fmt(delta(dp.podDoneS), 1),
      ideal(k, dp.batch),
    ]);
  }
  out.push(
    '',
    'Progress (from the pods: first seen at the new image and Ready; from the image patch; ideal: ' +
      'ceil(k/batch)·t)',
    '',
    table(rows),
  );

  // writes by client
  const clients = [
    ...new Set([...r.writes.regatta.keys(), ...r.writes.native.keys()].filter((c) => c !== 'bench')),
  ].sort();
  const wrows: (string | number)[][] = [
    ['client', 'resource verb', `${cs.name} side`, '/pod', `${dp.name} side`, '/pod'],
  ];
  for (const c of clients) {
    const a = r.writes.regatta.get(c);
    const b = r.writes.native.get(c);
    const kinds = [...new Set([...(a?.byKind.keys() ?? []), ...(b?.byKind.keys() ?? [])])].sort();
    for (const k of kinds) {
      const x = a?.byKind.get(k) ?? 0;
      const y = b?.byKind.get(k) ?? 0;
      wrows.push([c, k, x, perPod(x, n), y, perPod(y, n)]);
    }
    wrows.push([
      c,
      `= all (failed; after done)`,
      `${a?.all ?? 0} (${a?.failed ?? 0}; ${a?.afterDone ?? 0})`,
      perPod(a?.all ?? 0, n),
      `${b?.all ?? 0} (${b?.failed ?? 0}; ${b?.afterDone ?? 0})`,
      perPod(b?.all ?? 0, n),
    ]);
  }
  out.push(
    '',
    `API writes from the audit log, patch → done + ${TAIL_MS / 1000} s, by user agent (create/update/patch/delete; ` +
      '"failed": answered with an error status; "after done": in the tail)',
    '',
    table(wrows),
  );
  const how = (who: string, w: WriteTally | undefined) =>
    w
      ? `${who}: pod writes up to done at most ${w.podConcurrency} in flight at once, API latency p50 ` +
        `${fmt(w.podLatencyP50, 0)} ms, at least one in flight during ${fmt(100 * w.podBusyShare, 0)} % ` +
        `of patch → done; ${w.podsWritten} pods written by name, at most ${w.maxPerPod} writes on one`
      : `${who}: no writes`;
  out.push('', how(ctl, csW), how(kcm, dpW));

  // CPU of everything, both windows
  const names = [...new Set([...Object.keys(cs.cpuS), ...Object.keys(dp.cpuS)])];
  out.push(
    '',
    'CPU seconds per process, patch → done (the machine has 2 cores)',
    '',
    table([
      ['process', `${cs.name} side`, `${dp.name} side`],
      ...names.map((k) => [k, fmt(cs.cpuS[k] ?? NaN, 2), fmt(dp.cpuS[k] ?? NaN, 2)]),
    ]),
  );
  for (const p of [cs, dp]) {
    const elsewhere = p.cpuS['everything else'] ?? 0;
    const elapsed = p.durationS ?? p.timeoutS;
    if (elsewhere / elapsed > 0.25)
      out.push(
        '',
        `Note: during the ${p.name} rollout, work outside the benchmark used ${fmt((100 * elsewhere) / elapsed, 0)} % ` +
          'of a core: the machine was shared, and these figures are slower than a quiet run.',
      );
  }
  for (const x of r.restarts) {
    out.push(
      '',
      `${x.name} EXITED during the ${x.phase} (code ${x.code}) and was started again: ${x.reason}` +
        (x.phase === `${cs.name} rollout` ? ' (its CPU and memory figures cover only the part before)' : ''),
    );
  }
  out.push('', `${cs.name} at the end: ${cs.finalStatus}`, `  ${cs.notes.join('\n  ')}`);
  out.push(`${dp.name} at the end: ${dp.finalStatus}`, `  ${dp.notes.join('\n  ')}`);
  return out.join('\n');
}
