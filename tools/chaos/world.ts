// What every chaos check runs against: a local control plane (etcd, kube-apiserver, kube-controller-manager for
// garbage collection, kube-scheduler) with nats-server, the node simulator in a process of its own (the rollout
// benchmarks' one, tools/bench/rollout-simulator.ts), the watcher and the controller programs from their bundles,
// and a sink for their spans (so rollout traces have real ids without running Jaeger). The CRDs are installed;
// no webhook runs (objects are sent as the mutating webhook would leave them).
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCrds } from '@regatta/api';
import { KubeClient } from '@regatta/kube';
import { randomBytes } from 'node:crypto';
import { appEntryPath, installCrds, programKubeconfig, type LocalCluster } from '@regatta/local-cluster';
import { CONTROLLER_NAMES } from '@regatta/runtime';
import { Child } from '../bench/common.js';
import { startApiProxy, type ApiProxy } from './api-proxy.js';
import { SupervisedProgram } from './programs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Where the programs elect their leaders and keep their webhook certificates. */
const LEASE_NAMESPACE = 'regatta-system';
/** The node agent's app (its chart ServiceAccount `regatta-imagepull-agent`). */
const NODE_AGENT = 'imagepull-agent';

/** Builds the bundles of `apps` into `<dir>/bundles` (tools/build/build.mjs) and returns that folder. */
export function buildBundles(dir: string, apps: string[]): string {
  const out = join(dir, 'bundles');
  const r = spawnSync(process.execPath, [join(root, 'tools/build/build.mjs'), ...apps, `--out-dir=${out}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`building the bundles of ${apps.join(', ')} failed (exit ${r.status})`);
  return out;
}

/** An OTLP/HTTP endpoint that accepts and drops every export. */
async function spanSink(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, server };
}

export interface World {
  cluster: LocalCluster;
  client: KubeClient;
  watcher: SupervisedProgram;
  controllers: Map<string, SupervisedProgram>;
  /** The node simulator's nodes. */
  nodes: number;
  /** The fault-injecting proxy the controllers reach the API server through, when asked for (`apiFaults`). */
  apiProxy: ApiProxy | undefined;
  /** The watcher's own fault-injecting proxy (its lists and watches), started with `apiProxy`. */
  watcherProxy: ApiProxy | undefined;
  /** A program not started yet (`start()` it), with the world's environment; `webhook`: admission webhooks on port 0. */
  program(name: string, o?: { webhook?: boolean; env?: NodeJS.ProcessEnv }): SupervisedProgram;
  /**
   * A second replica of a controller program (not started): the same program, identity and bus user, its own
   * `POD_NAME` (`chaos-<app>-2`, so its leader-election identity and user agent differ), a standby until it leads.
   */
  replica(app: string): SupervisedProgram;
  /** The image pull agent of a node (not started), with the node's own bus user (docs/adr/0032) and CRI socket. */
  agent(node: string, criSocket: string): SupervisedProgram;
  now: () => number;
  log: (line: string) => void;
  stop(): Promise<void>;
}

export async function startWorld(o: {
  cluster: LocalCluster;
  dir: string;
  bundles: string;
  controllers: string[];
  nodes: number;
  restartMs: number;
  /** Route the controllers, and the watcher through a proxy of its own, through fault-injecting API proxies (rate 0
   * until a check raises it). */
  apiProxy?: { seed: number };
  now: () => number;
  log: (line: string) => void;
}): Promise<World> {
  const { cluster, log, now } = o;
  const { kubeconfig, nats } = cluster.endpoints;
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-chaos' });
  await installCrds(kubeconfig, generateCrds());
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: LEASE_NAMESPACE } });
  const sink = await spanSink();
  const logsDir = join(o.dir, 'logs');

  const sim = Child.start('node simulator', './rollout-simulator.ts');
  await sim.call('start', {
    kubeconfig,
    nodes: o.nodes,
    maxPods: 110,
    timings: { podStartMs: o.restartMs, containerRestartMs: o.restartMs, imagePullMs: 0 },
    logFile: join(logsDir, 'node-simulator.log'),
  });
  log(`node simulator: ${o.nodes} nodes; ${o.restartMs} ms for a container to start or restart`);

  // the bus users of the cluster (natsAuth), as the sandbox gives them: the watcher's, and each controller its own
  const auth = cluster.endpoints.natsAuth;
  const busUser = (name: string): NodeJS.ProcessEnv => {
    const u = name === 'watcher' ? auth?.watcher : (auth?.controllers?.[name] ?? auth?.controller);
    return u ? { NATS_USER: u.user, NATS_PASSWORD: u.password } : {};
  };
  const env: NodeJS.ProcessEnv = {
    KUBECONFIG: kubeconfig,
    NATS_URL: nats ?? '',
    // the bus users' permissions name the installation's prefix (`auth.prefix`); without users, one of the suite's
    REGATTA_BUS_PREFIX: auth ? auth.prefix : 'chaos_',
    REGATTA_LEASE_NAMESPACE: LEASE_NAMESPACE,
    // as the chart sets it for the sidecarset program (its RBAC writes revisions there only); the others ignore it
    REGATTA_SIDECARSET_REVISION_NAMESPACE: LEASE_NAMESPACE,
    LOG_LEVEL: 'info',
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
  };
  const apiProxy = o.apiProxy
    ? await startApiProxy(cluster, {
        rate: 0,
        seed: o.apiProxy.seed,
        kubeconfig: join(o.dir, 'kubeconfig-proxy'),
      })
    : undefined;
  const watcherProxy = o.apiProxy
    ? await startApiProxy(cluster, {
        rate: 0,
        seed: o.apiProxy.seed + 1,
        kubeconfig: join(o.dir, 'kubeconfig-watcher-proxy'),
        mode: 'watcher',
      })
    : undefined;
  // each program on its chart ServiceAccount with the chart's RBAC, as a pod runs it (docs/adr/0054; issue 47), never
  // the admin: a verb the chart lacks fails the check. Through R1's proxies with the same token (api-proxy.ts).
  // REGATTA_TEST_PROGRAMS_ADMIN=1 runs them as admin again, for debugging only.
  const identities = new Map<string, NodeJS.ProcessEnv>();
  for (const app of ['watcher', ...CONTROLLER_NAMES, NODE_AGENT]) {
    const own = await programKubeconfig({ app, adminKubeconfig: kubeconfig, leaseNamespace: LEASE_NAMESPACE });
    const proxy = app === 'watcher' ? watcherProxy : app === NODE_AGENT ? undefined : apiProxy;
    identities.set(app, {
      KUBECONFIG: proxy ? await proxy.proxied(own, join(o.dir, `kubeconfig-proxy-${app}`)) : own,
    });
  }
  const identityOf = (app: string): NodeJS.ProcessEnv => {
    const id = identities.get(app);
    if (!id) throw new Error(`chaos: no chart identity for the program ${app}: the suite knows CONTROLLER_NAMES, the watcher and ${NODE_AGENT}`);
    return id;
  };
  // every program made here, so `stop` ends those a check started and could not stop itself (a check that broke
  // left its program's supervisor restarting it against a stopped cluster, and the suite never exited)
  const made: SupervisedProgram[] = [];
  const program = (
    name: string,
    probe: '/healthz' | '/readyz',
    webhook = false,
    app = name,
    own: NodeJS.ProcessEnv = {},
  ): SupervisedProgram => {
    const p = new SupervisedProgram(name, {
      entry: appEntryPath(app, { REGATTA_APP_BUNDLES: o.bundles }),
      env: {
        ...env,
        ...busUser(name),
        // the watcher's key for Secrets' keyed hash (docs/adr/0009), fresh per run
        ...(name === 'watcher' ? { REGATTA_SECRET_HASH_KEY: randomBytes(32).toString('base64url') } : {}),
        ...identityOf(app),
        ...own,
      },
      logsDir,
      probe,
      webhook,
      now,
      log,
    });
    made.push(p);
    return p;
  };
  const watcher = program('watcher', '/healthz');
  await watcher.start();
  const controllers = new Map<string, SupervisedProgram>();
  for (const name of o.controllers) {
    const c = program(name, '/readyz');
    await c.start();
    controllers.set(name, c);
  }
  log(`watcher and ${o.controllers.join(', ')} up (bundles in ${o.bundles})`);

  return {
    cluster,
    client,
    watcher,
    controllers,
    nodes: o.nodes,
    apiProxy,
    watcherProxy,
    program: (name, p) => program(name, '/readyz', p?.webhook ?? false, name, p?.env),
    replica: (app) => program(`${app}-2`, '/healthz', false, app, busUser(app)),
    agent(node, criSocket) {
      const u = auth?.nodeAgents?.[node];
      if (!u) throw new Error(`no bus user for the node agent of ${node} (LocalCluster natsNodeAgents)`);
      // the agent writes its NodeImage's status straight to the API server, never through R1's fault proxy
      return program(`${NODE_AGENT}-${node}`, '/readyz', false, NODE_AGENT, {
        NATS_USER: u.user,
        NATS_PASSWORD: u.password,
        NATS_INBOX_PREFIX: u.inboxPrefix,
        NODE_NAME: node,
        CRI_SOCKET: criSocket,
      });
    },
    now,
    log,
    async stop() {
      for (const c of [...controllers.values()].reverse()) await c.stop();
      await watcher.stop();
      for (const p of made) await p.stop();
      await sim.call('stop').catch(() => undefined);
      await sim.stop();
      await client.close();
      await apiProxy?.close();
      await watcherProxy?.close();
      sink.server.close();
    },
  };
}
