import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildControlPlane,
  cacheDir,
  cleanupRealNodesInDir,
  CONTROL_PLANE_COMPONENTS,
  ENDPOINTS_FILE,
  freePorts,
  applyObjects,
  installCrds,
  LocalCluster,
  missingComponents,
  startProgram,
  waitFor,
  writePrivateFile,
  type ClusterEndpoints,
} from '@regatta/local-cluster';
import { KubeConfig, CoreV1Api, type KubernetesObject } from '@kubernetes/client-node';
import { bucketName, registrationKey } from '@regatta/bus';
import { KIND_TABLE } from '@regatta/kube';
import { parseAllDocuments } from 'yaml';
import { appEntry, resolveControllers, UsageError } from './controllers.js';
import { planRealNodes, startRealNodes } from './real-nodes.js';
import { dashboardHint } from './dashboard-command.js';
import { loadCrdValidationPolicies } from './crd-validation-policies.js';

export interface SandboxOptions {
  dir: string;
  nodes: number;
  zones: string[];
  controllers: string;
  detach: boolean;
  /**
   * Real nodes beside the simulated ones (`--real-nodes`); `'default'`: one where the machine can run it (the CLI's
   * default); absent: none.
   */
  realNodes?: number | 'default' | undefined;
  /** Run the apps' built bundles (`npm run build`) with plain node: what is measured is what ships. */
  bundles?: boolean;
  /** nats-servers of the bus (`--bus-replicas`): 1 (default), or a JetStream cluster (docs/operations.md). */
  busReplicas?: number;
  log: (line: string) => void;
}

export interface ProgramEndpoint {
  name: string;
  pid: number;
  health: string;
  log: string;
}

