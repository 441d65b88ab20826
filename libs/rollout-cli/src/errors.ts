import { RegattaError } from '@regatta/errors';

/** The base of `regatta rollout` errors; `exitCode` is what the CLI exits with (2: usage, 1: the cluster said no). */
export class RolloutCliError extends RegattaError {
  constructor(
    code: string,
    message: string,
    readonly exitCode: 1 | 2,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** KIND/NAME names a kind this command does not know. */
export class UnknownKindError extends RolloutCliError {
  constructor(kind: string, valid: readonly string[]) {
    super('REGATTA_ROLLOUT_UNKNOWN_KIND', `unknown kind ${JSON.stringify(kind)}; valid kinds: ${valid.join(', ')}`, 2);
  }
}

/** A malformed argument (KIND/NAME, a duration, an action the kind does not have). */
export class RolloutUsageError extends RolloutCliError {
  constructor(message: string) {
    super('REGATTA_ROLLOUT_USAGE', message, 2);
  }
}

/** The workload does not exist. */
export class WorkloadNotFoundError extends RolloutCliError {
  constructor(kind: string, name: string, namespace: string | undefined, options?: { cause?: unknown }) {
    super(
      'REGATTA_ROLLOUT_NOT_FOUND',
      `${kind} ${JSON.stringify(name)} not found${namespace === undefined ? '' : ` in namespace ${JSON.stringify(namespace)}`}`,
      1,
      options,
    );
  }
}

/** `status --watch` ran out of time. */
export class RolloutTimeoutError extends RolloutCliError {
  constructor(message: string) {
    super('REGATTA_ROLLOUT_TIMEOUT', message, 1);
  }
}

/** `status --watch` saw the controller report the rollout stuck (a Degraded phase: a deadline exceeded, a failure). */
export class RolloutDegradedError extends RolloutCliError {
  constructor(message: string) {
    super('REGATTA_ROLLOUT_DEGRADED', message, 1);
  }
}

/** The workload has no `regatta.dev/rollout-trace` record: no rollout began, or its controller runs without tracing. */
export class NoRolloutTraceError extends RolloutCliError {
  constructor(what: string) {
    super(
      'REGATTA_ROLLOUT_NO_TRACE',
      `${what} has no rollout trace (annotation regatta.dev/rollout-trace): its rollout has not begun yet, or its ` +
        'controller runs without tracing (no OTEL_EXPORTER_OTLP_ENDPOINT)',
      1,
    );
  }
}

/** Jaeger's query API could not be reached, or answered with an error. */
export class JaegerQueryError extends RolloutCliError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('REGATTA_ROLLOUT_JAEGER', message, 1, options);
  }
}
