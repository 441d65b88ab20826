/**
 * What the dashboard's JSON endpoints answer, made from what libs/rollout-cli already computes (pure): the `regatta
 * list` rows with what the page needs to draw them, a workload's summary, and a rollout's waterfall (waterfall.ts
 * `traceWaterfall`) as bars placed in percent of the rollout's time instead of terminal columns.
 */
import {
  ROLLOUT_KINDS,
  formatAge,
  formatSpanTime,
  formatTotals,
  parseTarget,
  type KindInfo,
  type ListRow,
  type RolloutTarget,
  type Waterfall,
  type WaterfallRow,
} from '@regatta/rollout-cli';
import { DashboardUsageError } from './guard.js';

/** One workload line of the page: the `regatta list` row, its age as text and which button it gets. */
export interface WorkloadItem extends ListRow {
  /** Unique on the page: `namespace/kind/name` (`-/sidecarset/name` for the cluster-scoped kind). */
  id: string;
  /** `CloneSet`, `Advanced StatefulSet`… */
  title: string;
  age: string;
  /** Whether the kind has a pause switch (a UnitedDeployment has none). */
  pausable: boolean;
  /** The button the row offers: pause a rollout in progress, resume a paused one. */
  action: 'pause' | 'resume' | undefined;
}

export interface WorkloadsView {
  /** `namespace "x"` or `all namespaces`. */
  scope: string;
  items: WorkloadItem[];
  /** Counts by rollout phase, for the header. */
  phases: Record<string, number>;
}

const infoOf = (kind: string): KindInfo => {
  const info = ROLLOUT_KINDS.find((k) => k.names[0] === kind);
  if (!info) throw new DashboardUsageError(`unknown kind ${JSON.stringify(kind)}`);
  return info;
};

export function workloadId(row: Pick<ListRow, 'kind' | 'name' | 'namespace'>): string {
  return `${row.namespace ?? '-'}/${row.kind}/${row.name}`;
}

export function workloadItem(row: ListRow): WorkloadItem {
  const info = infoOf(row.kind);
  const pausable = info.pausedPath !== undefined;
  return {
    ...row,
    id: workloadId(row),
    title: info.title,
    age: formatAge(row.ageSeconds),
    pausable,
    action: !pausable ? undefined : row.phase === 'Progressing' ? 'pause' : row.phase === 'Paused' ? 'resume' : undefined,
  };
}

export function workloadsView(rows: readonly ListRow[], scope: { allNamespaces: boolean; namespace: string }): WorkloadsView {
  const phases: Record<string, number> = {};
  for (const r of rows) phases[r.phase] = (phases[r.phase] ?? 0) + 1;
  return {
    scope: scope.allNamespaces ? 'all namespaces' : `namespace ${JSON.stringify(scope.namespace)}`,
    items: rows.map(workloadItem),
    phases,
  };
}

/** The workload a request names (`kind` as `regatta list` prints it, or any name `rollout` takes). */
export interface WorkloadRef {
  target: RolloutTarget;
  /** Undefined for the cluster-scoped SidecarSet. */
  namespace: string | undefined;
}

const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Reads `{kind, namespace, name}` from a query string or a POST body; usage errors name the bad field. */
export function workloadRef(input: Record<string, unknown>, defaultNamespace: string): WorkloadRef {
  const text = (k: string): string | undefined => {
    const v = input[k];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') throw new DashboardUsageError(`${k} must be a string`);
    return v;
  };
  const kind = text('kind');
  const name = text('name');
  if (!kind || !name) throw new DashboardUsageError('kind and name are required');
  if (!NAME.test(name)) throw new DashboardUsageError(`name ${JSON.stringify(name)} is not a Kubernetes object name`);
  const target = parseTarget(`${kind}/${name}`);
  if (target.info.clusterScoped) return { target, namespace: undefined };
  const namespace = text('namespace') ?? defaultNamespace;
  if (!NAME.test(namespace)) throw new DashboardUsageError(`namespace ${JSON.stringify(namespace)} is not a namespace name`);
  return { target, namespace };
}

/** One bar of the waterfall: placed in percent of the rollout's time (0 = its start, 100 = its end or now). */
export interface WaterfallBar {
  kind: WaterfallRow['kind'];
  name: string;
  target: string;
  detail: string;
  /** `+1.2s`, `-40ms` (before the rollout began). */
  start: string;
  /** `850ms`, `running` (no end yet), `open` (no end, though the rollout is done). */
  duration: string;
  leftPct: number;
  widthPct: number;
  /** No end known: the bar reaches the right edge. */
  open: boolean;
}

export interface WaterfallView {
  bars: WaterfallBar[];
  /** Labels under the axis, from 0 to the rollout's end (or now): 5 of them. */
  ticks: string[];
  /** waterfall.ts `formatTotals`: pods in place / recreated, holds, hook waits, total. */
  totals: string;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The bars of a waterfall (the rollout first, then by start), as `formatWaterfall` orders its lines. */
export function waterfallView(w: Waterfall, opts: { done?: boolean } = {}): WaterfallView {
  const span = Math.max(1, w.barEndMs - w.startMs);
  const pct = (t: number) => Math.min(100, Math.max(0, (t / span) * 100));
  const bars = w.rows.map((r): WaterfallBar => {
    const open = r.durationMs === undefined;
    const left = pct(r.offsetMs);
    const end = open ? 100 : pct(r.offsetMs + (r.durationMs ?? 0));
    return {
      kind: r.kind,
      name: r.name,
      target: r.target,
      detail: r.detail,
      start: r.offsetMs < 0 ? formatSpanTime(r.offsetMs) : `+${formatSpanTime(r.offsetMs)}`,
      duration: open ? (opts.done ? 'open' : 'running') : formatSpanTime(r.durationMs ?? 0),
      leftPct: round(Math.min(left, 99.5)),
      // a span too short to see still gets a sliver
      widthPct: round(Math.max(0.5, end - Math.min(left, 99.5))),
      open,
    };
  });
  const ticks = [0, 1, 2, 3, 4].map((i) => formatSpanTime((span * i) / 4));
  return { bars, ticks, totals: formatTotals(w) };
}
