import { RegattaError } from '@regatta/errors';

/** Base class of the bus's errors. */
export class BusError extends RegattaError {}

/** The NATS server cannot be reached. */
export class BusUnavailableError extends BusError {
  constructor(servers: string, cause: unknown) {
    super(
      'REGATTA_BUS_UNAVAILABLE',
      `cannot reach the NATS server at ${servers}: ${(cause as Error)?.message ?? String(cause)}. ` +
        'Check NATS_URL and that nats-server runs with JetStream enabled (-js).',
      { cause },
    );
  }
}

/** A value in a mirror bucket is not a Regatta envelope (wrong writer, or a newer format). */
export class EnvelopeError extends BusError {
  constructor(bucket: string, key: string, reason: string) {
    super('REGATTA_BUS_ENVELOPE', `entry ${key} of bucket ${bucket} cannot be read: ${reason}`);
  }
}
