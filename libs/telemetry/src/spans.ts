import {
  context as otelContext,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Tracer,
} from '@opentelemetry/api';

const TRACER_NAME = '@regatta/telemetry';

export interface WithSpanOptions {
  /** Parent context, e.g. from `extractTraceContext`; defaults to the active context. */
  parent?: Context;
  kind?: SpanKind;
  /** Defaults to the global provider's tracer named `@regatta/telemetry`. */
  tracer?: Tracer;
}

/**
 * Runs `fn` inside a new active span and ends the span when `fn` settles. A thrown error (or a
 * rejected promise) is recorded on the span, which is marked as an error, and is rethrown.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: () => T | Promise<T>,
  options: WithSpanOptions = {},
): Promise<T> {
  const tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
  const parent = options.parent ?? otelContext.active();
  return tracer.startActiveSpan(
    name,
    { attributes, kind: options.kind ?? SpanKind.INTERNAL },
    parent,
    async (span) => {
      try {
        return await fn();
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        span.recordException(error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}
