/**
 * The cluster and Jaeger side of `regatta trace KIND/NAME`: the trace id from the workload's
 * `regatta.dev/rollout-trace` record (docs/adr/0007), the trace from Jaeger's query API (`GET <query>/api/traces/<id>`,
 * the API Jaeger's UI reads), the waterfall of waterfall.ts.
 */
import { ROLLOUT_TRACE_ANNOTATION, parseRolloutRecord } from '@regatta/workload';
import { readWorkload, type RolloutContext } from './commands.js';
import { JaegerQueryError, NoRolloutTraceError } from './errors.js';
import { fetchJaegerTrace, jaegerQueryBase } from './jaeger.js';
import type { RolloutTarget } from './kinds.js';
import { formatWaterfall, traceWaterfall } from './waterfall.js';

export interface TraceOptions {
  /** Jaeger's query address (`http://127.0.0.1:16686`). */
  jaeger: string | undefined;
  /** Columns of the bars. */
  width: number;
  /** How long to wait for Jaeger (ms). Default 10 s. */
  timeoutMs?: number;
}

/** Prints the waterfall of the workload's latest rollout trace. */
export async function rolloutTrace(
  ctx: RolloutContext,
  t: RolloutTarget,
  opts: TraceOptions,
  now = Date.now(),
): Promise<void> {
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
