// The layer every controller's scenario harness stands on: for one scenario file, a lease namespace and a bus prefix
// of its own, a watcher, the file's programs (scoped to its namespaces by a label whose value is the file's id),
// their webhook configurations removed after the file, and extra test nodes (tainted, removed after the file). The
// CRDs are installed once for the whole run (tools/testing/global-setup.ts). The controller's own harness adds only
// what is its kind's (apps/<app>/src/testing/).
import { afterAll, beforeAll } from 'vitest';
import type { KubeClient } from '@regatta/kube';
import type { ManagedProcess } from '@regatta/local-cluster';
import { scenarioCluster } from './context.js';
import { createNamespace, randomId } from './namespaces.js';
import { programLog, useScenarioPrograms, type ScenarioPrograms, type ServingProgram } from './programs.js';
import { createTestNode, type TestNodeOptions } from './test-nodes.js';

const ADMISSION = 'admissionregistration.k8s.io/v1';
const NODE = { apiVersion: 'v1', kind: 'Node' } as const;

export interface ScenarioLayerOptions {
  /** The lease namespace is `<lease>-lease-<id>` (e.g. `cloneset`); none: the file's programs elect no leader. */
  lease?: string;
  /** The bus prefix is `<short><id>_`; the file's namespaces `<short>-<id>-…`; the watcher `watcher-<short>-<id>`. */
  short: string;
  /** The label (value: the file's id) of the file's namespaces, served by its programs; none: programs unscoped. */
  scopeLabel?: string;
  /** Added to every program's environment (the watcher's too); a function gets the file's lease namespace. */
  env?: Record<string, string> | ((leaseNamespace: string | undefined) => Record<string, string>);
  /** Added to the watcher's environment. */
  watcherEnv?: Record<string, string>;
  /** The file's controller: instance `a` is started once the watcher (and `start`) ran. */
  controller?: { app: string; env?: Record<string, string>; webhooks?: boolean };
  /** Runs after the watcher started, before the controller (other programs, nodes, a bus connection…). */
  start?: (layer: ScenarioLayer) => Promise<void>;
  /** The start-up's timeout (the run's hook timeout unless told). */
  timeoutMs?: number;
}

export interface ProgramOptions {
  /** Serves admission webhooks (their configurations are removed after the file). */
  webhook?: boolean;
  /** The scope label's value the program serves (the file's id unless told). */
  scope?: string;
  /** Runs it as the run's admin, not its own ServiceAccount (ScenarioPrograms `admin`: say why where it is set). */
  admin?: boolean;
}

export interface ScenarioLayer {
  readonly id: string;
  readonly client: KubeClient;
  readonly kubeconfig: string;
  readonly nats: string;
  readonly jaegerQuery: string | undefined;
  /** The run's simulated nodes. */
  readonly nodes: string[];
  readonly programs: ScenarioPrograms;
  /** The environment every program of the file gets (cluster, bus prefix, lease namespace, log level, tracing). */
  readonly env: Record<string, string>;
  /** The labels of the file's scope (`{ <scopeLabel>: <id> }`; `{}` unscoped). */
  readonly scopeLabels: Record<string, string>;
  /** A fresh namespace in the scope `scope` (the file's unless told). */
  namespace(scope?: string): Promise<string>;
  /**
   * Starts `apps/<app>` as `<app>-<id>-<instance>` with the file's environment, its scope and `env`. Without
   * REGATTA_WEBHOOK_URL a program registers its webhooks at the address it got (port 0).
   */
  startProgram(
    app: string,
    instance: string,
    env?: NodeJS.ProcessEnv,
    options?: ProgramOptions,
  ): Promise<ServingProgram>;
  /** The file's watcher. */
  readonly watcher: ManagedProcess;
  /** The controller (instance `a` until `startController` starts another). */
  readonly controller: ManagedProcess;
  /** Starts another instance of the controller (e.g. after a kill) and waits until it is ready. */
  startController(instance: string, env?: NodeJS.ProcessEnv): Promise<ManagedProcess>;
  /** The log of the controller's instance `a`. */
  controllerLog(): string;
  /** `http://127.0.0.1:PORT` of the running controller's probes and `/metrics`. */
  readonly controllerHealth: string;
  /** Adds a node `node-<x>-<id>-<n>` tainted `regatta-test-<x>` (createTestNode), removed after the file. */
  addTestNode(x: string, options?: TestNodeOptions): Promise<string>;
}

