// The OpenTelemetry SDK's part of tracing.ts, in a module of its own so that a program imports it only when tracing is
// on (tracing.ts `startTracing`; docs/adr/0051, fifth amendment).
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { fixedOrRandomIds } from './object-trace.js';
import type { StartTracingOptions, Tracing } from './tracing.js';

/** Starts a NodeSDK exporting to `endpoint` (what tracing.ts resolved from `options` and the environment). */
export function startSdk(options: StartTracingOptions, endpoint: string): Tracing {
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
