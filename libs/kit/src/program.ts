/**
 * Runs a declared controller: bus registration and caches, the event handlers derived from the declaration, the
 * work queue and reconciler, probes and metrics, leader election (a Lease named after the controller), the webhook
 * server with the shared certificates and the configurations kept in step, namespace scoping, graceful shutdown.
 * Environment: see the README's table (nothing here adds a variable).
 */
import { Cache, projection, registerKinds } from '@regatta/bus';
import { EventRecorder, type KubeObject } from '@regatta/kube';
import {
  Controller,
  Expectations,
  parseFeatureGates,
  parseNamespaceScope,
  startStopRunnable,
  type FeatureGateDefaults,
  type Priority,
  type Request,
} from '@regatta/runtime';
import { withAlongside, type Alongside } from './alongside.js';
import { runProgram, type Program } from './bootstrap.js';
import { cacheSyncMetrics, holdWhileOutOfSync } from './cache-sync.js';
import type { ControllerDeclaration, ProgramContext, Readers, WebhookDeclaration } from './declaration.js';
import {
  NAMESPACES,
  cachesOfAll,
  eventHandlers,
  kindsOfAll,
  mergeWebhooks,
  queuePriority,
  requestInScope,
  requestsInNamespace,
} from './derive.js';
import { registerProgramMetrics } from './program-metrics.js';
import { LateWebhookConfigurations } from './webhook-configurations.js';
import { serveWebhooks } from './webhooks.js';

/** Runs the controller until SIGTERM/SIGINT (or a failure: the exit code is then 1). */
export function runController<R extends Record<string, KubeObject>, G extends string>(
  decl: ControllerDeclaration<R, G>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  return runProgram({ name: decl.options.name, env }, (p) => setUpControllers(decl.options.name, [decl], p));
}

/**
 * Runs several controllers as one program `regatta-<name>` (OpenKruise's kruise-manager runs its controllers
 * side by side; the ImagePullJob and NodeImage controllers are one Regatta program): one bus registration under
 * `name` for the kinds of all of them, one cache per reader name (shared; it keeps what any declaration keeps), one
 * webhook server with every declaration's routes and configurations, and per declaration its own queue, reconciler,
 * expectations and Event source. `alongside`: parts that run beside the controllers on every replica (started
 * before the program, stopped after it).
 */
