/**
 * The cluster side of `regatta rollout`: read the workload (and its ControllerRevisions), print, patch. Decisions
 * are the pure functions of this library; this file only does the calls and the waiting.
 */
import { SidecarSetLabels } from '@regatta/api';
import {
  ConflictError,
  InvalidError,
  NotFoundError,
  UnknownResourceError,
  type KubeClient,
  type KubeObject,
} from '@regatta/kube';
import {
  RolloutCliError,
  RolloutDegradedError,
  RolloutTimeoutError,
  RolloutUsageError,
  WorkloadNotFoundError,
} from './errors.js';
import { formatHistory, ownedBy, revisionHistory, type ControllerRevision } from './history.js';
import type { RolloutTarget } from './kinds.js';
import { pausePatch } from './pause.js';
import { rolloutProgress, type RolloutProgress, type Workload } from './progress.js';
import { formatSummary, rolloutTraceOf } from './summary.js';
import { JaegerQueryError } from './errors.js';
import { fetchJaegerTrace } from './jaeger.js';
import { formatRecentPodUpdates, traceWaterfall } from './waterfall.js';
import {
  ROLLOUT_TRACE_ANNOTATION,
  parseRolloutRecord,
  rolloutPhase,
  type WorkloadCondition,
} from '@regatta/workload';
import { planUndo } from './undo.js';
import { formatStructured, type OutputFormat } from './output.js';
import { assertRestartable, restartPatch } from './restart.js';
import { readPodView } from './pod-list.js';
import { DEFAULT_PODS_PER_GROUP, redrawFrame, type TerminalSize } from './pod-view.js';

export interface RolloutContext {
  client: KubeClient;
  namespace: string;
  /** Where results go (stdout). */
  out: (text: string) => void;
}

function refOf(ctx: RolloutContext, t: RolloutTarget) {
  return {
    apiVersion: t.info.apiVersion,
    kind: t.info.kind,
    ...(t.info.clusterScoped ? {} : { namespace: ctx.namespace }),
    name: t.name,
  };
}

function labelOf(ctx: RolloutContext, t: RolloutTarget): string {
  return `${t.info.title} ${JSON.stringify(t.name)}${t.info.clusterScoped ? '' : ` in namespace ${JSON.stringify(ctx.namespace)}`}`;
}

export async function readWorkload(ctx: RolloutContext, t: RolloutTarget): Promise<Workload> {
  return readNamed<Workload>(ctx, t.info, t.name);
}

/**
 * The object `name` of a kind the CLI knows (a workload, a job kind), with the errors a person reads: the kind not
 * served (its CRD missing), the object not found in the namespace.
 */
export async function readNamed<T extends KubeObject>(
  ctx: RolloutContext,
  info: { kind: string; apiVersion: string; title: string; clusterScoped?: boolean },
  name: string,
): Promise<T> {
  const namespace = info.clusterScoped ? undefined : ctx.namespace;
  try {
    return await ctx.client.get<T>({
      apiVersion: info.apiVersion,
      kind: info.kind,
      ...(namespace === undefined ? {} : { namespace }),
      name,
    });
  } catch (e) {
    if (e instanceof UnknownResourceError) {
      throw new RolloutCliError(
        'REGATTA_ROLLOUT_KIND_NOT_SERVED',
        `the cluster does not serve ${info.kind} (${info.apiVersion}); is its CRD installed?`,
        1,
        { cause: e },
      );
    }
    if (e instanceof NotFoundError)
      throw new WorkloadNotFoundError(info.title, name, namespace, { cause: e });
    throw e;
  }
}

/**
 * The ControllerRevisions `w` controls. A workload's live in its namespace; a SidecarSet's in the SidecarSet
 * controller's namespace (libs/sidecarset `sidecarSetRevisionNamespace`), labelled `kruise.io/sidecarset-name`: they
 * are listed in every namespace by that label.
 */
async function ownedRevisions(
  ctx: RolloutContext,
  t: RolloutTarget,
  w: Workload,
): Promise<ControllerRevision[]> {
  const ref = { apiVersion: 'apps/v1', kind: 'ControllerRevision' };
  const list = t.info.clusterScoped
    ? await ctx.client.list<ControllerRevision>(ref, {
        labelSelector: { matchLabels: { [SidecarSetLabels.SidecarSetName]: t.name } },
      })
    : await ctx.client.list<ControllerRevision>({ ...ref, namespace: ctx.namespace });
  return ownedBy(w.metadata?.uid ?? '', list.items);
}

