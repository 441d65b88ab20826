export { TelemetryError, InvalidLogLevelError } from './errors.js';
export {
  createLogger,
  resolveLogLevel,
  traceFields,
  type CreateLoggerOptions,
  type Logger,
} from './logger.js';
export { startTracing, type StartTracingOptions, type Tracing, type TracingLogger } from './tracing.js';
export { withSpan, type WithSpanOptions } from './spans.js';
export { injectTraceContext, extractTraceContext } from './propagation.js';
export { fixedOrRandomIds, startSpanWithIds, uidTraceIds, type TraceIds } from './object-trace.js';
