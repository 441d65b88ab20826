// Benchmark 8a's report (tools/bench/sidecarset-latency.ts; docs/benchmarks-sidecarset.md section 8a): the phases' latencies,
// the comparisons with the goals, the selected pods' added time split into the larger pod and the webhook call, and
// the API server's, the program's and its webhook server's own account of each phase.
import { fmt, table } from './common.js';
import { countOver, type HistogramDelta } from './histogram-delta.js';
import { type LatencyComparison, SELECTED_ADDED_P99_GOAL_MS } from './sidecarset-figures.js';
import type { ScsLatencyPhase, ScsLatencyResult } from './sidecarset-latency.js';

/** The ratios and differences of b and c against one baseline, with the goals. */
function compared(title: string, base: string, c: LatencyComparison, unselected = 'unselected (b'): string {
  const x = (v: number) => `${fmt(v, 2)}×`;
  const goal = (ok: boolean) => (ok ? 'met' : 'MISSED');
  return table([
    [title, 'p50', 'p99', 'goal'],
    [
      `${unselected}/${base})`,
      x(c.unselectedRatio.p50),
      x(c.unselectedRatio.p99),
      `1.0× (p50 within 10 %): ${goal(c.unselectedGoalMet)}`,
    ],
    [`selected (c/${base})`, x(c.selectedRatio.p50), x(c.selectedRatio.p99), ''],
    [
      `selected − ${base} (ms)`,
      fmt(c.selectedAdded.p50),
      fmt(c.selectedAdded.p99),
      `p99 ≤ +${SELECTED_ADDED_P99_GOAL_MS} ms: ${goal(c.selectedGoalMet)}`,
    ],
  ]);
}

