// OpenKruise's kruise-manager started against a local cluster, as a benchmark's peer (docs/adr/0053): its CRDs
// installed, its two webhook configurations (derived at run time from the module's config/webhook manifests)
// pointed at https://127.0.0.1:<port>, and kruise-manager itself in a network namespace of its own, joined to
// the host's loopback by two byte relays (kruise-relay.ts). Returns a handle with its pid, how long it took
// to be ready, and `stop()`. The binary and the CRDs come from tools/compat/build.sh's cache; the manifests
// from the Go module cache that build filled. Used by the rollout benchmarks' and the cold start's `--peer=kruise`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse } from 'yaml';
import { KubeApiError, KubeClient, NotFoundError } from '@regatta/kube';
import {
  applyObjects,
  cacheDir,
  freePort,
  installCrds,
  ManagedProcess,
  waitFor,
  type LocalCluster,
} from '@regatta/local-cluster';
import type { KubernetesObject } from '@kubernetes/client-node';
import { OPENKRUISE_MODULE, OPENKRUISE_VERSION } from '../compat/versions.js';
import { nowMs } from './common.js';
import type { RelayConfig } from './kruise-relay.js';
import {
  KRUISE_NAMESPACE,
  kruiseManagerArgs,
  kruiseControllerStarted,
  kruiseManagerEnv,
  kruiseWebhookConfigurations,
  portOf,
  type KruiseController,
  type WebhookConfiguration,
} from './peer-config.js';

export class KruisePeerError extends Error {
  readonly code = 'BENCH_KRUISE_PEER';
  constructor(message: string) {
    super(message);
    this.name = 'KruisePeerError';
  }
}

export interface KruisePeer {
  version: string;
  /** kruise-manager's own pid (CPU and memory are read from it), and the two relays'. */
  pid: number;
  relayPids: { host: number; netns: number };
  /** Spawn → webhook answering and the awaited controller's workers started, ms. */
  readyMs: number;
  logFile: string;
  /** Removes the webhook configurations (nothing answers them any more), stops kruise-manager and the relays
   * (once; later calls wait for the first). */
  stop(): Promise<void>;
}

/** tools/compat/build.sh's output: the binary and config/crd. */
export function kruiseCacheDir(): string {
  return join(cacheDir(), `openkruise-${OPENKRUISE_VERSION}`);
}

/** The module's extracted source in the Go module cache (for its config/webhook manifests). */
function moduleDir(): string {
  let root = process.env['GOMODCACHE'];
  if (!root) {
    const go = existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go';
    const r = spawnSync(go, ['env', 'GOMODCACHE'], { encoding: 'utf8' });
    root = r.status === 0 && r.stdout.trim() ? r.stdout.trim() : join(homedir(), 'go', 'pkg', 'mod');
  }
  return join(root, `${OPENKRUISE_MODULE}@v${OPENKRUISE_VERSION}`);
}

const readYamlDocs = <T>(file: string): T[] =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as T)
    .filter((d) => d !== null && d !== undefined);

/** kruise-manager's CRDs (config/crd/bases), as a kruise install applies them. */
export function kruiseCrds(): KubernetesObject[] {
  const dir = join(kruiseCacheDir(), 'config', 'crd', 'bases');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => readYamlDocs<KubernetesObject>(join(dir, f)));
}

/** The webhook configurations of a kruise install, pointed at https://127.0.0.1:<port>. */
export function kruiseWebhooks(port: number): WebhookConfiguration[] {
  const dir = join(moduleDir(), 'config', 'webhook');
  if (!existsSync(join(dir, 'manifests.yaml')))
    throw new KruisePeerError(
      `no ${join(dir, 'manifests.yaml')}: run tools/compat/build.sh (it downloads ${OPENKRUISE_MODULE}@v${OPENKRUISE_VERSION})`,
    );
  return kruiseWebhookConfigurations(
    readYamlDocs<WebhookConfiguration>(join(dir, 'manifests.yaml')),
    readYamlDocs<WebhookConfiguration>(join(dir, 'patch_manifests.yaml')),
    port,
  );
}

/** A delete of something already gone is done. */
const unlessNotFound = (err: unknown): undefined => {
  if (err instanceof NotFoundError) return undefined;
  throw err;
};