export interface SandboxEndpoints extends ClusterEndpoints {
  nodes: string[];
  /** Nodes run by a real kubelet and containerd (docs/real-nodes.md). */
  realNodes: string[];
  /** The image registry the real nodes pull from (`127.0.0.1:PORT`), when there is one. */
  registry?: string;
  programs: ProgramEndpoint[];
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Brings up the cluster, the node simulator, the watcher and the chosen controllers; resolves when all are ready. */
export async function sandboxUp(
  o: SandboxOptions,
): Promise<{ cluster: LocalCluster; endpoints: SandboxEndpoints }> {
  const selection = resolveControllers(o.controllers); // usage errors before anything starts
  if (o.bundles)
    for (const app of [...(selection.watcher ? ['watcher'] : []), ...selection.controllers]) bundleEntry(app);
  await mkdir(o.dir, { recursive: true, mode: 0o700 });
  // a machine that has never built the control plane builds what is missing now, with a progress line that moves
  // (skipped in well under a second when all is cached)
  // (`--controllers none` runs no program that traces: no Jaeger, so none to build)
  const jaeger = selection.watcher || selection.controllers.length > 0;
  await buildControlPlane({
    components: missingComponents(
      cacheDir(),
      CONTROL_PLANE_COMPONENTS.filter((c) => jaeger || c !== 'jaeger'),
    ),
  });
  const realOptions = {
    requested: o.realNodes === 'default' ? undefined : (o.realNodes ?? 0),
    zones: o.zones,
    detach: o.detach,
    log: o.log,
  };
  const realNames = await planRealNodes(realOptions);
  const t0 = Date.now();
  const nodeNames = Array.from({ length: o.nodes }, (_, i) => `node${i + 1}`);
  // image pre-warming: one node agent per node, each with a bus user that reads only its node's NodeImage; a real
  // node's agent pulls through its containerd's CRI
  // and their recreate duty with the containerrecreaterequest controller
  const agentDuties = [
    ...(selection.controllers.includes('imagepull') ? ['imagepull'] : []),
    ...(selection.controllers.includes('containerrecreaterequest') ? ['containerrecreate'] : []),
  ];
  // a real node's agent also reports its pods' runtime meta and restarts containers through CRI for env-from-metadata
  // updates, whenever a controller runs (kruise-daemon's part the node simulator plays on its own nodes, ADR 0084)
  const realAgentDuties = [...agentDuties, ...(selection.controllers.length > 0 ? ['containermeta'] : [])];
  const agentNodes =
    appEntry(NODE_AGENT_APP) === undefined
      ? []
      : [...(agentDuties.length > 0 ? nodeNames : []), ...(realAgentDuties.length > 0 ? realNames : [])];
  const nodeAgents = agentNodes.length > 0;
  const cluster = await LocalCluster.start({
    dir: o.dir,
    jaeger,
    keepAfterExit: o.detach,
    log: o.log,
    natsAuth: true,
    ...(o.busReplicas !== undefined ? { busReplicas: o.busReplicas } : {}),
    ...(nodeAgents ? { natsNodeAgents: nodeAgentsOption(agentNodes) } : {}),
  });
  try {
    const kubeconfig = cluster.endpoints.kubeconfig;
    const crds = await loadCrds();
    if (crds.length > 0) {
      await installCrds(kubeconfig, crds);
      o.log(`installed ${crds.length} CustomResourceDefinitions`);
    }
    const policies = [...(await loadCrdValidationPolicies(repoRoot)), ...(await loadPolicies(selection.controllers, process.env))];
    if (policies.length > 0) {
      await applyObjects(kubeconfig, policies);
      o.log(`installed ${policies.length} ValidatingAdmissionPolicies and bindings (CRD validation, deletion protection)`);
    }

    const programs: ProgramEndpoint[] = [];
    const start = async (
      name: string,
      entry: string,
      args: string[],
      role?: BusRole,
      extraEnv: NodeJS.ProcessEnv = {},
    ) => {
      const [healthPort, webhookPort] = (await freePorts(2)) as [number, number];
      // controllers serve their admission webhooks here; the API server reaches them by URL
      const webhook =
        role === 'controller'
          ? {
              REGATTA_WEBHOOK_ADDR: `127.0.0.1:${webhookPort}`,
              REGATTA_WEBHOOK_URL: `https://127.0.0.1:${webhookPort}`,
            }
          : {};
      const logFile = join(o.dir, 'logs', `${name}.log`);
      const p = startProgram({
        name,
        entry,
        args,
        logFile,
        env: {
          ...programEnv(cluster.endpoints, role, name),
          // the watcher's key for Secrets' keyed hash (docs/adr/0009), fresh per sandbox
          ...(role === 'watcher' ? { REGATTA_SECRET_HASH_KEY: randomBytes(32).toString('base64url') } : {}),
          REGATTA_HEALTH_ADDR: `127.0.0.1:${healthPort}`,
          ...webhook,
          ...extraEnv,
        },
        keepAfterExit: o.detach,
      });
      const health = `http://127.0.0.1:${healthPort}`;
      await cluster.adopt(p, { url: `${health}/readyz` });
      programs.push({ name, pid: p.pid, health, log: logFile });
      return { p, healthPort };
    };

    const criSocketDir = join(o.dir, 'cri');
    await start('node-simulator', fileURLToPath(new URL('./main.ts', import.meta.url)), [
      'node-simulator',
      '--kubeconfig',
      kubeconfig,
      '--nodes',
      String(o.nodes),
      '--zones',
      o.zones.join(','),
      '--cri-socket-dir',
      criSocketDir,
    ]);
    await waitForReadyNodes(kubeconfig, nodeNames, cluster);
    o.log(`${o.nodes} nodes Ready over zones ${o.zones.join(', ')}`);
    const realNodes = await startRealNodes(realNames, realOptions, cluster);

    const apps = [...(selection.watcher ? ['watcher'] : []), ...selection.controllers];
    for (const app of apps) {
      const entry = o.bundles ? bundleEntry(app) : appEntry(app);
      if (!entry) continue;
      const { p, healthPort } = await start(app, entry, [], app === 'watcher' ? 'watcher' : 'controller');
      await waitFor(
        `${app} to report ready on /readyz`,
        async () => {
          p.assertRunning();
          const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
          return res.status === 200;
        },
        { timeoutMs: 90_000, intervalMs: 200 },
      );
      o.log(`${app} ready`);
    }
    if (nodeAgents) {
      const entry = appEntry(NODE_AGENT_APP)!;
      // started one after the other (the pid records are written per start), then awaited side by side
      const started = [];
      const criSockets = new Map(
        [
          ...nodeNames.map((n) => [n, join(criSocketDir, `${n}.sock`), agentDuties] as const),
          ...realNodes.map((n) => [n.name, n.criSocket, realAgentDuties] as const),
        ]
          .filter(([n]) => agentNodes.includes(n))
          .map(([n, socket, duties]) => [n, { socket, duties }] as const),
      );
      for (const [node, { socket: criSocket, duties }] of criSockets) {
        const creds = cluster.endpoints.natsAuth?.nodeAgents?.[node];
        const s = await start(`${NODE_AGENT_APP}-${node}`, entry, [], undefined, {
          NODE_NAME: node,
          CRI_SOCKET: criSocket,
          REGATTA_NODE_AGENT_DUTIES: duties.join(','),
          ...(creds
            ? { NATS_USER: creds.user, NATS_PASSWORD: creds.password, NATS_INBOX_PREFIX: creds.inboxPrefix }
            : {}),
        });
        started.push({ node, ...s });
      }
      await Promise.all(
        started.map(({ node, p, healthPort }) =>
          waitFor(
            `${NODE_AGENT_APP} of ${node} to report ready on /readyz`,
            async () => {
              p.assertRunning();
              return (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).status === 200;
            },
            { timeoutMs: 90_000, intervalMs: 200 },
          ),
        ),
      );
      o.log(`${criSockets.size} image pull agents ready (one per node)`);
    }

    const endpoints: SandboxEndpoints = {
      ...cluster.endpoints,
      nodes: nodeNames,
      realNodes: realNodes.map((n) => n.name),
      ...(realNodes[0] ? { registry: realNodes[0].registry } : {}),
      programs,
    };
    await writePrivateFile(join(o.dir, ENDPOINTS_FILE), JSON.stringify(endpoints, null, 2) + '\n');
    o.log(`sandbox ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: export KUBECONFIG=${kubeconfig}`);
    o.log(`rollout dashboard: ${dashboardHint(kubeconfig, endpoints.jaeger?.query)}`);
    return { cluster, endpoints };
  } catch (err) {
    await cluster.stop();
    await cleanupRealNodesInDir(o.dir);
    throw err;
  }
}

/** The app's bundle from `npm run build` (docs/operations.md); a usage error naming the command when it is not built. */
function bundleEntry(app: string): string {
  const entry = join(repoRoot, 'dist', 'apps', app, 'main.mjs');
  if (!existsSync(entry))
    throw new UsageError(`--bundles: ${app} is not built (${entry}); run \`npm run build\` first`);
  return entry;
}

/** The node agent of image pre-warming (apps/imagepull-agent), started per node with the imagepull controller. */
export const NODE_AGENT_APP = 'imagepull-agent';

/** Bus users of the node agents: each reads its node's key of the NodeImage mirror and registers under its name. */
export function nodeAgentsOption(nodes: string[]) {
  return {
    nodes,
    bucket: bucketName(KIND_TABLE.nodeimages),
    registration: (node: string) => registrationKey('imagepull', `agent-${node}`),
  };
}

/** Which bus credentials a program gets: only the watcher may write the mirror buckets. */
export type BusRole = 'watcher' | 'controller';

/** What every Regatta program started by the sandbox finds in its environment (a controller: its own bus user). */
export function programEnv(e: ClusterEndpoints, role?: BusRole, name?: string): NodeJS.ProcessEnv {
  const creds =
    (role === 'controller' && name && e.natsAuth?.controllers?.[name]) || (role && e.natsAuth?.[role]);
  return {
    KUBECONFIG: e.kubeconfig,
    // every server of a clustered bus: the client fails over among them, and sizes its buckets' replicas by them
    ...(e.nats ? { NATS_URL: (e.natsServers?.map((s) => s.url) ?? [e.nats]).join(',') } : {}),
    ...(creds ? { NATS_USER: creds.user, NATS_PASSWORD: creds.password } : {}),
    ...(e.jaeger ? { OTEL_EXPORTER_OTLP_ENDPOINT: e.jaeger.otlpHttp } : {}),
  };
}

async function waitForReadyNodes(kubeconfig: string, names: string[], cluster: LocalCluster): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  await waitFor(
    `${names.length} simulated nodes to be Ready`,
    async () => {
      const list = await core.listNode();
      const ready = new Set(
        list.items
          .filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
          .map((n) => n.metadata?.name),
      );
      return names.every((n) => ready.has(n));
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  ).catch(async (err: unknown) => {
    throw new Error(
      `${(err as Error).message}; node simulator log: ${join(cluster.dir, 'logs', 'node-simulator.log')}`,
      {
        cause: err,
      },
    );
  });
}

/**
 * Deletion protection's ValidatingAdmissionPolicies (deploy/policies, rendered from libs/deletionprotection), as the
 * chart installs them: with the deletionprotection controller and gate ResourcesDeletionProtection on in the
 * REGATTA_FEATURE_GATES the programs inherit. They stay when that program stops (docs/adr/0079).
 */
export async function loadPolicies(controllers: readonly string[], env: NodeJS.ProcessEnv): Promise<KubernetesObject[]> {
  const gateOn = /(^|,)\s*ResourcesDeletionProtection\s*=\s*true\s*(,|$)/i.test(env['REGATTA_FEATURE_GATES'] ?? '');
  const file = join(repoRoot, 'deploy', 'policies', 'deletion-protection.yaml');
  if (!controllers.includes('deletionprotection') || !gateOn || !existsSync(file)) return [];
  return parseAllDocuments(await readFile(file, 'utf8'))
    .map((doc) => doc.toJS() as KubernetesObject | null)
    .filter((obj): obj is KubernetesObject => !!obj?.kind);
}

/** The generated CRDs in deploy/crds (absent until the API library generates them). */
async function loadCrds(): Promise<KubernetesObject[]> {
  const dir = join(repoRoot, 'deploy', 'crds');
  if (!existsSync(dir)) return [];
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  const out: KubernetesObject[] = [];
  for (const f of files) {
    for (const doc of parseAllDocuments(await readFile(join(dir, f), 'utf8'))) {
      const obj = doc.toJS() as KubernetesObject | null;
      if (obj?.kind === 'CustomResourceDefinition') out.push(obj);
    }
  }
  return out;
}
