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
 * Only tracing-sdk.ts imports the SDK, and this imports that module only when tracing is on: a program that does not
 * trace never evaluates the SDK and the exporters it pulls in (gRPC, protobufjs): about 0.7 MiB less resident memory
 * for the CloneSet program (docs/adr/0051, fifth amendment). Everything else uses `@opentelemetry/api`.
 * No auto-instrumentation: programs are bundled into one file, so spans are manual.
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
