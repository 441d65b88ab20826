// `npm run bench -- --peer=kruise`: OpenKruise's kruise-manager run as a third column of the rollout benchmark
// (docs/benchmarks-rollouts-kruise-manager.md, "side by side with kruise-manager"). The pure parts: the flags, the
// kruise-manager command line, and the webhook configurations it is given (derived at run time from the
// upstream module's config/webhook manifests, pointed at a loopback URL; docs/adr/0053).

/** kruise-manager's client limits as it ships (main.go: --rest-config-qps 30, --rest-config-burst 50). */
export const KRUISE_SHIPPED_QPS = 30;
export const KRUISE_SHIPPED_BURST = 50;

export interface PeerOptions {
  peer: 'kruise';
  qps: number;
  burst: number;
}

export class PeerArgsError extends Error {
  readonly code = 'BENCH_PEER_ARGS';
  constructor(message: string) {
    super(message);
    this.name = 'PeerArgsError';
  }
}

/** The arguments this module reads (main.ts accepts them besides its own). */
export const isPeerArg = (a: string): boolean =>
  a.startsWith('--peer=') || a.startsWith('--peer-qps=') || a.startsWith('--peer-burst=');

/**
 * `--peer=kruise [--peer-qps=Q] [--peer-burst=B]` → the peer to run and its client limits (kruise-manager's
 * shipped 30/50 unless given); undefined without `--peer`. Limits without a peer are an error.
 */
export function parsePeerArgs(args: string[]): PeerOptions | undefined {
  const value = (flag: string) => {
    const hits = args.filter((a) => a.startsWith(`${flag}=`));
    if (hits.length > 1) throw new PeerArgsError(`${flag} given ${hits.length} times`);
    return hits[0]?.slice(flag.length + 1);
  };
  const int = (flag: string, fallback: number) => {
    const v = value(flag);
    if (v === undefined) return fallback;
    const x = Number(v);
    if (!Number.isInteger(x) || x <= 0) throw new PeerArgsError(`${flag} wants a positive integer, got ${v}`);
    return x;
  };
  const peer = value('--peer');
  const qps = int('--peer-qps', KRUISE_SHIPPED_QPS);
  const burst = int('--peer-burst', KRUISE_SHIPPED_BURST);
  if (peer === undefined) {
    if (value('--peer-qps') !== undefined || value('--peer-burst') !== undefined)
      throw new PeerArgsError('--peer-qps and --peer-burst need --peer=kruise');
    return undefined;
  }
  if (peer !== 'kruise') throw new PeerArgsError(`--peer knows only kruise, got ${peer}`);
  if (burst < qps) throw new PeerArgsError(`--peer-burst (${burst}) below --peer-qps (${qps})`);
  return { peer, qps, burst };
}

/**
 * The limits kruise-manager runs with while it only builds a benchmark's world (the cold start's set-up, not
 * measured): the rollout benchmark's raised 200/400 (docs/benchmarks-rollouts-kruise-manager.md), or the measured phase's own
 * limits when those are higher. At its shipped 30/50 the 10 000-pod set-up ran past 18 min (docs/benchmarks-coldstart.md
 * section 10); the measured start keeps the limits asked for.
 */
export const KRUISE_SETUP_QPS = 200;
export const KRUISE_SETUP_BURST = 400;

export function setupLimits(measured: { qps: number; burst: number }): { qps: number; burst: number } {
  return {
    qps: Math.max(KRUISE_SETUP_QPS, measured.qps),
    burst: Math.max(KRUISE_SETUP_BURST, measured.burst),
  };
}

/** The shipped limits or raised ones, as the report names them. */
export const describeLimits = (o: { qps: number; burst: number }): string =>
  `client limits ${o.qps}/${o.burst}` +
  (o.qps === KRUISE_SHIPPED_QPS && o.burst === KRUISE_SHIPPED_BURST
    ? ' (shipped)'
    : ' (raised; shipped 30/50)');

/**
 * kruise-manager's flags: the client limits; its metrics and health servers on loopback (it runs in a
 * network namespace of its own anyway), pprof off; leader election, feature gates, the sync period and the
 * namespace as shipped.
 */
export function kruiseManagerArgs(o: { qps: number; burst: number }): string[] {
  return [
    `--rest-config-qps=${o.qps}`,
    `--rest-config-burst=${o.burst}`,
    '--metrics-addr=127.0.0.1:8080',
    '--health-probe-addr=127.0.0.1:8000',
    '--enable-pprof=false',
  ];
}

