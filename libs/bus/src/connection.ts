import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
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
    });
  } catch (err) {
    throw new BusUnavailableError(servers, err);
  }
  return {
    nc,
    kvm: new Kvm(nc),
    prefix: o.prefix ?? process.env['REGATTA_BUS_PREFIX'] ?? '',
    close: async () => {
      if (!nc.isClosed()) await nc.drain();
    },
  };
}