export interface StatusOptions {
  watch: boolean;
  /** 0: no limit. */
  timeoutMs: number;
  intervalMs?: number;
  jaeger?: string | undefined;
  /** With `watch` and `jaeger`: how many of the rollout's last pod updates to show from its trace. Default 3, 0: none. */
  recentPodUpdates?: number;
  /** With `watch`: the workload's pods under the summary, grouped by revision (subset, sidecar hash). Default true. */
  pods?: boolean;
  /** Pod rows per group; the rest are counted. Default {@link DEFAULT_PODS_PER_GROUP}. */
  podsPerGroup?: number;
  /**
   * With `watch`: stdout's terminal size when it is one (asked every frame: it may be resized). Then the frame is
   * redrawn in place every interval; without, a frame is printed only when it changed.
   */
  terminal?: () => TerminalSize | undefined;
  now?: () => Date;
  /** Without `watch`: json or yaml prints the progress as data instead of the summary. Default table. */
  output?: OutputFormat;
}

/**
 * With `status --watch`: the rollout's last pod updates from Jaeger (the same rows as `regatta trace`), or one line
 * saying why there are none. Short timeout: the view must keep refreshing.
 */
async function recentPodUpdateLines(w: Workload, jaeger: string, n: number): Promise<string[]> {
  const record = parseRolloutRecord(w.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION]);
  const traceId = record ? /^00-([0-9a-f]{32})-/.exec(record.traceparent)?.[1] : undefined;
  if (!record || !traceId) return [];
  const base = jaeger.replace(/\/+$/, '');
  try {
    const trace = await fetchJaegerTrace(base, traceId, 2000);
    const lines = trace ? formatRecentPodUpdates(traceWaterfall(trace, record), n, 20) : [];
    return lines.length > 0 ? ['  last pod updates (regatta trace):', ...lines.map((l) => `    ${l}`)] : [];
  } catch (e) {
    if (e instanceof JaegerQueryError) return [`  last pod updates: ${e.message}`];
    throw e;
  }
}

/**
 * What the controller says is stuck, as `type reason: message` of the condition that makes the rollout Degraded
 * (libs/workload `rolloutPhase`), or undefined while it is not.
 */
export function degradedReason(progress: RolloutProgress, w: Workload): string | undefined {
  const conditions = w.status?.['conditions'];
  if (rolloutPhase(progress, conditions) !== 'Degraded' || !Array.isArray(conditions)) return undefined;
  const c = (conditions as Partial<WorkloadCondition>[]).find(
    (x) =>
      (x.type === 'Progressing' && x.status === 'False') ||
      (x.type?.startsWith('Failed') && x.status === 'True'),
  );
  return c
    ? `${c.type} ${c.reason ?? ''}${c.message ? `: ${c.message}` : ''}`.replace(/ +/g, ' ').trim()
    : 'Degraded';
}

/**
 * Prints the summary (again every interval with `watch`, with the pods); resolves true when complete. With `watch`
 * it throws RolloutDegradedError once the controller reports the rollout stuck, RolloutTimeoutError past the timeout.
 */
export async function rolloutStatus(
  ctx: RolloutContext,
  t: RolloutTarget,
  opts: StatusOptions,
): Promise<boolean> {
  const deadline = opts.timeoutMs > 0 ? Date.now() + opts.timeoutMs : Number.POSITIVE_INFINITY;
  const interval = opts.intervalMs ?? 2000;
  const now = opts.now ?? (() => new Date());
  let last = '';
  let drawn = 0;
  const output = opts.output ?? 'table';
  if (opts.watch && output !== 'table')
    throw new RolloutUsageError('-o json|yaml cannot be used with --watch');
  for (;;) {
    const w = await readWorkload(ctx, t);
    const progress = rolloutProgress(t.info.kind, w);
    if (output !== 'table') {
      ctx.out(formatStructured(output, statusData(ctx, t, w, progress)));
      return progress.complete;
    }
    let text = formatSummary(t.info, t.name, progress, rolloutTraceOf(w, opts.jaeger));
    const recent = opts.recentPodUpdates ?? 3;
    if (opts.watch && opts.jaeger && recent > 0) {
      const lines = await recentPodUpdateLines(w, opts.jaeger, recent);
      if (lines.length > 0) text += `\n${lines.join('\n')}`;
    }
    let stable = text;
    if (opts.watch && opts.pods !== false) {
      const pods = await readPodView(ctx, t, w, progress, {
        limit: opts.podsPerGroup ?? DEFAULT_PODS_PER_GROUP,
        now: now(),
      });
      text += `\n${pods.lines.join('\n')}`;
      stable += `\n${pods.stable.join('\n')}`;
    }
    const size = opts.watch ? opts.terminal?.() : undefined;
    if (size) {
      const at = now().toISOString().slice(11, 19);
      const header = progress.complete ? `${at}` : `${at}  every ${interval / 1000}s, Ctrl-C to stop`;
      const frame = redrawFrame(drawn, `${header}\n${text}`, size);
      ctx.out(frame.bytes);
      drawn = frame.lines;
    } else if (stable !== last || !opts.watch) {
      ctx.out(`${text}\n`);
    }
    last = stable;
    if (progress.complete || !opts.watch) return progress.complete;
    const stuck = degradedReason(progress, w);
    if (stuck)
      throw new RolloutDegradedError(`${t.info.title} ${JSON.stringify(t.name)} is degraded: ${stuck}`);
    if (Date.now() >= deadline) {
      throw new RolloutTimeoutError(
        `timed out waiting for ${t.info.title} ${JSON.stringify(t.name)}: still waiting for ${progress.pending.join('; ')}`,
      );
    }
    await new Promise((r) => setTimeout(r, Math.min(interval, Math.max(0, deadline - Date.now()))));
  }
}

