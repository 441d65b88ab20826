import { connect, errors, type NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import { connectionAuth, readBusAuth, type BusAuth } from './auth.js';
import { BusRefusedError, BusUnavailableError } from './errors.js';

export interface BusOptions {
  /** `nats://127.0.0.1:4222`; default NATS_URL. */
  servers?: string;
  /** Shown in the server's connection list (`regatta-cloneset`). */
  name: string;
  /** User and password; default NATS_USER and NATS_PASSWORD. Ignored when `auth` is given. */
  user?: string;
  pass?: string;
  /**
   * Credentials (user/password, a `.creds` file or an NKEY seed file) and TLS (docs/adr/0045); default what
   * `readBusAuth` reads from the environment (NATS_CREDS_FILE, NATS_NKEY_SEED_FILE, NATS_TLS_*).
   */
  auth?: BusAuth;
  /** How long to try the first connection before failing with BusUnavailableError. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Prepended to every bucket name (default REGATTA_BUS_PREFIX or ''), so several Regatta
   * installations, or tests, can share one NATS server without seeing each other.
   */
  prefix?: string;
  /**
   * Inbox subject prefix of this connection's replies and KV watch deliveries (default `_INBOX`, or
   * NATS_INBOX_PREFIX). A user whose permissions allow subscribing only to its own prefix (a node agent's,
   * docs/adr/0032) cannot read other programs' deliveries.
   */
  inboxPrefix?: string;
}

/** A NATS connection with the KV manager; reconnects forever once connected. */
export interface Bus {
  nc: NatsConnection;
  kvm: Kvm;
  /** Bucket-name prefix of this installation. */
  prefix: string;
  close(): Promise<void>;
}

export async function connectBus(o: BusOptions): Promise<Bus> {
  const servers = o.servers ?? process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
  let nc: NatsConnection;
  const inboxPrefix = o.inboxPrefix ?? process.env['NATS_INBOX_PREFIX'];
  // settings errors (BusOptionsError) are the caller's to fix, not an unreachable server
  const auth = connectionAuth(o.auth ?? busAuthOf(o));
  try {
    nc = await connect({
      servers,
      name: o.name,
      ...auth,
      timeout: o.connectTimeoutMs ?? 10_000,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      pingInterval: 10_000,
      ...(inboxPrefix ? { inboxPrefix } : {}),
    });
  } catch (err) {
    if (err instanceof errors.AuthorizationError) throw new BusRefusedError(servers, err);
    throw new BusUnavailableError(servers, err);
  }
  return {
    nc,
    kvm: new Kvm(inboxPrefix ? jetstream(nc, { watcherPrefix: inboxPrefix }) : nc),
    prefix: o.prefix ?? process.env['REGATTA_BUS_PREFIX'] ?? '',
    close: async () => {
      if (!nc.isClosed()) await nc.drain();
    },
  };
}

/** The environment's settings, with `user`/`pass` given in code taking the place of NATS_USER/NATS_PASSWORD. */
function busAuthOf(o: BusOptions): BusAuth {
  const env = readBusAuth();
  if (o.user === undefined && o.pass === undefined) return env;
  const { credsFile: _c, nkeySeedFile: _n, ...rest } = env;
  return { ...rest, user: o.user ?? env.user, pass: o.pass ?? env.pass };
}