/** Registers the file's beforeAll/afterAll and returns the layer (its getters work from beforeAll on). */
export function useScenarioLayer(o: ScenarioLayerOptions): ScenarioLayer {
  const id = randomId();
  const programs = useScenarioPrograms();
  let client: KubeClient | undefined;
  let cluster: ReturnType<typeof scenarioCluster> | undefined;
  let env: Record<string, string> = {};
  let controller: ManagedProcess | undefined;
  let watcher: ManagedProcess | undefined;
  let controllerHealth: string | undefined;
  let first: ServingProgram | undefined;
  const webhookConfigurations = new Set<string>();
  const added: string[] = [];

  const started = () => {
    if (!client || !cluster) throw new Error('the scenario harness is used before beforeAll ran');
    return { client, cluster };
  };
  const scopeEnv = (scope: string): Record<string, string> =>
    o.scopeLabel ? { REGATTA_NAMESPACE_SELECTOR: `${o.scopeLabel}=${scope}` } : {};

  const layer: ScenarioLayer = {
    id,
    get client() {
      return started().client;
    },
    get kubeconfig() {
      return started().cluster.kubeconfig;
    },
    get nats() {
      // every server of the bus the programs use (a clustered one's too)
      return env['NATS_URL'] ?? started().cluster.nats!;
    },
    get jaegerQuery() {
      return cluster?.jaeger?.query;
    },
    get nodes() {
      return cluster?.nodes ?? [];
    },
    programs,
    get env() {
      return env;
    },
    get scopeLabels(): Record<string, string> {
      return o.scopeLabel ? { [o.scopeLabel]: id } : {};
    },
    namespace: (scope = id) =>
      createNamespace(started().client, `${o.short}-${scope}`, o.scopeLabel ? { [o.scopeLabel]: scope } : {}),
    async startProgram(app, instance, extra = {}, options = {}) {
      const scope = options.scope ?? id;
      if (options.webhook)
        webhookConfigurations.add(o.scopeLabel ? `regatta-${app}-${scope}` : `regatta-${app}`);
      const name = `${app}-${id}-${instance}`;
      return programs.start(
        app,
        name,
        { ...env, ...scopeEnv(scope), POD_NAME: name, ...extra },
        { ...(options.webhook ? { webhook: true } : {}), ...(options.admin ? { admin: true } : {}) },
      );
    },
    get watcher() {
      if (!watcher) throw new Error('the watcher is not started');
      return watcher;
    },
    get controller() {
      if (!controller) throw new Error('the controller is not started');
      return controller;
    },
    async startController(instance, extra = {}) {
      if (!o.controller) throw new Error('this scenario file runs no controller');
      const p = await layer.startProgram(
        o.controller.app,
        instance,
        { ...o.controller.env, ...extra },
        { webhook: o.controller.webhooks !== false },
      );
      controller = p.process;
      controllerHealth = p.health;
      if (instance === 'a') first = p;
      return p.process;
    },
    controllerLog: () => programLog(first),
    get controllerHealth() {
      if (!controllerHealth) throw new Error('the controller is not started');
      return controllerHealth;
    },
    async addTestNode(x, options) {
      const name = `node-${x}-${id}-${added.length + 1}`;
      if (!options?.shared) added.push(name);
      return createTestNode(started().client, name, x, options);
    },
  };

  beforeAll(async () => {
    cluster = scenarioCluster();
    client = cluster.client;
    const leaseNs = o.lease ? `${o.lease}-lease-${id}` : undefined;
    if (leaseNs) await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: leaseNs } });
    env = {
      KUBECONFIG: cluster.kubeconfig,
      // every server of a clustered bus (REGATTA_TEST_BUS_REPLICAS, tools/testing/global-setup.ts)
      NATS_URL: (cluster.natsServers?.map((s) => s.url) ?? [cluster.nats!]).join(','),
      REGATTA_BUS_PREFIX: `${o.short}${id}_`,
      ...(leaseNs ? { REGATTA_LEASE_NAMESPACE: leaseNs } : {}),
      LOG_LEVEL: 'info',
      ...(cluster.jaeger ? { OTEL_EXPORTER_OTLP_ENDPOINT: cluster.jaeger.otlpHttp } : {}),
      ...(typeof o.env === 'function' ? o.env(leaseNs) : o.env),
    };
    const watcherName = `watcher-${o.short}-${id}`;
    watcher = (
      await programs.start('watcher', watcherName, { ...env, POD_NAME: watcherName, ...o.watcherEnv })
    ).process;
    await o.start?.(layer);
    if (o.controller) await layer.startController('a');
  }, o.timeoutMs);

  afterAll(async () => {
    for (const name of added) await client?.delete({ ...NODE, name }).catch(() => undefined);
    // the programs first: a leader still running puts back a configuration deleted under it within seconds
    // (libs/kit webhook-configurations.ts), and stopped after that, leaves one pointing at a closed port that
    // refuses every later file's writes of its kinds (failurePolicy Fail)
    await programs.stopAll();
    for (const name of webhookConfigurations) {
      for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
        await client?.delete({ apiVersion: ADMISSION, kind, name }).catch(() => undefined);
      }
    }
  });

  return layer;
}