/** What `rollout status -o json|yaml` prints: the workload, its rollout phase and progress. */
function statusData(ctx: RolloutContext, t: RolloutTarget, w: Workload, progress: RolloutProgress) {
  return {
    ...refOf(ctx, t),
    phase: rolloutPhase(progress, w.status?.['conditions']),
    ...progress,
  };
}

/** Sets the pause switch; prints what was done (or that nothing needed doing). */
export async function rolloutSetPaused(
  ctx: RolloutContext,
  t: RolloutTarget,
  paused: boolean,
): Promise<void> {
  const patch = pausePatch(t.info, paused);
  const w = await readWorkload(ctx, t);
  const label = `${t.info.title} ${JSON.stringify(t.name)}`;
  if (rolloutProgress(t.info.kind, w).paused === paused) {
    ctx.out(`${label} is already ${paused ? 'paused' : 'resumed'}\n`);
    return;
  }
  await ctx.client.patch(refOf(ctx, t), patch, { type: 'merge' });
  ctx.out(`${label} ${paused ? 'paused' : 'resumed'} (spec.${t.info.pausedPath!.join('.')}=${paused})\n`);
}

/** Prints the workload's ControllerRevisions, marking the current and update revisions. */
export async function rolloutHistory(
  ctx: RolloutContext,
  t: RolloutTarget,
  output: OutputFormat = 'table',
  now = new Date(),
): Promise<void> {
  const w = await readWorkload(ctx, t);
  const progress = rolloutProgress(t.info.kind, w);
  const rows = revisionHistory(w.metadata?.uid ?? '', await ownedRevisions(ctx, t, w), progress, now);
  ctx.out(
    output === 'table'
      ? `${t.info.title} ${JSON.stringify(t.name)}\n${formatHistory(rows)}\n`
      : formatStructured(output, { ...refOf(ctx, t), items: rows }),
  );
}

/** Stamps the pod template with `kubectl.kubernetes.io/restartedAt` (restart.ts): every pod is replaced. */
export async function rolloutRestart(ctx: RolloutContext, t: RolloutTarget, now = new Date()): Promise<void> {
  assertRestartable(t.info);
  const w = await readWorkload(ctx, t);
  const patch = restartPatch(t.info, w, rolloutProgress(t.info.kind, w).paused, now);
  await ctx.client.patch(refOf(ctx, t), patch, { type: 'merge' });
  ctx.out(`${t.info.title} ${JSON.stringify(t.name)} restarted\n`);
}

/** Restores the template of revision `toRevision` (0: the one before the newest); prints which. */
export async function rolloutUndo(ctx: RolloutContext, t: RolloutTarget, toRevision: number): Promise<void> {
  const w = await readWorkload(ctx, t);
  const plan = planUndo(t.info, t.name, w, await ownedRevisions(ctx, t, w), toRevision);
  if (plan.action === 'skip') {
    ctx.out(
      `${t.info.title} ${JSON.stringify(t.name)} skipped rollback (current template already matches revision ${plan.revision})\n`,
    );
    return;
  }
  try {
    await ctx.client.patch(refOf(ctx, t), plan.patch, { type: 'json' });
  } catch (e) {
    // 422: the `test` of the resourceVersion failed (it changed meanwhile) or validation refused the template
    if (e instanceof InvalidError || e instanceof ConflictError) {
      throw new RolloutCliError(
        'REGATTA_ROLLOUT_UNDO_REFUSED',
        `the API server refused to roll back ${labelOf(ctx, t)} (if it changed meanwhile, run undo again): ${(e as Error).message}`,
        1,
        { cause: e },
      );
    }
    throw e;
  }
  ctx.out(
    `${t.info.title} ${JSON.stringify(t.name)} rolled back to revision ${plan.revision} (${plan.revisionName})\n`,
  );
}
