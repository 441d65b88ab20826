// Bus users added to a running cluster: a node that joins a sandbox later gets its agent's own bus user, made as the
// first nodes' users are (docs/adr/0032), by rewriting `<dir>/nats.conf` and asking nats-server to reload it (SIGHUP;
// nats-server re-reads its `authorization` block without dropping connections). `natsConfig` writes the whole file,
// so the file always holds every user of `endpoints.natsAuth`, and a restarted nats-server reads the same users.
import { join } from 'node:path';
import { ENDPOINTS_FILE, readEndpoints, type ClusterEndpoints } from './cluster.js';
import { natsConfig, type NatsAuth, type NodeAgentUser } from './components.js';
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
  const server = (await readPidRecords(dir)).filter((r) => r.name === NATS_SERVER).at(-1);
  if (!server || !alive(server.pid)) throw new NatsReloadError(`no running ${NATS_SERVER} recorded in ${dir}`);
  const loadTime = async () =>
    ((await (await fetch(`${endpoints.natsMonitor}/varz`)).json()) as { config_load_time: string }).config_load_time;
  const before = await loadTime();
  await writePrivateFile(
    join(dir, 'nats.conf'),
    natsConfig({
      port: Number(new URL(endpoints.nats).port),
      monitorPort: Number(new URL(endpoints.natsMonitor).port),
      storeDir: join(dir, 'jetstream'),
      auth,
    }),
  );
  const next: ClusterEndpoints = { ...endpoints, natsAuth: auth };
  await writePrivateFile(join(dir, ENDPOINTS_FILE), JSON.stringify(next, null, 2) + '\n');
  process.kill(server.pid, 'SIGHUP');
  await waitFor(`${NATS_SERVER} to reload ${join(dir, 'nats.conf')}`, async () => (await loadTime()) !== before, {
    timeoutMs,
    intervalMs: 50,
  }).catch((err: unknown) => {
    throw new NatsReloadError(`${(err as Error).message}; its log: ${join(dir, 'logs', `${NATS_SERVER}.log`)}`);
  });
  return next;
}
