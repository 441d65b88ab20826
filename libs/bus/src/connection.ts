import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import { BusUnavailableError } from './errors.js';

export interface BusOptions {
  /** `nats://127.0.0.1:4222`; default NATS_URL. */
  servers?: string;
  /** Shown in the server's connection list (`regatta-cloneset`). */
  name: string;
  user?: string;
  pass?: string;
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
  try {
    nc = await connect({
      servers,
      name: o.name,
      user: o.user ?? process.env['NATS_USER'],
      pass: o.pass ?? process.env['NATS_PASSWORD'],
      timeout: o.connectTimeoutMs ?? 10_000,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      pingInterval: 10_000,
      ...(inboxPrefix ? { inboxPrefix } : {}),
    });
  } catch (err) {
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
