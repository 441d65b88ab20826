/**
 * Runs a declared controller: bus registration and caches, the event handlers derived from the declaration, the
 * work queue and reconciler, probes and metrics, leader election (a Lease named after the controller), the webhook
 * server with the shared certificates and the configurations kept in step, namespace scoping, graceful shutdown.
 * Environment: see the README's table (nothing here adds a variable).
 */
import { Cache, registerKinds } from '@regatta/bus';
import { EventRecorder, type KubeObject } from '@regatta/kube';
import {
  Controller,
  Expectations,
  parseFeatureGates,
  parseNamespaceScope,
  startStopRunnable,
  type FeatureGateDefaults,
  type Request,
} from '@regatta/runtime';
import { runProgram, type Program } from './bootstrap.js';
import type { ControllerDeclaration, ProgramContext, Readers } from './declaration.js';
import {
  NAMESPACES,
  cachesOf,
  eventHandlers,
  kindsToRegister,
  requestInScope,
  requestsInNamespace,
} from './derive.js';
import { serveWebhooks } from './webhooks.js';

/** Runs the controller until SIGTERM/SIGINT (or a failure: the exit code is then 1). */
export function runController<R extends Record<string, KubeObject>, G extends string>(
  decl: ControllerDeclaration<R, G>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  return runProgram({ name: decl.options.name, env }, (p) => setUpController(decl, p));
}

async function setUpController<R extends Record<string, KubeObject>, G extends string>(
  decl: ControllerDeclaration<R, G>,
  { program, env, log, tracing, config, client, bus, registry, probes, manager, onStop }: Program,
): Promise<void> {
  // OpenKruise's --feature-gates, e.g. REGATTA_FEATURE_GATES=PreparingUpdateAsUpdate=true
  const gates = parseFeatureGates(
    'REGATTA_FEATURE_GATES',
    env['REGATTA_FEATURE_GATES'],
    decl.options.featureGates ?? ({} as FeatureGateDefaults<G>),
  );
  // REGATTA_NAMESPACE_SELECTOR=key=value[,…]: serve only namespaces with these labels (webhooks and reconciles)
  const scope = parseNamespaceScope('REGATTA_NAMESPACE_SELECTOR', env['REGATTA_NAMESPACE_SELECTOR']);

  const registration = registerKinds(
    bus,
    decl.options.name,
    config.identity,
    kindsToRegister(decl, !!scope),
    {
      onError: (err) => log.debug({ err }, 'registration not written yet; retrying'),
    },
  );
  onStop(() => registration.stop());
  const onError = (err: unknown) => log.warn({ err }, 'cache trouble; re-watching');
  const caches = new Map<string, Cache>();
  for (const c of cachesOf(decl, !!scope)) {
    caches.set(c.name, new Cache(bus, c.kind, { onError, ...(c.keep ? { keep: c.keep } : {}) }));
  }
  // the one place where mirrored JSON is taken as the declared types (as a typed informer does)
  const readers = Object.fromEntries(caches) as Readers<Record<string, KubeObject>> as Readers<R>;

  const expectations = new Expectations({
    onTimeout: (e) => log.warn({ key: e.key, kind: e.kind }, 'expectation timed out; dropped'),
  });
  const recorder = new EventRecorder(client, {
    component: decl.options.eventComponent,
    instance: config.identity,
    onError: (err, ev) => log.debug({ err, reason: ev.reason }, 'event not recorded'),
  });
  const ctx: ProgramContext<R, G> = {
    readers,
    client,
    expectations,
    recorder,
    tracer: tracing.tracer,
    gates: gates as Record<G, boolean>,
    log,
    identity: config.identity,
  };
  const controller = new Controller({
    name: decl.options.name,
    reconciler: decl.reconciler(ctx),
    maxConcurrentReconciles: decl.options.maxConcurrentReconciles ?? 1,
    registry,
    logger: log,
  });

  const namespaces = scope ? caches.get(NAMESPACES) : undefined;
  const forReader = readers[decl.forKind.name as keyof R];
  const inScope = (req: Request): boolean =>
    requestInScope(
      scope,
      req,
      decl.forKind.kind,
      forReader,
      (ns) => namespaces?.get(undefined, ns)?.metadata?.labels,
    );
  const enqueue = (req: Request) => {
    if (inScope(req)) controller.enqueue(req);
  };
  const handlers = eventHandlers(decl, {
    expectations,
    readers: readers as Readers<Record<string, KubeObject>>,
  });
  for (const [name, handle] of handlers) caches.get(name)?.onChange((c) => handle(c).forEach(enqueue));
  // a namespace entering the scope (or seen after its objects): reconcile what it holds
  namespaces?.onChange((c) => {
    const ns = c.object.metadata?.name;
    if (c.type !== 'delete' && ns && inScope({ namespace: ns, name: '' }))
      requestsInNamespace(forReader, ns).forEach(enqueue);
  });

  if (decl.webhooks) {
    await serveWebhooks({
      declaration: decl.webhooks(ctx),
      controller: decl.options.name,
      program,
      client,
      manager,
      probes,
      namespace: config.leaseNamespace,
      scope,
      env,
      log,
      cachesSynced: async () => {
        await Promise.all([...caches.values()].map((c) => c.waitForSync()));
      },
    });
  }
  for (const [name, cache] of caches) manager.add(startStopRunnable(name, cache));
  manager.add(controller);
}
