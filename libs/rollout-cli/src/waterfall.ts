/**
 * `regatta trace KIND/NAME`: a rollout's trace (docs/adr/0007, libs/workload rollout-tracer.ts) as Jaeger's query API
 * returns it (`GET /api/traces/<id>`), turned into a terminal waterfall. Pure: Jaeger's JSON spans in, rows and lines
 * out (docs/rollout-cli.md "Following a rollout from the command line").
 *
 * Span names are `<prefix>.<short name>`: the root `<prefix>.rollout`, a `<prefix>.pod-update` per pod (attribute
 * `<prefix>.update.type` in-place / recreate), holds `<prefix>.pause` / `<prefix>.partition-hold`, `<prefix>.hook-wait`,
 * `<prefix>.rollout.resumed` when another process ended the rollout (the root span is then never exported), and a
 * UnitedDeployment's `uniteddeployment.subset-create|update|delete|rollout`.
 */
import { columnWidths } from './table.js';

/** A span of Jaeger's JSON model (times in microseconds since the epoch). */
export interface JaegerJsonSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references?: { refType: string; traceID: string; spanID: string }[] | null;
  startTime: number;
  duration: number;
  tags?: { key: string; type?: string; value: unknown }[] | null;
  processID?: string;
}

/** One trace of Jaeger's `{"data": [trace]}` answer. */
export interface JaegerJsonTrace {
  traceID: string;
  spans: JaegerJsonSpan[];
}

/** What the workload's `regatta.dev/rollout-trace` record adds (the rollout's start and end when the root is absent). */
export interface WaterfallRecord {
  from: string;
  to: string;
  start: string;
  end?: string;
  done?: boolean;
}

export type RowKind = 'rollout' | 'pod-update' | 'hold' | 'hook-wait' | 'subset' | 'resumed' | 'other';

export interface WaterfallRow {
  kind: RowKind;
  /** The span name without its prefix: `rollout`, `pod-update`, `partition-hold`… */
  name: string;
  /** Milliseconds from the rollout's start (negative: began before it). */
  offsetMs: number;
  /** undefined: no end known (the rollout line of a rollout still running, or whose root span is missing). */
  durationMs: number | undefined;
  /** Pod name, or `subset/workload` of a UnitedDeployment. */
  target: string;
  /** `in place`, `recreate`, the hold, the hook, the subset write's reason. */
  detail: string;
}

export interface WaterfallTotals {
  inPlace: number;
  recreated: number;
  /** Pod updates of another type (or none given). */
  otherUpdates: number;
  holdMs: number;
  holds: number;
  hookWaitMs: number;
  hookWaits: number;
  subsetWrites: number;
}

export interface Waterfall {
  prefix: string;
  /** Span start of the rollout, ms since the epoch. */
  startMs: number;
  /** The rollout's total, when its end is known. */
  totalMs: number | undefined;
  /** How the rollout line was made: the root span, the `rollout.resumed` span, or the record (root not in Jaeger). */
  rootFrom: 'root' | 'resumed' | 'record' | 'spans';
  /** Where the bars end: the rollout's end, else now or the last span's end. */
  barEndMs: number;
  rows: WaterfallRow[];
  totals: WaterfallTotals;
}

const tagsOf = (s: JaegerJsonSpan): Map<string, unknown> =>
  new Map((s.tags ?? []).map((t) => [t.key, t.value]));
const tagText = (tags: Map<string, unknown>, key: string): string => {
  const v = tags.get(key);
  return v === undefined || v === null ? '' : String(v);
};
const splitName = (op: string): [string, string] => {
  const dot = op.indexOf('.');
  return dot < 0 ? ['', op] : [op.slice(0, dot), op.slice(dot + 1)];
};
const ms = (us: number): number => us / 1000;

function kindOf(short: string): RowKind {
  if (short === 'rollout') return 'rollout';
  if (short === 'rollout.resumed') return 'resumed';
  if (short === 'pod-update') return 'pod-update';
  if (short === 'pause' || short === 'partition-hold') return 'hold';
  if (short === 'hook-wait') return 'hook-wait';
  if (short.startsWith('subset-')) return 'subset';
  return 'other';
}

function describeSpan(
  prefix: string,
  kind: RowKind,
  tags: Map<string, unknown>,
): { target: string; detail: string } {
  // `pod.name` in traces written before the semantic-convention key
  const pod = tagText(tags, 'k8s.pod.name') || tagText(tags, 'pod.name');
  switch (kind) {
    case 'pod-update': {
      const how = tagText(tags, `${prefix}.update.type`);
      return { target: pod, detail: how === 'in-place' ? 'in place' : how };
    }
    case 'hold':
      return { target: '', detail: `hold: ${tagText(tags, `${prefix}.hold`) || 'unknown'}` };
    case 'hook-wait':
      return { target: pod, detail: `hook: ${tagText(tags, `${prefix}.lifecycle.hook`) || 'unknown'}` };
    case 'subset': {
      const subset = tagText(tags, `${prefix}.subset`);
      const workload = tagText(tags, `${prefix}.workload`);
      const kindName = tagText(tags, `${prefix}.workload.kind`);
      return {
        target: [subset, workload].filter(Boolean).join('/'),
        detail: [kindName, tagText(tags, `${prefix}.reason`)].filter(Boolean).join(': '),
      };
    }
    case 'rollout':
    case 'resumed': {
      const from = tagText(tags, `${prefix}.revision.from`);
      const to = tagText(tags, `${prefix}.revision.to`);
      return { target: '', detail: from && to ? `${from} → ${to}` : to ? `to ${to}` : '' };
    }
    default:
      return { target: pod, detail: '' };
  }
}

