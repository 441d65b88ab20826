/**
 * The webhook wiring every controller gets (docs/adr/0013-webhook-ownership.md): one CA and serving certificate
 * shared by the replicas through a Secret, every replica serving with it, and the configurations kept in step by the
 * leader (recreated when deleted, caBundle and URL corrected).
 */
import type { KubeClient, KubeObject, OwnerReference } from '@regatta/kube';
import type { Registry } from 'prom-client';
import {
  WebhookServer,
  parseHostPort,
  type Logger,
  type Manager,
  type ProbeRegistrar,
} from '@regatta/runtime';
import type { WebhookDeclaration } from './declaration.js';
import { sharedWebhookCertificates, webhookSecretName } from './webhook-certificates.js';
import {
  type LateWebhookConfigurations,
  WebhookConfigurationKeeper,
  keeperMark,
} from './webhook-configurations.js';
import { ownedBy, parseWebhookService, pointAtService, serviceHosts } from './webhook-endpoint.js';

/** The host the API server dials when the server binds `host`: a wildcard bind is reached on loopback. */
export function dialHost(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
}

/** `https://host:port`, IPv6 hosts in brackets. */
export function webhookUrl(host: string, port: number): string {
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export interface ServeWebhooksOptions {
  declaration: WebhookDeclaration;
  controller: string;
  /** `regatta-<controller>`: the field manager of the configurations. */
  program: string;
  client: KubeClient;
  manager: Manager;
  probes: ProbeRegistrar;
  /** Where the certificate Secret lives (the Lease's namespace). */
  namespace: string;
  scope: { matchLabels: Record<string, string> } | undefined;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** The program's /metrics registry: the webhook server's connection count and request times. */
  registry?: Registry;
  /** Resolves once the caches are loaded: configurations computed from them are applied only after. */
  cachesSynced?: () => Promise<void>;
  /** Calls `wake` on every change of the named readers (the declaration's `followedReaders`). */
  onReaderChange?: (names: readonly string[], wake: () => void) => void;
  /** Bound to the keeper once it runs: the routes' way to apply the configurations now (`ProgramContext`). */
  now?: LateWebhookConfigurations;
}

/**
 * Adds the webhook server and the configuration keeper to the manager when REGATTA_WEBHOOK_ADDR is set. The URL is
 * REGATTA_WEBHOOK_URL, or the address the server bound (so port 0 works).
 */
export async function serveWebhooks(o: ServeWebhooksOptions): Promise<void> {
  const addr = o.env['REGATTA_WEBHOOK_ADDR'];
  if (!addr) {
    o.log.info('REGATTA_WEBHOOK_ADDR is not set: serving no admission webhooks');
    return;
  }
  const { host, port } = parseHostPort('REGATTA_WEBHOOK_ADDR', addr);
  const configuredUrl = o.env['REGATTA_WEBHOOK_URL'] || undefined;
  const service = parseWebhookService(o.env['REGATTA_WEBHOOK_SERVICE']);
  const urlHost = configuredUrl ? new URL(configuredUrl).hostname.replace(/^\[|\]$/g, '') : dialHost(host);
  const hosts = [
    ...new Set([...(service ? serviceHosts(service) : []), urlHost, dialHost(host), 'localhost']),
  ];
  const { program } = o;
  const certs = await withRetries(o.log, 'could not read or create the webhook certificates', () =>
    sharedWebhookCertificates(o.client, {
      namespace: o.namespace,
      name: webhookSecretName(o.controller),
      hosts,
      commonName: `${program}-webhook`,
      log: o.log,
    }),
  );
  const server = new WebhookServer({
    tls: certs.serving,
    host,
    port,
    logger: o.log,
    ...(o.registry && { registry: o.registry }),
  });
  for (const route of o.declaration.routes) route.register(server);
  o.manager.add(server);

  // the keeper starts once the server answers, so the API server never calls a closed port
  let keeper: WebhookConfigurationKeeper | undefined;
  o.probes.addReadyzCheck('webhook-configurations', () => {
    if (!keeper) throw new Error('webhook server not listening yet');
    return keeper.readyCheck()();
  });
  o.manager.add({
    name: 'webhook-configurations',
    start: async (signal) => {
      const bound = await Promise.race([
        server.listening(),
        new Promise<undefined>((resolve) =>
          signal.addEventListener('abort', () => resolve(undefined), { once: true }),
        ),
      ]);
      if (!bound) return;
      await o.cachesSynced?.();
      if (signal.aborted) return;
      const url = (configuredUrl ?? webhookUrl(dialHost(host), bound.port)).replace(/\/$/, '');
      const owner = await webhookOwner(o);
      const place = (c: KubeObject) => {
        const reached = service ? pointAtService(c, url, service) : c;
        return owner ? ownedBy(reached, owner) : reached;
      };
      keeper = new WebhookConfigurationKeeper({
        client: o.client,
        fieldManager: program,
        // its configurations carry this mark; the leader deletes those it no longer wants (docs/adr/0085)
        mark: keeperMark(program, o.scope),
        // recomputed on every pass: a declaration may derive its configurations from the caches
        desired: () => o.declaration.configurations(url, certs.caPem, o.scope).map(place),
        isLeader: () => o.manager.isLeader(),
        log: o.log,
      });
      o.now?.bind(keeper);
      o.log.info({ url, service, owner: owner?.name }, 'serving admission webhooks');
      await keeper.start(signal);
    },
  });
  // configurations that follow the caches are re-applied on their change, not at the next poll
  const followed = o.declaration.followedReaders ?? [];
  if (followed.length > 0) o.onReaderChange?.(followed, () => keeper?.wakeIfChanged());
  // elected: re-point the configurations now, not at the next poll (the former leader may be dead)
  o.manager.add({
    name: 'webhook-configurations-owner',
    needLeaderElection: () => true,
    start: async (signal) => {
      keeper?.wake();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
  });
}

/**
 * The ClusterRole `REGATTA_WEBHOOK_OWNER` names, as the owner of the configurations (undefined when unset). A missing
 * ClusterRole is reported and the configurations are kept without an owner.
 */
async function webhookOwner(o: ServeWebhooksOptions): Promise<OwnerReference | undefined> {
  const name = o.env['REGATTA_WEBHOOK_OWNER'];
  if (!name) return undefined;
  const ref = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name };
  const role = await withRetries(
    o.log,
    `could not read the ClusterRole ${name} (REGATTA_WEBHOOK_OWNER)`,
    () => o.client.getOrUndefined(ref),
  );
  const uid = role?.metadata?.uid;
  if (!uid) {
    o.log.warn(
      { owner: name },
      'REGATTA_WEBHOOK_OWNER names no ClusterRole: the webhook configurations get no owner and outlive an uninstall',
    );
    return undefined;
  }
  return { ...ref, uid };
}

/** Retries `fn` with back-off (0.5 s doubling to 8 s) for about a minute, then throws its last error. */
async function withRetries<T>(log: Logger, what: string, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 10) throw err;
      log.warn({ err, attempt }, `${what}; retrying`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(8_000, 250 * 2 ** attempt)));
    }
  }
}
