import { context, propagation, ROOT_CONTEXT, type Context } from '@opentelemetry/api';

/**
 * The active trace context as plain strings (`traceparent`, and `tracestate`/`baggage` when
 * present), for carriers without headers: annotations, bus envelopes. Empty when no span is
 * active or tracing is off.
 */
export function injectTraceContext(from: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(from, carrier);
  return carrier;
}

/**
 * A context whose parent span is the one described by `carrier` (as written by
 * `injectTraceContext`); pass it as `withSpan(..., { parent })`. Unknown or malformed carriers
 * yield a context without a span, so the next span starts a new trace.
 */
export function extractTraceContext(
  carrier: Readonly<Record<string, string | undefined>> | undefined,
): Context {
  if (!carrier) return ROOT_CONTEXT;
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(carrier)) if (typeof value === 'string') clean[key] = value;
  return propagation.extract(ROOT_CONTEXT, clean);
}