/** The environment kruise-manager reads (upstream pkg/webhook/util/util.go, pkg/util/meta.go). */
export function kruiseManagerEnv(o: { kubeconfig: string; webhookPort: number; certDir: string }) {
  return {
    KUBECONFIG: o.kubeconfig,
    POD_NAMESPACE: KRUISE_NAMESPACE,
    // with a host, kruise-manager's certificate names it (an IP SAN) and it keeps the configurations' URLs
    WEBHOOK_HOST: '127.0.0.1',
    WEBHOOK_PORT: String(o.webhookPort),
    WEBHOOK_CERT_DIR: o.certDir,
  };
}

export const KRUISE_NAMESPACE = 'kruise-system';

interface Webhook {
  name: string;
  clientConfig?: { service?: { path?: string }; url?: string; caBundle?: string };
  [k: string]: unknown;
}
export interface WebhookConfiguration {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  webhooks?: Webhook[];
}

/**
 * The two webhook configurations a kruise install has, from the module's config/webhook manifests.yaml
 * (`base`) with its kustomize patch_manifests.yaml (`patches`: selectors merged by webhook name) and
 * kustomize's `kruise-` name prefix, each webhook pointed at `https://127.0.0.1:<port><path>` instead of the
 * in-cluster Service. kruise-manager finds them by name and fills in its CA bundle.
 */
export function kruiseWebhookConfigurations(
  base: WebhookConfiguration[],
  patches: WebhookConfiguration[],
  port: number,
): WebhookConfiguration[] {
  return base
    .filter((d) => d.kind === 'MutatingWebhookConfiguration' || d.kind === 'ValidatingWebhookConfiguration')
    .map((d) => {
      const patch = patches.find((p) => p.kind === d.kind && p.metadata.name === d.metadata.name);
      const webhooks = (d.webhooks ?? []).map((w) => {
        const path = w.clientConfig?.service?.path ?? '';
        if (!path) throw new PeerArgsError(`webhook ${w.name} in ${d.metadata.name} names no service path`);
        const extra = patch?.webhooks?.find((p) => p.name === w.name) ?? {};
        return { ...w, ...extra, name: w.name, clientConfig: { url: `https://127.0.0.1:${port}${path}` } };
      });
      return {
        apiVersion: d.apiVersion,
        kind: d.kind,
        metadata: { name: `kruise-${d.metadata.name}` },
        webhooks,
      };
    });
}

/** The port of a kubeconfig's `server` (https://127.0.0.1:<port>). */
export function portOf(server: string): number {
  const u = new URL(server);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  if (!['127.0.0.1', 'localhost'].includes(u.hostname))
    throw new PeerArgsError(`the API server is not on loopback: ${server}`);
  return port;
}

/**
 * The kruise-manager controller a rollout's workload needs, by the name it registers with controller-runtime
 * (upstream pkg/controller/{cloneset,statefulset,daemonset}/*_controller.go, `controller.New`).
 */
export type KruiseController = 'cloneset-controller' | 'statefulset-controller' | 'daemonset-controller';

/** kruise-manager's log says `controller`'s workers started (its caches synced: it acts on its workload). */
export const kruiseControllerStarted = (log: string, controller: KruiseController): boolean =>
  log.split('\n').some((l) => l.includes('Starting workers') && l.includes(controller));

/** The namespace of a rollout benchmark's workload when kruise-manager is its controller. */
export const KRUISE_BENCH_NAMESPACE = 'bench-kruise';

/**
 * A rollout benchmark's peer side from Regatta's: the identical workload (a copy, in `bench-kruise`), the same
 * batch, bound and "done"; labelled for kruise-manager `version`, which must run `controller`.
 */
export function kruisePeerSide<
  S extends { name: string; label: string; object: { metadata?: { namespace?: string } } },
>(regatta: S, controller: KruiseController, version: string): S & { kruiseController: KruiseController } {
  return {
    ...regatta,
    name: 'kruise-manager',
    label: `${regatta.label}, kruise-manager v${version}`,
    object: {
      ...regatta.object,
      metadata: { ...regatta.object.metadata, namespace: KRUISE_BENCH_NAMESPACE },
    },
    kruiseController: controller,
  };
}
