/** A log method in pino's calling convention: `(fields, message)` or `(message)`. */
export interface LogFn {
  (obj: object, msg?: string): void;
  (msg: string): void;
}

/**
 * The logger the runtime writes to. A pino logger fits as is; the runtime never needs more.
 * Conventions: `info` for lifecycle lines, `debug` for per-item detail, errors under `err`.
 */
export interface Logger {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

const noop = (): void => undefined;

/** A logger that drops everything (the default where no logger is given). */
export const silentLogger: Logger = {
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  child: () => silentLogger,
};
