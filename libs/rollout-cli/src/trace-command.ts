/**
 * The cluster and Jaeger side of `regatta trace KIND/NAME`: the trace id from the workload's
 * `regatta.dev/rollout-trace` record (docs/adr/0007), the trace from Jaeger's query API (`GET <query>/api/traces/<id>`,
 * the API Jaeger's UI reads), the waterfall of waterfall.ts.
 */
import { ROLLOUT_TRACE_ANNOTATION, parseRolloutRecord } from '@regatta/workload';
import { readWorkload, type RolloutContext } from './commands.js';
import { JaegerQueryError, NoRolloutTraceError, RolloutUsageError } from './errors.js';
import type { RolloutTarget } from './kinds.js';
import { formatWaterfall, traceWaterfall, type JaegerJsonTrace } from './waterfall.js';

export interface TraceOptions {
  /** Jaeger's query address (`http://127.0.0.1:16686`). */
  jaeger: string | undefined;
  /** Columns of the bars. */
  width: number;
  /** How long to wait for Jaeger (ms). Default 10 s. */
  timeoutMs?: number;
}

/** Checks `--jaeger` (or `JAEGER_URL`): an http(s) address, without trailing slashes. */
export function jaegerQueryBase(url: string | undefined): string {
  if (!url) throw new RolloutUsageError('no Jaeger query address: pass --jaeger URL (e.g. http://127.0.0.1:16686) or set JAEGER_URL');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RolloutUsageError(`--jaeger must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RolloutUsageError(`--jaeger must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  return url.replace(/\/+$/, '');
}

/** The trace Jaeger holds for `traceId`; undefined when it has none (yet). */
export async function fetchJaegerTrace(base: string, traceId: string, timeoutMs = 10_000): Promise<JaegerJsonTrace | undefined> {
  const url = `${base}/api/traces/${traceId}`;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new JaegerQueryError(`cannot reach Jaeger's query API at ${base} (${why})`, { cause: e });
  }
  if (res.status === 404) return undefined;
  if (!res.ok) throw new JaegerQueryError(`Jaeger's query API at ${base} answered ${res.status} for ${url}`);
  let body: { data?: JaegerJsonTrace[] | null };
  try {
    body = (await res.json()) as { data?: JaegerJsonTrace[] | null };
  } catch (e) {
    throw new JaegerQueryError(`${url} did not answer Jaeger's JSON (is ${base} Jaeger's query address?)`, { cause: e });
  }
  const trace = body.data?.[0];
  return trace && Array.isArray(trace.spans) && trace.spans.length > 0 ? trace : undefined;
}

/** Prints the waterfall of the workload's latest rollout trace. */
export async function rolloutTrace(ctx: RolloutContext, t: RolloutTarget, opts: TraceOptions, now = Date.now()): Promise<void> {
  const base = jaegerQueryBase(opts.jaeger);
  const w = await readWorkload(ctx, t);
  const what = `${t.info.title} ${JSON.stringify(t.name)}${t.info.clusterScoped ? '' : ` in namespace ${JSON.stringify(ctx.namespace)}`}`;
  const record = parseRolloutRecord(w.metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION]);
  const traceId = record ? /^00-([0-9a-f]{32})-/.exec(record.traceparent)?.[1] : undefined;
  if (!record || !traceId) throw new NoRolloutTraceError(what);
  const trace = await fetchJaegerTrace(base, traceId, opts.timeoutMs);
  if (!trace) {
    throw new JaegerQueryError(
      `Jaeger at ${base} has no trace ${traceId} of ${what} yet: spans reach it a few seconds after they end ` +
        '(the rollout span once the rollout ends); try again, or check that the controller exports to this Jaeger',
    );
  }
  const waterfall = traceWaterfall(trace, record, now);
  const state = record.done ? `done${record.end ? ` at ${record.end}` : ''}` : 'in progress';
  ctx.out(
    [
      `${t.info.title} ${JSON.stringify(t.name)} rollout ${record.from || '?'} → ${record.to} (${state}), started ${record.start}`,
      `trace ${traceId}: ${trace.spans.length} span${trace.spans.length === 1 ? '' : 's'} from ${base}`,
      ...formatWaterfall(waterfall, opts.width, { done: record.done === true }),
    ].join('\n') + '\n',
  );
}
