// The CloneSet controller: caches fed by the watcher over the bus, a reconcile queue, and the CloneSet admission
// webhooks. It never watches the API server; it only writes to it.
import { Registry, collectDefaultMetrics } from 'prom-client';
import { Cache, KINDS, connectBus, registerKinds, type KubeObject as BusObject } from '@regatta/bus';
import {
  CLONESET_FEATURE_GATES,
  CONTROLLER_NAME,
  CloneSetReconciler,
  MUTATE_CLONESET_PATH,
  RolloutTracer,
  VALIDATE_CLONESET_PATH,
  cloneSetDefaulter,
  cloneSetRequest,
  cloneSetsForOrphan,
  cloneSetValidator,
  cloneSetWebhookConfigurations,
  observeOwnedChange,
  owningCloneSet,
  revisionOwner,
  type Change,
} from '@regatta/cloneset';
import {
  EventRecorder,
  KubeClient,
  type KubeObject,
  controllerRef,
  labelSelectorMatches,
} from '@regatta/kube';
import {
  Controller,
  Expectations,
  Manager,
  ProbeServer,
  WebhookServer,
  createCertificateAuthority,
  kubeLeaseStore,
  parseFeatureGates,
  parseHostPort,
  parseNamespaceScope,
  readProcessConfig,
  startStopRunnable,
  type Request,
} from '@regatta/runtime';
import { createLogger, startTracing } from '@regatta/telemetry';

const FIELD_MANAGER = 'regatta-cloneset';
const log = createLogger({ name: 'regatta-cloneset' });
const tracing = await startTracing({ serviceName: 'regatta-cloneset', logger: log });
const config = readProcessConfig();
// OpenKruise's --feature-gates, e.g. REGATTA_FEATURE_GATES=PreparingUpdateAsUpdate=true
const gates = parseFeatureGates(
  'REGATTA_FEATURE_GATES',
  process.env['REGATTA_FEATURE_GATES'],
  CLONESET_FEATURE_GATES,
);
const client = KubeClient.fromDefault({ fieldManager: FIELD_MANAGER, userAgent: 'regatta-cloneset' });
// the Lease is renewed over its own connection: a burst of pod writes must never delay a renewal past its deadline
const leaseClient = KubeClient.fromDefault({
  fieldManager: FIELD_MANAGER,
  userAgent: 'regatta-cloneset/leader-election',
});
const bus = await connectBus({ name: `regatta-cloneset/${config.identity}` });

// REGATTA_NAMESPACE_SELECTOR=key=value[,…]: serve only namespaces with these labels (webhooks and reconciles), e.g. a
// canary controller for opted-in namespaces, or tests sharing one cluster
const namespaceScope = parseNamespaceScope(
  'REGATTA_NAMESPACE_SELECTOR',
  process.env['REGATTA_NAMESPACE_SELECTOR'],
);

const registration = registerKinds(
  bus,
  'cloneset',
  config.identity,
  [
    KINDS.clonesets,
    KINDS.pods,
    KINDS.persistentvolumeclaims,
    KINDS.controllerrevisions,
    ...(namespaceScope ? [KINDS.namespaces] : []),
  ],
  { onError: (err) => log.debug({ err }, 'registration not written yet; retrying') },
);
const onError = (err: unknown) => log.warn({ err }, 'cache trouble; re-watching');
const clonesets = new Cache<BusObject>(bus, KINDS.clonesets, { onError });
// pods of other controllers (Deployments, Jobs…) are never read: only CloneSets' pods and orphans it may adopt
const pods = new Cache<BusObject>(bus, KINDS.pods, {
  onError,
  keep: (pod) => {
    const ref = controllerRef(pod as KubeObject);
    return ref === undefined || owningCloneSet(pod as KubeObject) !== undefined;
  },
});
const pvcs = new Cache<BusObject>(bus, KINDS.persistentvolumeclaims, { onError });
const revisions = new Cache<BusObject>(bus, KINDS.controllerrevisions, { onError });
const namespaces = namespaceScope ? new Cache<BusObject>(bus, KINDS.namespaces, { onError }) : undefined;

const registry = new Registry();
collectDefaultMetrics({ register: registry });
const probes = new ProbeServer({ ...config.health, registry, logger: log });
probes.addReadyzCheck('bus', () => {
  if (bus.nc.isClosed()) throw new Error('NATS connection closed');
});

const expectations = new Expectations({
  onTimeout: (e) => log.warn({ key: e.key, kind: e.kind }, 'expectation timed out; dropped'),
});
const recorder = new EventRecorder(client, {
  component: CONTROLLER_NAME,
  instance: config.identity,
  onError: (err, ev) => log.debug({ err, reason: ev.reason }, 'event not recorded'),
});
type Reader = ConstructorParameters<typeof CloneSetReconciler>[0]['pods'];
const reconciler = new CloneSetReconciler({
  client,
  clonesets: clonesets as unknown as Reader,
  pods: pods as unknown as Reader,
  pvcs: pvcs as unknown as Reader,
  revisions: revisions as unknown as Reader,
  expectations,
  recorder,
  rollouts: new RolloutTracer(tracing.tracer),
  gates,
});
const controller = new Controller({
  name: 'cloneset',
  reconciler,
  maxConcurrentReconciles: 3,
  registry,
  logger: log,
});

