// A clustered sandbox bus keeps the single server's users (docs/operations.md "A clustered bus"): LocalCluster with
// `busReplicas: 3` writes the same authorization block on every server, and a node agent's user added later
// (`reloadNatsAuth`, docs/adr/0032) reaches all three.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalCluster, newNodeAgentUser, reloadNatsAuth, withNodeAgent } from '@regatta/local-cluster';
import { BusRefusedError, connectBus } from './index.js';

let cluster: LocalCluster;

beforeAll(async () => {
  cluster = await LocalCluster.start({
    dir: await mkdtemp(join(tmpdir(), 'regatta-bus-auth-cluster-')),
    busReplicas: 3,
    natsAuth: true,
    controllerManager: false,
    scheduler: false,
    jaeger: false,
  });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('a three-server sandbox bus with users', () => {
  it('every server knows the same users, and a node agent added later on all three', async () => {
    const servers = cluster.endpoints.natsServers!;
    expect(servers.map((s) => s.name)).toEqual(['nats-server-1', 'nats-server-2', 'nats-server-3']);
    expect(new Set(servers.map((s) => s.url)).size).toBe(3);
    const auth = cluster.endpoints.natsAuth!;
    for (const s of servers) {
      const b = await connectBus({ servers: s.url, name: 'probe', user: auth.watcher.user, pass: auth.watcher.password });
      await b.close();
      await expect(
        connectBus({ servers: s.url, name: 'probe', user: auth.watcher.user, pass: 'wrong', connectTimeoutMs: 2000 }),
      ).rejects.toBeInstanceOf(BusRefusedError);
    }

    const agent = newNodeAgentUser('n1', { bucket: 'mirror_nodeimages', registration: (n) => `imagepull.agent-${n}` });
    await reloadNatsAuth(cluster.dir, withNodeAgent(auth, 'n1', agent));
    for (const s of servers) {
      const b = await connectBus({ servers: s.url, name: 'agent', user: agent.user, pass: agent.password });
      await b.close();
    }
  }, 120_000);
});
