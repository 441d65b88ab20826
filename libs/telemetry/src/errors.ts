import { RegattaError } from '@regatta/errors';

/** Base class of the telemetry library's errors. */
export class TelemetryError extends RegattaError {}

/** `LOG_LEVEL` (or the `level` option) names no pino level. */
export class InvalidLogLevelError extends TelemetryError {
  constructor(readonly level: string) {
    super(
      'REGATTA_INVALID_LOG_LEVEL',
      `unknown log level '${level}': use one of fatal, error, warn, info, debug, trace, silent`,
    );
  }
}
