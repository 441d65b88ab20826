import { isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger as PinoLogger, type LevelWithSilent } from 'pino';
import { InvalidLogLevelError } from './errors.js';

/** The logger every Regatta program uses: pino, JSON lines. */
export type Logger = PinoLogger;

export interface CreateLoggerOptions {
  /**
   * Program or component name; written as `logger` on every line (zap's and so controller-runtime's key), so that
   * `name` stays the reconciled object's, one key per name (issue 48).
   */
  name: string;
  /** Overrides `LOG_LEVEL`. */
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass an in-process stream. */
  destination?: DestinationStream;
}

const LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function isLevel(value: string): value is LevelWithSilent {
  return (LEVELS as readonly string[]).includes(value);
}

/** Resolves the level: the option, else `LOG_LEVEL`, else `info`. Throws on an unknown level. */
export function resolveLogLevel(
  level: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): LevelWithSilent {
  const chosen = (level ?? env['LOG_LEVEL'] ?? '').trim().toLowerCase() || 'info';
  if (!isLevel(chosen)) throw new InvalidLogLevelError(chosen);
  return chosen;
}

/** Adds the active span's ids, so a log line can be opened next to its trace. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const ctx = trace.getActiveSpan()?.spanContext();
  if (!ctx || !isSpanContextValid(ctx)) return {};
  return { trace_id: ctx.traceId, span_id: ctx.spanId };
}

/**
 * Creates the program's root logger: JSON to stdout (no transports, so it survives single-file
 * bundles), level names instead of numbers, ISO timestamps, and `trace_id`/`span_id` on lines
 * written inside an active span.
 *
 * Level discipline: `info` is for lifecycle lines only (started, synced, elected, stopping);
 * per-reconcile and per-request detail goes to `debug`, so the default output stays quiet.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const level = resolveLogLevel(options.level);
  return pino(
    {
      level,
      base: { logger: options.name, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: traceFields,
    },
    options.destination,
  );
}
