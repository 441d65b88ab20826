/**
 * The cluster side of `regatta rollout`: read the workload (and its ControllerRevisions), print, patch. Decisions
 * are the pure functions of this library; this file only does the calls and the waiting.
 */
import { NotFoundError, UnknownResourceError, type KubeClient } from '@regatta/kube';
import { RolloutCliError, RolloutTimeoutError, WorkloadNotFoundError } from './errors.js';
import { formatHistory, revisionHistory, type ControllerRevision } from './history.js';
import type { RolloutTarget } from './kinds.js';
import { pausePatch } from './pause.js';
import { rolloutProgress, type Workload } from './progress.js';
import { formatSummary, rolloutTraceOf } from './summary.js';

export interface RolloutContext {
  client: KubeClient;
  namespace: string;
  /** Where results go (stdout). */
  out: (text: string) => void;
}

async function readWorkload(ctx: RolloutContext, t: RolloutTarget): Promise<Workload> {
  try {
    return await ctx.client.get<Workload>({
      apiVersion: t.info.apiVersion,
      kind: t.info.kind,
      namespace: ctx.namespace,
      name: t.name,
    });
  } catch (e) {
    if (e instanceof UnknownResourceError) {
      throw new RolloutCliError(
        'REGATTA_ROLLOUT_KIND_NOT_SERVED',
        `the cluster does not serve ${t.info.kind} (${t.info.apiVersion}); is its CRD installed?`,
        1,
        { cause: e },
      );
    }
    if (e instanceof NotFoundError) throw new WorkloadNotFoundError(t.info.title, t.name, ctx.namespace, { cause: e });
    throw e;
  }
}

export interface StatusOptions {
  watch: boolean;
  /** 0: no limit. */
  timeoutMs: number;
  intervalMs?: number;
  jaeger?: string | undefined;
}

/** Prints the summary (again every interval with `watch`); resolves true when complete. */
export async function rolloutStatus(ctx: RolloutContext, t: RolloutTarget, opts: StatusOptions): Promise<boolean> {
  const deadline = opts.timeoutMs > 0 ? Date.now() + opts.timeoutMs : Number.POSITIVE_INFINITY;
  let last = '';
  for (;;) {
    const w = await readWorkload(ctx, t);
    const progress = rolloutProgress(t.info.kind, w);
    const text = formatSummary(t.info, t.name, progress, rolloutTraceOf(w, opts.jaeger));
    if (text !== last || !opts.watch) ctx.out(`${text}\n`);
    last = text;
    if (progress.complete || !opts.watch) return progress.complete;
    if (Date.now() >= deadline) {
      throw new RolloutTimeoutError(
        `timed out waiting for ${t.info.title} ${JSON.stringify(t.name)}: still waiting for ${progress.pending.join('; ')}`,
      );
    }
    await new Promise((r) => setTimeout(r, Math.min(opts.intervalMs ?? 2000, Math.max(0, deadline - Date.now()))));
  }
}

/** Sets the pause switch; prints what was done (or that nothing needed doing). */
export async function rolloutSetPaused(ctx: RolloutContext, t: RolloutTarget, paused: boolean): Promise<void> {
  const patch = pausePatch(t.info, paused);
  const w = await readWorkload(ctx, t);
  const label = `${t.info.title} ${JSON.stringify(t.name)}`;
  if (rolloutProgress(t.info.kind, w).paused === paused) {
    ctx.out(`${label} is already ${paused ? 'paused' : 'resumed'}\n`);
    return;
  }
  await ctx.client.patch(
    { apiVersion: t.info.apiVersion, kind: t.info.kind, namespace: ctx.namespace, name: t.name },
    patch,
    { type: 'merge' },
  );
  ctx.out(`${label} ${paused ? 'paused' : 'resumed'} (spec.${t.info.pausedPath!.join('.')}=${paused})\n`);
}

/** Prints the workload's ControllerRevisions, marking the current and update revisions. */
export async function rolloutHistory(ctx: RolloutContext, t: RolloutTarget, now = new Date()): Promise<void> {
  const w = await readWorkload(ctx, t);
  const progress = rolloutProgress(t.info.kind, w);
  const list = await ctx.client.list<ControllerRevision>({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    namespace: ctx.namespace,
  });
  const rows = revisionHistory(w.metadata?.uid ?? '', list.items, progress, now);
  ctx.out(`${t.info.title} ${JSON.stringify(t.name)}\n${formatHistory(rows)}\n`);
}
