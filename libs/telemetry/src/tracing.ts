import { trace, type Tracer } from '@opentelemetry/api';

/** The few logger methods tracing needs; a pino logger fits. */
export interface TracingLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface StartTracingOptions {
  /** `service.name` of every span (what Jaeger lists). */
  serviceName: string;
  /**
   * OTLP/HTTP base URL, e.g. `http://jaeger:4318`; spans go to `<endpoint>/v1/traces`.
   * Defaults to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `OTEL_EXPORTER_OTLP_ENDPOINT` (read by the exporter).
   * With neither set, tracing is off.
   */
  endpoint?: string;
  /** Where the start line and a failed final export are reported. */
  logger?: TracingLogger;
  /** How long `shutdown` waits for the final export before giving up (default 5000 ms). */
  shutdownTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface Tracing {
  /** True when an SDK was started and spans are exported. */
  readonly enabled: boolean;
  /** A tracer named after the service; a no-op tracer when tracing is off. */
  readonly tracer: Tracer;
  /**
   * Flushes pending spans, stops the SDK and unregisters the global tracer provider, context
   * manager and propagator. Never rejects: an unreachable collector is logged and ignored.
   */
  shutdown(): Promise<void>;
}

function configuredEndpoint(options: StartTracingOptions): string | undefined {
  const env = options.env ?? process.env;
  const value =
    options.endpoint ?? env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] ?? env['OTEL_EXPORTER_OTLP_ENDPOINT'] ?? '';
  return value.trim() === '' ? undefined : value.trim();
}

/**
 * Starts OpenTelemetry tracing for this process: a NodeSDK exporting spans with OTLP/HTTP
 * (protobuf), the AsyncLocalStorage context manager and the W3C trace-context propagator
 * (the SDK's default, overridable with `OTEL_PROPAGATORS`). Metrics and logs are not exported
 * through OpenTelemetry (Prometheus and stdout cover them).
 *
 * This is the only module that imports the SDK; everything else uses `@opentelemetry/api`.
 * No auto-instrumentation: programs are bundled into one file, so spans are manual.
 *
 * The SDK (tracing-sdk.ts) is imported only when tracing is on: evaluating it and the exporters it pulls in (gRPC,
 * protobufjs) cost a program about 20 MiB of resident memory that it kept for nothing when tracing was off
 * (docs/adr/0051, fifth amendment).
 */
export async function startTracing(options: StartTracingOptions): Promise<Tracing> {
  const endpoint = configuredEndpoint(options);
  if (endpoint === undefined) {
    return {
      enabled: false,
      tracer: trace.getTracer(options.serviceName),
      shutdown: () => Promise.resolve(),
    };
  }
  const { startSdk } = await import('./tracing-sdk.js');
  return startSdk(options, endpoint);
}