/** GET https://127.0.0.1:<port>/healthz (kruise-manager's webhook server; its own certificate) → status. */
function healthz(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, timeout: 2000 },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * Installs kruise-manager's CRDs and webhook configurations in the cluster of `kubeconfig` and starts it there
 * (client limits `qps`/`burst`), in `dir` (logs, certificates, the relays' sockets); resolves once its webhook
 * server answers and `controller` (the CloneSet's unless given) runs. With `cluster`, its processes stop with the
 * cluster too.
 */
export async function startKruiseManager(o: {
  kubeconfig: string;
  dir: string;
  qps: number;
  burst: number;
  log: (line: string) => void;
  cluster?: LocalCluster;
  timeoutMs?: number;
  /** kruise-manager started again on the same cluster: its CRDs are in place (deleting them would take the
   * objects with them); only its webhooks are pointed at the new port. */
  keepCrds?: boolean;
  /** The controller whose workers must have started (default the CloneSet's). */
  controller?: KruiseController;
}): Promise<KruisePeer> {
  const { kubeconfig, dir, log } = o;
  const binary = join(kruiseCacheDir(), 'bin', 'kruise-manager');
  if (!existsSync(binary))
    throw new KruisePeerError(`no ${binary}: run tools/compat/build.sh (builds kruise-manager once)`);
  mkdirSync(join(dir, 'certs'), { recursive: true });
  const cfg = parse(readFileSync(kubeconfig, 'utf8')) as { clusters?: { cluster?: { server?: string } }[] };
  const apiPort = portOf(cfg.clusters?.[0]?.cluster?.server ?? '');
  const webhookPort = await freePort();

  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  const configurations = kruiseWebhooks(webhookPort);
  try {
    // its own CRDs, not the cluster's: a CRD of the same name is deleted first (objects and all), since an
    // update cannot drop a version the API server has stored objects at
    const crds = o.keepCrds ? [] : kruiseCrds();
    const crdRef = (name: string) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      name,
    });
    const names = crds.map((c) => c.metadata?.name ?? '');
    for (const name of names) await client.delete(crdRef(name)).catch(unlessNotFound);
    await waitFor(
      'CRDs of the same names to be gone',
      async () => {
        for (const name of names) if (await client.getOrUndefined(crdRef(name))) return false;
        return true;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    if (crds.length > 0) await installCrds(kubeconfig, crds);
    await client
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KRUISE_NAMESPACE } })
      .catch((err: unknown) => {
        if (!(err instanceof KubeApiError && err.status === 409)) throw err;
      });
    await applyObjects(kubeconfig, configurations);
  } finally {
    await client.close();
  }
  log(
    `kruise-manager ${OPENKRUISE_VERSION}: CRDs and ${configurations.map((c) => c.webhooks?.length ?? 0).join(' + ')} ` +
      `webhooks at https://127.0.0.1:${webhookPort} installed`,
  );

  const relay = fileURLToPath(new URL('./kruise-relay.ts', import.meta.url));
  const nodeArgs = ['--import', import.meta.resolve('tsx'), relay];
  const base: RelayConfig = {
    apiPort,
    webhookPort,
    apiSock: join(dir, 'api.sock'),
    webhookSock: join(dir, 'webhook.sock'),
  };
  const pidFile = join(dir, 'kruise-manager.pid');
  const logFile = join(dir, 'kruise-manager.log');
  const host = ManagedProcess.start({
    name: 'kruise host relay',
    command: process.execPath,
    args: [...nodeArgs, 'host', JSON.stringify(base)],
    logFile: join(dir, 'relay-host.log'),
  });
  let netns: ManagedProcess | undefined;
  const stopProcesses = async () => {
    await netns?.stop();
    await host.stop();
  };
  try {
    if (o.cluster) await o.cluster.adopt(host);
    await waitFor('the host relay', () => host.assertRunning() ?? existsSync(base.apiSock), {
      timeoutMs: 30_000,
    });
    const manager = {
      command: binary,
      args: kruiseManagerArgs(o),
      env: kruiseManagerEnv({ kubeconfig, webhookPort, certDir: join(dir, 'certs') }),
      logFile,
      pidFile,
    };
    const t0 = nowMs();
    netns = ManagedProcess.start({
      name: 'kruise-manager',
      command: 'unshare',
      args: ['--net', '--', process.execPath, ...nodeArgs, 'netns', JSON.stringify({ ...base, manager })],
      logFile: join(dir, 'relay-netns.log'),
    });
    if (o.cluster) await o.cluster.adopt(netns);
    const ns = netns;
    const timeoutMs = o.timeoutMs ?? 180_000;
    const pid = await waitFor(
      'kruise-manager to start',
      () => {
        ns.assertRunning();
        return existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8'));
      },
      { timeoutMs: 30_000 },
    );
    await waitFor(
      "kruise-manager's webhook server (through the relays)",
      async () => {
        ns.assertRunning();
        return (await healthz(webhookPort)) === 200;
      },
      { timeoutMs, intervalMs: 500 },
    );
    const controller = o.controller ?? 'cloneset-controller';
    await waitFor(
      `kruise-manager's ${controller}`,
      () => {
        ns.assertRunning();
        return kruiseControllerStarted(readFileSync(logFile, 'utf8'), controller);
      },
      { timeoutMs, intervalMs: 500 },
    );
    const readyMs = nowMs() - t0;
    let stopped: Promise<void> | undefined;
    log(`kruise-manager up (pid ${pid}) in ${(readyMs / 1000).toFixed(1)} s, ${o.qps}/${o.burst} QPS/burst`);
    return {
      version: OPENKRUISE_VERSION,
      pid,
      relayPids: { host: host.pid, netns: ns.pid },
      readyMs,
      logFile,
      stop: () =>
        (stopped ??= (async () => {
          const c = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
          try {
            for (const w of configurations)
              await c
                .delete({ apiVersion: w.apiVersion, kind: w.kind, name: w.metadata.name })
                .catch(unlessNotFound);
          } finally {
            await c.close();
            await stopProcesses();
          }
        })()),
    };
  } catch (err) {
    await stopProcesses();
    throw err;
  }
}
