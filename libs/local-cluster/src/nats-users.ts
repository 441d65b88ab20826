// Bus users added to a running cluster: a node that joins a sandbox later gets its agent's own bus user, made as the
// first nodes' users are (docs/adr/0032), by rewriting `<dir>/nats.conf` (every server's, for a clustered bus) and
// asking nats-server to reload it (SIGHUP; nats-server re-reads its `authorization` block without dropping connections). `natsConfig` writes the whole file,
// so the file always holds every user of `endpoints.natsAuth`, and a restarted nats-server reads the same users.
import { join } from 'node:path';
import { ENDPOINTS_FILE, readEndpoints, type ClusterEndpoints } from './cluster.js';
import { type NatsAuth, type NodeAgentUser } from './components.js';
import { natsServerConfig, type NatsServerEndpoint } from './nats-cluster.js';
import { LocalClusterError } from './errors.js';
import { writePrivateFile } from './private-file.js';
import { readPidRecords } from './records.js';
import { alive } from './process.js';
import { waitFor } from './wait.js';

/** The name of nats-server in a cluster's pid records. */
export const NATS_SERVER = 'nats-server';

/** The bus's users could not be changed: the cluster runs no authenticated nats-server, or it did not reload. */
export class NatsReloadError extends LocalClusterError {
  constructor(reason: string) {
    super('REGATTA_NATS_RELOAD', `cannot change the bus users: ${reason}`);
  }
}

/** `auth` with `node`'s agent user set (`user`) or removed (undefined). */
export function withNodeAgent(auth: NatsAuth, node: string, user: NodeAgentUser | undefined): NatsAuth {
  const nodeAgents = { ...(auth.nodeAgents ?? {}) };
  if (user) nodeAgents[node] = user;
  else delete nodeAgents[node];
  return { ...auth, nodeAgents };
}

/**
 * Makes the cluster in `dir` run with `auth`: writes nats.conf and endpoints.json (with `auth` as `natsAuth`), sends
 * SIGHUP to the recorded nats-server and resolves once its monitor shows the reload (`config_load_time` moved).
 */
export async function reloadNatsAuth(dir: string, auth: NatsAuth, timeoutMs = 15_000): Promise<ClusterEndpoints> {
  const endpoints = await readEndpoints(dir);
  if (!endpoints.nats || !endpoints.natsMonitor || !endpoints.natsAuth)
    throw new NatsReloadError(`${dir} runs no nats-server with users`);
  // a folder from before the bus could be a cluster records only the one server's URLs
  const servers: NatsServerEndpoint[] = endpoints.natsServers ?? [
    {
      name: NATS_SERVER,
      url: endpoints.nats,
      monitor: endpoints.natsMonitor,
      conf: join(dir, 'nats.conf'),
      storeDir: join(dir, 'jetstream'),
    },
  ];
  const records = await readPidRecords(dir);
  const next: ClusterEndpoints = { ...endpoints, natsAuth: auth };
  const reloads = [];
  for (const server of servers) {
    const pid = records.filter((r) => r.name === server.name).at(-1);
    if (!pid || !alive(pid.pid)) throw new NatsReloadError(`no running ${server.name} recorded in ${dir}`);
    const loadTime = async () =>
      ((await (await fetch(`${server.monitor}/varz`)).json()) as { config_load_time: string }).config_load_time;
    const before = await loadTime();
    await writePrivateFile(server.conf, natsServerConfig(server, servers, { auth, sync: endpoints.natsSync }));
    process.kill(pid.pid, 'SIGHUP');
    reloads.push(
      waitFor(`${server.name} to reload ${server.conf}`, async () => (await loadTime()) !== before, {
        timeoutMs,
        intervalMs: 50,
      }).catch((err: unknown) => {
        throw new NatsReloadError(`${(err as Error).message}; its log: ${join(dir, 'logs', `${server.name}.log`)}`);
      }),
    );
  }
  await writePrivateFile(join(dir, ENDPOINTS_FILE), JSON.stringify(next, null, 2) + '\n');
  await Promise.all(reloads);
  return next;
}