export function runControllers(
  name: string,
  decls: readonly AnyControllerDeclaration[],
  env: NodeJS.ProcessEnv = process.env,
  opts: { alongside?: readonly Alongside[] } = {},
): Promise<void> {
  return withAlongside(opts.alongside ?? [], { program: `regatta-${name}`, env }, () =>
    runProgram({ name, env }, (p) => setUpControllers(name, decls, p)),
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of declarations of different reader types
type AnyControllerDeclaration = ControllerDeclaration<any, any>;

async function setUpControllers(
  name: string,
  decls: readonly AnyControllerDeclaration[],
  { program, env, log, tracing, config, client, bus, registry, probes, manager, onStop }: Program,
): Promise<void> {
  // OpenKruise's --feature-gates, e.g. REGATTA_FEATURE_GATES=PreparingUpdateAsUpdate=true
  const gates = parseFeatureGates(
    'REGATTA_FEATURE_GATES',
    env['REGATTA_FEATURE_GATES'],
    Object.assign({}, ...decls.map((d) => d.options.featureGates ?? {})) as FeatureGateDefaults<string>,
  );
  // REGATTA_NAMESPACE_SELECTOR=key=value[,…]: serve only namespaces with these labels (webhooks and reconciles)
  const scope = parseNamespaceScope('REGATTA_NAMESPACE_SELECTOR', env['REGATTA_NAMESPACE_SELECTOR']);

  const registration = registerKinds(bus, name, config.identity, kindsOfAll(decls, !!scope), {
    onError: (err) => log.debug({ err }, 'registration not written yet; retrying'),
  });
  onStop(() => registration.stop());
  const onError = (err: unknown) => log.warn({ err }, 'cache trouble; re-watching');
  const caches = new Map<string, Cache>();
  const onSetAside = cacheSyncMetrics(registry, caches, log);
  for (const c of cachesOfAll(decls, !!scope)) {
    caches.set(
      c.name,
      new Cache(bus, c.kind, {
        onError,
        onSetAside: onSetAside(c.name),
        ...(c.keep ? { keep: c.keep } : {}),
        // only the fields the program's controllers read (docs/adr/0060-pod-projection.md)
        ...(c.project ? { transform: projection(c.project) } : {}),
      }),
    );
  }
  const rollouts = decls.flatMap((d) =>
    d.rolloutMetrics
      ? [{ kind: d.forKind.kind.kind, reader: caches.get(d.forKind.name)!, project: d.rolloutMetrics }]
      : [],
  );
  registerProgramMetrics(registry, { program, isLeader: () => manager.isLeader(), caches, rollouts });
  // the one place where mirrored JSON is taken as the declared types (as a typed informer does)
  const readers = Object.fromEntries(caches) as Readers<Record<string, KubeObject>>;
  const namespaces = scope ? caches.get(NAMESPACES) : undefined;

  const webhooks: WebhookDeclaration[] = [];
  const webhookConfigurations = new LateWebhookConfigurations();
  for (const decl of decls) {
    const expectations = new Expectations({
      onTimeout: (e) => log.warn({ key: e.key, kind: e.kind }, 'expectation timed out; dropped'),
    });
    const recorder = new EventRecorder(client, {
      component: decl.options.eventComponent,
      instance: config.identity,
      onError: (err, ev) => log.debug({ err, reason: ev.reason }, 'event not recorded'),
    });
    const ctx: ProgramContext<Record<string, KubeObject>, string> = {
      readers,
      client,
      expectations,
      recorder,
      tracer: tracing.tracer,
      gates,
      log,
      identity: config.identity,
      webhookConfigurations,
    };
    const controller = new Controller({
      name: decl.options.name,
      // never on a cache that is not in sync with the bus (docs/adr/0068)
      reconciler: holdWhileOutOfSync(
        decl.reconciler(ctx),
        caches,
        log.child({ controller: decl.options.name }),
      ),
      maxConcurrentReconciles: decl.options.maxConcurrentReconciles ?? 1,
      registry,
      logger: log,
    });

    const forReader = readers[decl.forKind.name]!;
    const inScope = (req: Request): boolean =>
      !!decl.options.ignoreNamespaceScope ||
      requestInScope(
        scope,
        req,
        decl.forKind.kind,
        forReader,
        (ns) => namespaces?.get(undefined, ns)?.metadata?.labels,
      );
    const enqueue = (req: Request, priority: Priority) => {
      if (inScope(req)) controller.enqueue(req, { priority });
    };
    const handlers = eventHandlers(decl, { expectations, readers });
    // an object being deleted goes first; what the caches find at start waits behind changes made now
    for (const [cacheName, handle] of handlers) {
      const forCache = cacheName === decl.forKind.name;
      caches
        .get(cacheName)
        ?.onChange((c) => handle(c).forEach((req) => enqueue(req, queuePriority(c, req, forCache))));
    }
    // a namespace entering the scope (or seen after its objects): reconcile what it holds
    namespaces?.onChange((c) => {
      const ns = c.object.metadata?.name;
      if (c.type !== 'delete' && ns && inScope({ namespace: ns, name: '' }))
        requestsInNamespace(forReader, ns).forEach((req) => enqueue(req, queuePriority(c, req, false)));
    });
    if (decl.webhooks) webhooks.push(decl.webhooks(ctx));
    manager.add(controller);
  }

  if (webhooks.length > 0) {
    await serveWebhooks({
      declaration: mergeWebhooks(webhooks),
      controller: name,
      program,
      client,
      manager,
      probes,
      namespace: config.leaseNamespace,
      scope,
      env,
      log,
      registry,
      cachesSynced: async () => {
        await Promise.all([...caches.values()].map((c) => c.waitForSync()));
      },
      now: webhookConfigurations,
      onReaderChange: (names, wake) => {
        for (const n of names) caches.get(n)?.onChange(wake);
      },
    });
  }
  for (const [cacheName, cache] of caches) manager.add(startStopRunnable(cacheName, cache));
}
