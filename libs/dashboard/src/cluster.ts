/**
 * The cluster and Jaeger side of the dashboard: each endpoint is a call of libs/rollout-cli, as the CLI's commands
 * make it (`regatta list`, `rollout status --watch`, `trace`, `rollout pause|resume`), with the user's own client.
 */
import {
  fetchJaegerTrace,
  formatSummary,
  listRow,
  listWorkloads,
  readPodView,
  readWorkload,
  rolloutProgress,
  rolloutSetPaused,
  rolloutTraceOf,
  traceWaterfall,
  type RolloutContext,
} from '@regatta/rollout-cli';
import { ROLLOUT_TRACE_ANNOTATION, parseRolloutRecord } from '@regatta/workload';
import { workloadItem, workloadsView, waterfallView, type WaterfallView, type WorkloadItem, type WorkloadRef, type WorkloadsView } from './view.js';

export interface DashboardSource {
  /** The user's client and the namespace of `-n` (or the context's). */
  ctx: RolloutContext;
  /** `-A`: every namespace's workloads. */
  allNamespaces: boolean;
  /** Jaeger's query address (`--jaeger`, `JAEGER_URL`); without it the page shows no waterfall. */
  jaeger: string | undefined;
  /** Pod rows per revision in the detail (as `rollout status --max-pods`). */
  podsPerGroup?: number;
}

const quiet = (ctx: RolloutContext, namespace: string | undefined): RolloutContext => ({
  client: ctx.client,
  namespace: namespace ?? ctx.namespace,
  out: () => undefined,
});

/** Every workload of the scope with its rollout phase (`regatta list`). */
export async function readWorkloads(src: DashboardSource, now = new Date()): Promise<WorkloadsView> {
  const rows = await listWorkloads(quiet(src.ctx, undefined), { allNamespaces: src.allNamespaces, output: 'json', now });
  return workloadsView(rows, { allNamespaces: src.allNamespaces, namespace: src.ctx.namespace });
}

export interface WorkloadDetail {
  item: WorkloadItem;
  /** Whether the pause switch is on (a completed rollout can be paused too). */
  paused: boolean;
  /** `rollout status`'s summary. */
  summary: string;
  /** `rollout status --watch`'s pods by revision (subset, sidecar hash). */
  pods: string[];
  trace?: { traceId: string; link?: string; done: boolean; from: string; to: string; start: string; end?: string };
}

/** One workload: its row, summary, pods and the reference of its latest rollout trace. */
export async function readDetail(src: DashboardSource, ref: WorkloadRef, now = new Date()): Promise<WorkloadDetail> {
  const ctx = quiet(src.ctx, ref.namespace);
  const w = await readWorkload(ctx, ref.target);
  const progress = rolloutProgress(ref.target.info.kind, w);
  const traceRef = rolloutTraceOf(w, src.jaeger);
  const record = parseRolloutRecord(w.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION]);
  const pods = await readPodView(ctx, ref.target, w, progress, { limit: src.podsPerGroup ?? 20, now });
  return {
    item: workloadItem(listRow(ref.target.info, w, now)),
    paused: progress.paused,
    summary: formatSummary(ref.target.info, ref.target.name, progress, traceRef),
    pods: pods.lines,
    ...(traceRef && record
      ? {
          trace: {
            ...traceRef,
            from: record.from,
            to: record.to,
            start: record.start,
            ...(record.end ? { end: record.end } : {}),
          },
        }
      : {}),
  };
}

/** The waterfall of the workload's latest rollout, or why there is none (no trace yet, Jaeger not given). */
export type TraceAnswer =
  | { traceId: string; spans: number; done: boolean; waterfall: WaterfallView }
  | { traceId?: string; message: string };

export async function readTrace(src: DashboardSource, ref: WorkloadRef, nowMs = Date.now()): Promise<TraceAnswer> {
  if (!src.jaeger) return { message: 'no Jaeger query address: start the dashboard with --jaeger URL or JAEGER_URL' };
  const w = await readWorkload(quiet(src.ctx, ref.namespace), ref.target);
  const record = parseRolloutRecord(w.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION]);
  const traceId = record ? /^00-([0-9a-f]{32})-/.exec(record.traceparent)?.[1] : undefined;
  if (!record || !traceId) {
    return { message: 'no rollout trace: the rollout has not begun, or its controller runs without tracing' };
  }
  const trace = await fetchJaegerTrace(src.jaeger, traceId, 5000);
  if (!trace) {
    return {
      traceId,
      message: `Jaeger has no trace ${traceId} yet: spans reach it a few seconds after they end`,
    };
  }
  const done = record.done === true;
  return { traceId, spans: trace.spans.length, done, waterfall: waterfallView(traceWaterfall(trace, record, nowMs), { done }) };
}

/** `rollout pause|resume`: the merge patch of the kind's pause switch; returns what the CLI would print. */
export async function setPaused(src: DashboardSource, ref: WorkloadRef, paused: boolean): Promise<string> {
  let said = '';
  await rolloutSetPaused(
    { client: src.ctx.client, namespace: ref.namespace ?? src.ctx.namespace, out: (t) => (said += t) },
    ref.target,
    paused,
  );
  return said.trim();
}
