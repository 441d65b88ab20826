/** Base class of the telemetry library's errors: each carries a stable `code`. */
export class TelemetryError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** `LOG_LEVEL` (or the `level` option) names no pino level. */
export class InvalidLogLevelError extends TelemetryError {
  constructor(readonly level: string) {
    super(
      'REGATTA_INVALID_LOG_LEVEL',
      `unknown log level '${level}': use one of fatal, error, warn, info, debug, trace, silent`,
    );
  }
}
