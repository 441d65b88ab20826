import { connect, errors, type NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import { connectionAuth, readBusAuth, type BusAuth } from './auth.js';
import { BusOptionsError, BusRefusedError, BusUnavailableError } from './errors.js';

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
  /**
   * How many servers hold each bucket and stream this program creates (JetStream's `num_replicas`); default
   * REGATTA_BUS_REPLICAS, else the cluster's size up to 3 (docs/operations.md "A clustered bus").
   */
  replicas?: number;
}

/** A NATS connection with the KV manager; reconnects forever once connected. */
export interface Bus {
  nc: NatsConnection;
  kvm: Kvm;
  /** Bucket-name prefix of this installation. */
  prefix: string;
  /** Replicas of the buckets and streams this program creates (`BusOptions.replicas`). */
  replicas: number;
  close(): Promise<void>;
}

/** JetStream's largest useful replica count (an odd quorum; NATS allows up to 5, three survive one loss). */
export const MAX_BUS_REPLICAS = 3;

/**
 * The replica count of the buckets a program creates: the configured one (REGATTA_BUS_REPLICAS), else the bus's size
 * up to {@link MAX_BUS_REPLICAS}: the servers the program was given (NATS_URL's list) or, when more, the servers the
 * connected one announces (`connect_urls`, its cluster's client URLs). One server: 1, as before a cluster existed.
 */
export function busReplicas(o: { configured?: string | number | undefined; servers: string[]; announced?: string[] }): number {
  if (o.configured !== undefined && o.configured !== '') {
    const n = Number(o.configured);
    if (!Number.isInteger(n) || n < 1 || n > 5)
      throw new BusOptionsError(`REGATTA_BUS_REPLICAS must be an integer from 1 to 5, not ${JSON.stringify(o.configured)}`);
    return n;
  }
  const size = Math.max(o.servers.length, new Set(o.announced ?? []).size, 1);
  return Math.min(size, MAX_BUS_REPLICAS);
}

/** NATS_URL's servers: one URL or a comma list (`nats://a:4222,nats://b:4222`). */
export function serverList(servers: string): string[] {
  return servers
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export async function connectBus(o: BusOptions): Promise<Bus> {
  const servers = o.servers ?? process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
  let nc: NatsConnection;
  const inboxPrefix = o.inboxPrefix ?? process.env['NATS_INBOX_PREFIX'];
  // settings errors (BusOptionsError) are the caller's to fix, not an unreachable server
  const auth = connectionAuth(o.auth ?? busAuthOf(o));
  const configured = o.replicas ?? process.env['REGATTA_BUS_REPLICAS'];
  busReplicas({ configured, servers: [] }); // a bad setting fails before connecting
  try {
    nc = await connect({
      servers: serverList(servers),
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
    replicas: busReplicas({
      configured,
      servers: serverList(servers),
      announced: nc.info?.connect_urls ?? [],
    }),
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