const RANK: Record<RowKind, number> = {
  rollout: 0,
  resumed: 1,
  hold: 2,
  subset: 3,
  'hook-wait': 4,
  'pod-update': 5,
  other: 6,
};

/**
 * The waterfall of a rollout trace: the rollout line first (the root span; else the `rollout.resumed` span that ended
 * it; else made from the record or the spans), then every other span by start. `nowMs` ends a running rollout's bar.
 */
export function traceWaterfall(trace: JaegerJsonTrace, record?: WaterfallRecord, nowMs?: number): Waterfall {
  const spans = trace.spans;
  const root =
    spans.find(
      (s) =>
        splitName(s.operationName)[1] === 'rollout' &&
        !(s.references ?? []).some((r) => r.refType === 'CHILD_OF'),
    ) ?? spans.find((s) => splitName(s.operationName)[1] === 'rollout');
  const resumed = root ? undefined : spans.find((s) => splitName(s.operationName)[1] === 'rollout.resumed');
  const head = root ?? resumed;
  const prefix = splitName((head ?? spans[0])?.operationName ?? '')[0];

  const recordStart = record ? Date.parse(record.start) : Number.NaN;
  const recordEnd = record?.end ? Date.parse(record.end) : Number.NaN;
  const earliest = spans.length > 0 ? Math.min(...spans.map((s) => ms(s.startTime))) : Number.NaN;
  const latest = spans.length > 0 ? Math.max(...spans.map((s) => ms(s.startTime + s.duration))) : Number.NaN;

  let startMs: number;
  let endMs: number | undefined;
  let rootFrom: Waterfall['rootFrom'];
  if (head) {
    startMs = ms(head.startTime);
    endMs = ms(head.startTime + head.duration);
    rootFrom = root ? 'root' : 'resumed';
  } else if (!Number.isNaN(recordStart)) {
    startMs = recordStart;
    endMs = record?.done && !Number.isNaN(recordEnd) ? recordEnd : undefined;
    rootFrom = 'record';
  } else {
    startMs = Number.isNaN(earliest) ? 0 : earliest;
    endMs = undefined;
    rootFrom = 'spans';
  }

  const rows: WaterfallRow[] = [];
  const totals: WaterfallTotals = {
    inPlace: 0,
    recreated: 0,
    otherUpdates: 0,
    holdMs: 0,
    holds: 0,
    hookWaitMs: 0,
    hookWaits: 0,
    subsetWrites: 0,
  };
  const headDetail =
    describeSpan(prefix, 'rollout', head ? tagsOf(head) : new Map<string, unknown>()).detail ||
    (record ? `${record.from || '?'} → ${record.to}` : '');
  const note = root ? '' : resumed ? 'resumed: root span not in Jaeger' : 'root span not in Jaeger yet';
  rows.push({
    kind: 'rollout',
    name: 'rollout',
    offsetMs: 0,
    durationMs: endMs === undefined ? undefined : endMs - startMs,
    target: '',
    detail: [headDetail, note].filter(Boolean).join('; '),
  });

  const others = spans
    .filter((s) => s !== head)
    .map((s) => {
      const [, short] = splitName(s.operationName);
      const kind = kindOf(short);
      const tags = tagsOf(s);
      const d = describeSpan(prefix, kind, tags);
      return {
        kind,
        name: short,
        offsetMs: ms(s.startTime) - startMs,
        durationMs: ms(s.duration),
        target: d.target,
        detail: d.detail,
        how: tagText(tags, `${prefix}.update.type`),
      };
    })
    .sort(
      (a, b) =>
        a.offsetMs - b.offsetMs ||
        RANK[a.kind] - RANK[b.kind] ||
        a.target.localeCompare(b.target) ||
        a.name.localeCompare(b.name),
    );
  for (const { how, ...row } of others) {
    rows.push(row);
    if (row.kind === 'pod-update') {
      if (how === 'in-place') totals.inPlace++;
      else if (how === 'recreate') totals.recreated++;
      else totals.otherUpdates++;
    } else if (row.kind === 'hold') {
      totals.holds++;
      totals.holdMs += row.durationMs ?? 0;
    } else if (row.kind === 'hook-wait') {
      totals.hookWaits++;
      totals.hookWaitMs += row.durationMs ?? 0;
    } else if (row.kind === 'subset') {
      totals.subsetWrites++;
    }
  }
  // a running rollout's bar reaches now (or its last span)
  const barEnd =
    endMs ?? Math.max(nowMs ?? Number.NEGATIVE_INFINITY, Number.isNaN(latest) ? startMs : latest);
  return {
    prefix,
    startMs,
    totalMs: endMs === undefined ? undefined : endMs - startMs,
    rootFrom,
    barEndMs: barEnd,
    rows,
    totals,
  };
}