const asChange = (c: { type: Change['type']; object: BusObject; old?: BusObject }): Change => ({
  type: c.type,
  object: c.object as KubeObject,
  ...(c.old ? { old: c.old as KubeObject } : {}),
});
const inScope = (namespace: string | undefined): boolean =>
  !namespaceScope ||
  labelSelectorMatches(namespaceScope, namespaces?.get(undefined, namespace ?? '')?.metadata?.labels ?? {});
const enqueue = (req: Request | undefined) => {
  if (req && inScope(req.namespace)) controller.enqueue(req);
};
clonesets.onChange((c) => enqueue(cloneSetRequest(asChange(c))));
pods.onChange((c) => {
  const change = asChange(c);
  const req = observeOwnedChange(expectations, change, 'pod');
  if (req) enqueue(req);
  else if (c.type !== 'delete') {
    const ns = change.object.metadata?.namespace;
    const candidates = ns ? (clonesets.list({ namespace: ns }) as KubeObject[]) : [];
    for (const r of cloneSetsForOrphan(change.object, candidates)) enqueue(r);
  }
});
pvcs.onChange((c) => enqueue(observeOwnedChange(expectations, asChange(c), 'pvc')));
revisions.onChange((c) => enqueue(revisionOwner(asChange(c))));
// a namespace entering the scope (or seen after its CloneSets): reconcile what it holds
namespaces?.onChange((c) => {
  const ns = c.object.metadata?.name;
  if (c.type === 'delete' || !ns || !inScope(ns)) return;
  for (const cs of clonesets.list({ namespace: ns }))
    enqueue(cloneSetRequest(asChange({ type: 'update', object: cs })));
});

const manager = new Manager({
  logger: log,
  probes,
  leaderElection: {
    store: kubeLeaseStore(leaseClient),
    namespace: config.leaseNamespace,
    name: 'regatta-cloneset',
    identity: config.identity,
    leaseDurationMs: 8_000,
    renewDeadlineMs: 6_000,
    retryPeriodMs: 1_500,
  },
});

const webhookAddr = process.env['REGATTA_WEBHOOK_ADDR'];
if (webhookAddr) {
  const { host, port } = parseHostPort('REGATTA_WEBHOOK_ADDR', webhookAddr);
  const configuredUrl = process.env['REGATTA_WEBHOOK_URL'];
  const reachableHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  const ca = await createCertificateAuthority('regatta-cloneset-webhook-ca');
  const serving = await ca.issueServing(
    [configuredUrl ? new URL(configuredUrl).hostname : reachableHost, host, 'localhost'],
    'regatta-cloneset-webhook',
  );
  const webhooks = new WebhookServer({ tls: serving, host, port, logger: log });
  webhooks.mutate(MUTATE_CLONESET_PATH, cloneSetDefaulter());
  webhooks.validate(
    VALIDATE_CLONESET_PATH,
    cloneSetValidator((ns, name) => (pods.get(ns, name) as KubeObject | undefined) ?? null),
  );
  manager.add(webhooks);
  let registered = false;
  probes.addReadyzCheck('webhook-configurations', () => {
    if (!registered) throw new Error('webhook configurations not applied yet');
  });
  // register the configurations once the server answers, so the API server never calls a closed port
  void webhooks.listening().then(async (bound) => {
    // without REGATTA_WEBHOOK_URL: the port the server got (REGATTA_WEBHOOK_ADDR may say 0, docs/adr/0015)
    const url = configuredUrl || `https://${reachableHost}:${bound.port}`;
    const { mutating, validating } = cloneSetWebhookConfigurations(url, ca.certPem, namespaceScope);
    for (const obj of [mutating, validating]) {
      for (let attempt = 0; ; attempt++) {
        try {
          await client.patch(
            {
              apiVersion: 'admissionregistration.k8s.io/v1',
              kind: obj.kind ?? '',
              name: obj.metadata?.name ?? '',
            },
            obj,
            { type: 'apply', force: true, fieldManager: FIELD_MANAGER },
          );
          break;
        } catch (err) {
          log.warn({ err, kind: obj.kind, attempt }, 'could not apply webhook configuration; retrying');
          await new Promise((r) => setTimeout(r, Math.min(5_000, 250 * 2 ** attempt)));
        }
      }
    }
    registered = true;
    log.info({ url }, 'CloneSet admission webhooks registered');
  });
} else {
  log.info('REGATTA_WEBHOOK_ADDR is not set: serving no admission webhooks');
}

manager.add(startStopRunnable('clonesets', clonesets));
manager.add(startStopRunnable('pods', pods));
manager.add(startStopRunnable('persistentvolumeclaims', pvcs));
manager.add(startStopRunnable('controllerrevisions', revisions));
if (namespaces) manager.add(startStopRunnable('namespaces', namespaces));
manager.add(controller);

try {
  await manager.start();
} catch (err) {
  log.error({ err }, 'cloneset controller stopped with an error');
  process.exitCode = 1;
} finally {
  await registration.stop().catch(() => undefined);
  await bus.close();
  await tracing.shutdown();
}
