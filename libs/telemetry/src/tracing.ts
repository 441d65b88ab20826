import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { fixedOrRandomIds } from './object-trace.js';

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
 */
export function startTracing(options: StartTracingOptions): Tracing {
  const endpoint = configuredEndpoint(options);
  if (endpoint === undefined) {
    return {
      enabled: false,
      tracer: trace.getTracer(options.serviceName),
      shutdown: () => Promise.resolve(),
    };
  }
  // An explicit option is a base URL like the env variable; the exporter reads the env itself.
  const url =
    options.endpoint === undefined ? undefined : `${options.endpoint.replace(/\/+$/, '')}/v1/traces`;
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    traceExporter: new OTLPTraceExporter(url === undefined ? {} : { url }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
    // random ids, except for an object's root span (object-trace.ts)
    idGenerator: fixedOrRandomIds,
  });
  sdk.start();
  options.logger?.info({ endpoint, serviceName: options.serviceName }, 'tracing started');
  const timeoutMs = options.shutdownTimeoutMs ?? 5000;
  let stopped: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    // an unreachable collector makes the SDK retry until its export timeout, then reject
    const done = sdk.shutdown().then(
      () => 'ok' as const,
      (err: unknown) => err,
    );
    const outcome = await Promise.race([done, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      options.logger?.warn(
        { endpoint, timeoutMs },
        'tracing shutdown: final span export did not complete in time; spans dropped',
      );
      // the export keeps running in the background: report how it ends
      void done.then((late) => {
        if (late !== 'ok')
          options.logger?.warn({ err: late, endpoint }, 'tracing shutdown: final span export failed');
      });
    } else if (outcome !== 'ok') {
      options.logger?.warn(
        { err: outcome, endpoint },
        'tracing shutdown: final span export failed; spans dropped',
      );
    }
    trace.disable();
    context.disable();
    propagation.disable();
  };
  return {
    enabled: true,
    tracer: trace.getTracer(options.serviceName),
    shutdown: () => (stopped ??= stop()),
  };
}
