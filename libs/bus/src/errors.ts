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

/** The NATS server answered but refused this program's credentials (or its permissions at connect). */
export class BusRefusedError extends BusError {
  constructor(servers: string, cause: unknown) {
    super(
      'REGATTA_BUS_REFUSED',
      `the NATS server at ${servers} refused this connection: ${(cause as Error)?.message ?? String(cause)}. ` +
        'Check the credentials (NATS_USER/NATS_PASSWORD, NATS_CREDS_FILE, NATS_NKEY_SEED_FILE or NATS_TOKEN_FILE) against the ' +
        "server's users (docs/operations.md, the bus).",
      { cause },
    );
  }
}

/** The bus's connection settings (credentials, TLS; docs/adr/0045) are contradictory, incomplete or unreadable. */
export class BusOptionsError extends BusError {
  constructor(reason: string, cause?: unknown) {
    super('REGATTA_BUS_OPTIONS', `invalid bus connection settings: ${reason} (docs/operations.md, the bus)`, {
      cause,
    });
  }
}

/** A value in a mirror bucket is not a Regatta envelope (wrong writer, or a newer format). */
export class EnvelopeError extends BusError {
  constructor(bucket: string, key: string, reason: string) {
    super('REGATTA_BUS_ENVELOPE', `entry ${key} of bucket ${bucket} cannot be read: ${reason}`);
  }
}

/** An object whose mirrored form exceeds what the bus carries; the watcher sets it aside (docs/adr/0008). */
export class ObjectTooLargeError extends BusError {
  constructor(
    readonly key: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      'REGATTA_BUS_OBJECT_TOO_LARGE',
      `object ${key} is ${mib(bytes)} as mirrored JSON, over the bus limit of ${mib(limit)}; ` +
        'controllers will not see this version. Shrink the object (move large values to a ConfigMap or a volume).',
    );
  }
}

/** Mirroring Secrets needs the key of their keyed hash (docs/adr/0009). */
export class SecretHashKeyMissingError extends BusError {
  constructor() {
    super(
      'REGATTA_BUS_SECRET_HASH_KEY_MISSING',
      'cannot mirror Secrets without a hash key: set REGATTA_SECRET_HASH_KEY (or REGATTA_SECRET_HASH_KEY_FILE) ' +
        'for the watcher, at least 32 random bytes.',
    );
  }
}

function mib(n: number): string {
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}

/** nats-server's authorization request could not be read or its signature does not verify (docs/adr/0059). */
export class AuthCalloutRequestError extends BusError {
  constructor(reason: string, cause?: unknown) {
    super('REGATTA_BUS_AUTH_CALLOUT_REQUEST', `unreadable auth callout request: ${reason}`, { cause });
  }
}

/** A mirror bucket was deleted, or wiped with the bus's store, and made again: what its readers knew of it is void. */
export class BucketResetError extends BusError {
  constructor(readonly bucket: string) {
    super('REGATTA_BUS_BUCKET_RESET', `bucket ${bucket} was reset (deleted or its store lost); rebuilding it from a new list`);
  }
}