/** A span's time as a person reads it: `850ms`, `12.3s`, `2m05s`, `1h02m`. */
export function formatSpanTime(msValue: number): string {
  const sign = msValue < 0 ? '-' : '';
  const v = Math.abs(msValue);
  if (v < 1000) return `${sign}${Math.round(v)}ms`;
  if (v < 60_000) return `${sign}${(v / 1000).toFixed(1)}s`;
  const s = Math.round(v / 1000);
  if (s < 3600) return `${sign}${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  const m = Math.round(s / 60);
  return `${sign}${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

const BAR: Record<RowKind, string> = {
  rollout: '━',
  resumed: '━',
  'pod-update': '█',
  subset: '█',
  hold: '░',
  'hook-wait': '▒',
  other: '▪',
};

/** The bar of one row, `width` columns from the rollout's start to `barEndMs`; at least one column wide. */
function bar(row: WaterfallRow, w: Waterfall, width: number): string {
  const span = Math.max(1, w.barEndMs - w.startMs);
  const col = (t: number) => Math.min(width, Math.max(0, (t / span) * width));
  const from = Math.min(width - 1, Math.floor(col(row.offsetMs)));
  const endMs = row.durationMs === undefined ? w.barEndMs - w.startMs : row.offsetMs + row.durationMs;
  const to = Math.max(from + 1, Math.ceil(col(endMs)));
  const open = row.durationMs === undefined;
  const filled = BAR[row.kind].repeat(to - from - (open ? 1 : 0)) + (open ? '>' : '');
  return `|${' '.repeat(from)}${filled}${' '.repeat(width - to)}|`;
}

/** The footer: pods updated in place / recreated, holds and hook waits with their time, the rollout's total. */
export function formatTotals(w: Waterfall): string {
  const t = w.totals;
  const pods = t.inPlace + t.recreated + t.otherUpdates;
  const parts = [
    `${pods} pod${pods === 1 ? '' : 's'} updated: ${t.inPlace} in place, ${t.recreated} recreated` +
      (t.otherUpdates > 0 ? `, ${t.otherUpdates} other` : ''),
    `holds: ${t.holds}${t.holds > 0 ? ` (${formatSpanTime(t.holdMs)})` : ''}`,
  ];
  if (t.hookWaits > 0) parts.push(`hook waits: ${t.hookWaits} (${formatSpanTime(t.hookWaitMs)})`);
  if (t.subsetWrites > 0) parts.push(`subset writes: ${t.subsetWrites}`);
  parts.push(w.totalMs === undefined ? 'total: not ended' : `total: ${formatSpanTime(w.totalMs)}`);
  return parts.join('; ');
}

/**
 * The waterfall as lines: a header, one line per row (start offset, duration, span, pod or subset, detail, bar of
 * `width` columns), the totals. `duration` of a line without an end is `running` (`open` once the rollout is done).
 */
export function formatWaterfall(w: Waterfall, width: number, opts: { done?: boolean } = {}): string[] {
  const cells = w.rows.map((r) => [
    r.offsetMs < 0 ? formatSpanTime(r.offsetMs) : `+${formatSpanTime(r.offsetMs)}`,
    r.durationMs === undefined ? (opts.done ? 'open' : 'running') : formatSpanTime(r.durationMs),
    r.name,
    r.target || '-',
    r.detail || '-',
  ]);
  const header = ['START', 'DURATION', 'SPAN', 'POD/SUBSET', 'DETAIL'];
  const widths = columnWidths([header, ...cells]);
  const line = (c: string[], tail: string) => `${c.map((v, i) => v.padEnd(widths[i]!)).join('  ')}  ${tail}`;
  return [
    line(header, 'WATERFALL'),
    ...cells.map((c, i) => line(c, bar(w.rows[i]!, w, width))),
    formatTotals(w),
  ];
}

/**
 * The last `n` pod updates of the waterfall (by end), under the rollout line, as `formatWaterfall` prints them without
 * the footer: what `rollout status --watch` shows under the counts.
 */
export function formatRecentPodUpdates(w: Waterfall, n: number, width: number): string[] {
  const end = (r: WaterfallRow) => r.offsetMs + (r.durationMs ?? 0);
  const pods = w.rows
    .filter((r) => r.kind === 'pod-update')
    .sort((a, b) => end(a) - end(b))
    .slice(-n)
    .sort((a, b) => a.offsetMs - b.offsetMs);
  if (pods.length === 0) return [];
  return formatWaterfall({ ...w, rows: [w.rows[0]!, ...pods] }, width).slice(0, -1);
}