export function reportSidecarSetLatency(r: ScsLatencyResult): string {
  const c = r.comparison;
  const injected = (p: ScsLatencyPhase) => `${p.injected}/${p.latencies.length}`;
  return [
    `SidecarSet pod webhook: pod create-call latency (ms, client-side, request → response), ${r.pods} pods per ` +
      `phase created one at a time (${r.warmup} warm-up pods each, not counted); no scheduler, pods stay Pending`,
    '',
    table([
      [
        'phase',
        'p50',
        'p90',
        'p99',
        'max',
        'mean',
        'injected',
        'pod (B)',
        'managedFields (B)',
        'watcher + program (% core)',
        'other work (% core)',
      ],
      ...r.phases.map((p) => [
        p.name,
        fmt(p.summary.p50),
        fmt(p.summary.p90),
        fmt(p.summary.p99),
        fmt(p.summary.max),
        fmt(p.summary.mean),
        injected(p),
        fmt(p.podBytes, 0),
        fmt(p.managedFieldsBytes, 0),
        fmt(p.regattaCpu, 0),
        fmt(p.otherCpu, 0),
      ]),
      [
        'baseline (pooled)',
        fmt(c.baseline.p50),
        fmt(c.baseline.p90),
        fmt(c.baseline.p99),
        fmt(c.baseline.max),
        fmt(c.baseline.mean),
        '',
        '',
        '',
        '',
        '',
      ],
    ]),
    '',
    compared('against no Regatta process (a, pooled)', 'a', r.comparison),
    '',
    compared(
      'against the same processes without webhooks (a2: what the webhook alone adds)',
      'a2',
      r.sameProcesses,
      "unselected alone (b'",
    ),
    '',
    "the selected pods' added time, split (ms): the injected pod created as such with no webhook against a2's",
    'plain pods of the same label (a larger pod), and the selected pods against that (the webhook call)',
    '',
    table([
      ['part', 'p50', 'p99'],
      [
        'larger pod (injected as created − a2 label yes)',
        fmt(r.split.largerPod.p50),
        fmt(r.split.largerPod.p99),
      ],
      [
        'webhook call (selected − injected as created)',
        fmt(r.split.webhookCall.p50),
        fmt(r.split.webhookCall.p99),
      ],
    ]),
    '',
    "The API server's own account of the admission work (apiserver_admission_webhook_admission_duration_seconds,",
    'type admit, CREATE; apiserver_admission_match_condition_evaluation_seconds), over each measured phase:',
    '',
    table([
      [
        'phases',
        'webhook calls',
        'mean call (ms)',
        ...over(r.phases.find((p) => p.webhookCalls > 0)?.webhookHistogram, 'calls >'),
        'match-condition evaluations',
        'mean evaluation (ms)',
      ],
      ...groups(r).map((ps) => {
        const p = ps[0];
        return [
          names(ps),
          p?.webhookCalls ?? 0,
          fmt(p?.webhookMeanMs ?? NaN, 2),
          ...overCounts(p?.webhookHistogram, r.phases.find((q) => q.webhookCalls > 0)?.webhookHistogram),
          p?.matchConditions ?? 0,
          fmt(p?.matchConditionMeanMs ?? NaN, 3),
        ];
      }),
    ]),
    '',
    "The sidecarset program's event loop (how late its timers ran: a webhook request arriving then waits as long)",
    'and garbage collections over each phase it ran in (its /metrics; delay resolution 10 ms, so p50 ≈ 10 is idle):',
    '',
    table([
      [
        'phases',
        'delay p50',
        'delay p99',
        'delay max',
        'collections',
        'GC ms',
        'GC > 1 ms',
        'GC > 10 ms',
        'full (ms)',
      ],
      ...groups(r).flatMap((ps) => {
        const l = ps[0]?.loop;
        if (!l) return [];
        return [
          [
            names(ps),
            fmt(l.delayP50Ms),
            fmt(l.delayP99Ms),
            fmt(l.delayMaxMs),
            l.gcCount,
            fmt(l.gcMs),
            l.gcOver1Ms,
            l.gcOver10Ms,
            `${l.gcMajor} (${fmt(l.gcMajorMs)})`,
          ],
        ];
      }),
    ]),
    '',
    "The program's webhook server over each phase it served in: TLS connections it accepted during the phase (0 = the",
    "API server's connection of the warm-up served every call) and its requests' time, headers → answer ready:",
    '',
    table([
      [
        'phases',
        'requests',
        'TLS connections (since start)',
        'mean in server (ms)',
        ...over(serverBuckets(r), 'requests >'),
      ],
      ...groups(r).flatMap((ps) => {
        const h = ps[0]?.serverLatency;
        if (!h) return [];
        return [
          [
            names(ps),
            h.count,
            `${ps[0]?.serverConnections ?? NaN} (${ps[0]?.serverConnectionsSinceStart ?? NaN})`,
            fmt(h.count > 0 ? (1000 * h.sum) / h.count : NaN, 3),
            ...overCounts(h, serverBuckets(r)),
          ],
        ];
      }),
    ]),
    ...(r.gapMs ? ['', `a pause of ${r.gapMs} ms before each measured create (every phase)`] : []),
    ...(r.programNodeArgs === undefined
      ? []
      : ['', `the sidecarset program ran with Node flags "${r.programNodeArgs}" (not the run's)`]),
    ...(r.restarts > 0
      ? ['', `the sidecarset program or the watcher EXITED ${r.restarts} time(s) (see the logs)`]
      : []),
    ...r.phases
      .filter((p) => p.otherCpu > 25)
      .map(
        (p) =>
          `note: during "${p.name}" work outside the benchmark used ${fmt(p.otherCpu, 0)} % of a core: the machine ` +
          'was shared, and its latencies are disturbed',
      ),
  ].join('\n');
}

/** Bounds (seconds) the report counts observations above, where the histogram has them. */
const OVER = [0.001, 0.005, 0.01, 0.025, 0.1];

const ms = (s: number) => `${fmt(1000 * s, s < 0.001 ? 2 : 0)} ms`;

/** Column titles for the bounds of `h` among OVER. */
function over(h: HistogramDelta | undefined, title: string): string[] {
  return (h?.buckets ?? []).filter((b) => OVER.includes(b.le)).map((b) => `${title} ${ms(b.le)}`);
}

/** `h`'s counts above the bounds `like` has among OVER (the columns of {@link over}). */
function overCounts(h: HistogramDelta | undefined, like: HistogramDelta | undefined): (number | string)[] {
  return (like?.buckets ?? [])
    .filter((b) => OVER.includes(b.le))
    .map((b) => (h && h.count > 0 ? countOver(h, b.le) : ''));
}

const serverBuckets = (r: ScsLatencyResult) =>
  r.phases.find((p) => (p.serverLatency?.count ?? 0) > 0)?.serverLatency;

/** The phases measured together (alternating pod by pod), in the order they ran. */
const groups = (r: ScsLatencyResult): ScsLatencyPhase[][] =>
  [...new Set(r.phases.map((p) => p.group))].map((g) => r.phases.filter((p) => p.group === g));

const names = (ps: ScsLatencyPhase[]) => ps.map((q) => q.name).join(' + ');
