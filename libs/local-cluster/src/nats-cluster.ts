// The bus of a local cluster: one nats-server (as before), or a JetStream cluster of several on loopback
// (`regatta sandbox up --bus-replicas 3`, docs/operations.md "A clustered bus"). Each server has its own client,
// monitoring and route port, its own store folder and configuration file, and the same users (`natsConfig`).
import { join } from 'node:path';
import { natsConfig, type NatsAuth, type NatsSync } from './components.js';
import { startNatsServer } from './nats-server.js';
import { freePorts } from './ports.js';
import type { ManagedProcess } from './process.js';
import { waitFor } from './wait.js';

/** The name of the JetStream cluster the sandbox's servers form. */
export const NATS_CLUSTER_NAME = 'regatta-bus';

/** One server of the bus, as `endpoints.json` records it (`natsServers`). */
export interface NatsServerEndpoint {
  /** Its process name in the pid and launch records (`nats-server`, or `nats-server-1`, …). */
  name: string;
  url: string;
  monitor: string;
  /** Absent for a single server (no cluster). */
  routePort?: number;
  /** Its configuration file and JetStream store folder. */
  conf: string;
  storeDir: string;
}

/**
 * The servers of a bus of `replicas` servers in `dir`, on the given ports (`replicas` × client, monitor and, for
 * more than one, route). One server keeps today's names: `nats-server`, `nats.conf`, `jetstream/`.
 */
export function planNatsServers(dir: string, replicas: number, ports: number[]): NatsServerEndpoint[] {
  if (!Number.isInteger(replicas) || replicas < 1) throw new RangeError(`bus replicas must be ≥ 1, not ${replicas}`);
  const need = replicas === 1 ? 2 : 3 * replicas;
  if (ports.length < need) throw new RangeError(`a bus of ${replicas} servers needs ${need} ports`);
  return Array.from({ length: replicas }, (_, i) => {
    const [client, monitor, route] = replicas === 1 ? [ports[0]!, ports[1]!] : ports.slice(3 * i, 3 * i + 3);
    const suffix = replicas === 1 ? '' : `-${i + 1}`;
    return {
      name: `nats-server${suffix}`,
      url: `nats://127.0.0.1:${client}`,
      monitor: `http://127.0.0.1:${monitor}`,
      ...(route !== undefined ? { routePort: route } : {}),
      conf: join(dir, `nats${suffix}.conf`),
      storeDir: join(dir, `jetstream${suffix}`),
    };
  });
}

/** The configuration file of `server`, one of `servers`: the same users, JetStream settings and routes for all. */
export function natsServerConfig(
  server: NatsServerEndpoint,
  servers: NatsServerEndpoint[],
  o: { auth?: NatsAuth | undefined; sync?: NatsSync | undefined },
): string {
  const routes = servers.map((s) => s.routePort).filter((p): p is number => p !== undefined);
  return natsConfig({
    port: Number(new URL(server.url).port),
    monitorPort: Number(new URL(server.monitor).port),
    storeDir: server.storeDir,
    ...(o.auth ? { auth: o.auth } : {}),
    ...(o.sync ? { sync: o.sync } : {}),
    ...(server.routePort !== undefined
      ? { cluster: { cluster: NATS_CLUSTER_NAME, serverName: server.name, routePort: server.routePort, routes } }
      : {}),
  });
}

/**
 * Resolves once every server of a JetStream cluster names the same meta leader (the cluster accepts stream
 * creates); a single server needs no wait. Polls each server's monitoring `/jsz`.
 */
export async function waitForJetStreamCluster(servers: NatsServerEndpoint[], timeoutMs = 60_000): Promise<void> {
  if (servers.length < 2) return;
  await waitFor(
    `the ${servers.length} nats-servers to elect a JetStream meta leader`,
    async () => {
      const leaders = await Promise.all(
        servers.map(async (s) => {
          const res = await fetch(`${s.monitor}/jsz`).catch(() => undefined);
          if (!res?.ok) return undefined;
          return ((await res.json()) as { meta_cluster?: { leader?: string } }).meta_cluster?.leader;
        }),
      );
      return leaders[0] !== undefined && leaders[0] !== '' && leaders.every((l) => l === leaders[0]);
    },
    { timeoutMs, intervalMs: 200 },
  );
}

/** A bus started on its own (tests, benchmarks): its servers, and how to stop, kill and start each again. */
export interface NatsBus {
  servers: NatsServerEndpoint[];
  /** NATS_URL of every server (comma list). */
  url: string;
  process(i: number): ManagedProcess;
  /** Starts server `i` again from its configuration (after a kill or a stop) and waits for its /healthz. */
  restart(i: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a bus of `replicas` servers in `dir` (one: a plain server; more: a JetStream cluster) with the same
 * configuration the sandbox writes, and waits for its meta leader.
 */
export async function startNatsBus(
  dir: string,
  replicas: number,
  o: { auth?: NatsAuth; sync?: NatsSync } = {},
): Promise<NatsBus> {
  const servers = planNatsServers(dir, replicas, await freePorts(replicas === 1 ? 2 : 3 * replicas));
  const processes: ManagedProcess[] = [];
  const start = (s: NatsServerEndpoint) =>
    startNatsServer({
      dir,
      name: s.name,
      config: natsServerConfig(s, servers, o),
      monitorPort: Number(new URL(s.monitor).port),
      jetStreamEnabledOnly: true,
    });
  try {
    for (const s of servers) processes.push(await start(s));
    await waitForJetStreamCluster(servers);
  } catch (err) {
    await Promise.all(processes.map((p) => p.stop()));
    throw err;
  }
  return {
    servers,
    url: servers.map((s) => s.url).join(','),
    process: (i) => processes[i]!,
    restart: async (i) => {
      processes[i] = await start(servers[i]!);
    },
    stop: async () => {
      await Promise.all(processes.map((p) => p.stop()));
    },
  };
}
