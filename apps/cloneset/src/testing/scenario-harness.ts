// The CloneSet scenario harness: each scenario file gets its own watcher and cloneset program (own bus prefix, own
// lease namespace, webhooks scoped to its namespaces) on the shared local cluster, and helpers that read what a user
// would read (pods, the CloneSet's status, events).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { parse } from 'yaml';
import { generateCrds } from '@regatta/api';
import { KubeClient, type KubeObject } from '@regatta/kube';
import {
  appEntryPath,
  freePorts,
  installCrds,
  startProgram,
  waitFor,
  type ManagedProcess,
} from '@regatta/local-cluster';
import { sleep } from './scenario-helpers.js';

export const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
export const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const FIXTURES = fileURLToPath(new URL('../../../../libs/api/src/fixtures/', import.meta.url));
const LOGS = join(tmpdir(), 'regatta-cloneset-test-logs');

export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  containerID?: string;
  restartCount: number;
  ready: boolean;
  state?: { waiting?: { reason?: string }; running?: unknown; terminated?: unknown };
  lastState?: { terminated?: { exitCode?: number } };
}
export interface Pod extends KubeObject {
  spec: {
    containers: { name: string; image: string; env?: unknown[] }[];
    nodeName?: string;
    volumes?: unknown[];
  };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string }[];
    containerStatuses?: ContainerStatus[];
  };
}
export interface CloneSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  expectedUpdatedReplicas?: number;
  updateRevision?: string;
  currentRevision?: string;
  collisionCount?: number;
  labelSelector?: string;
  conditions?: { type: string; status: string; reason: string; message?: string }[];
}
export interface CloneSet extends KubeObject {
  spec: Record<string, unknown> & { replicas?: number; updateStrategy?: Record<string, unknown> };
  status?: CloneSetStatus;
}
export interface CoreEvent extends KubeObject {
  reason: string;
  message: string;
  type: string;
  involvedObject: { kind: string; name: string };
}

export interface JaegerSpan {
  operationName: string;
  tags: Record<string, unknown>;
}

/** A seed fixture (libs/api/src/fixtures): the YAML of the articles, parsed. */
export function seed(file: string): CloneSet {
  return parse(readFileSync(join(FIXTURES, file), 'utf8')) as CloneSet;
}

export const isReady = (p: Pod): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

export const instanceId = (p: Pod): string =>
  p.metadata?.labels?.['apps.kruise.io/cloneset-instance-id'] ?? '';

export interface CloneSetScenarios {
  readonly client: KubeClient;
  readonly jaegerQuery: string | undefined;
  /** The running controller (replaced by `restartController`). */
  readonly controller: ManagedProcess;
  /** Starts another cloneset program instance (e.g. after a kill) and waits until it is ready. */
  startController(instance: string): Promise<ManagedProcess>;
  /** A fresh namespace the webhooks of this file apply to. */
  namespace(): Promise<string>;
  /** The live (not terminating) pods of a namespace. */
  pods(ns: string): Promise<Pod[]>;
  cloneSet(ns: string, name: string): Promise<CloneSet>;
  /** Events about CloneSets in `ns`, optionally of one reason. */
  events(ns: string, reason?: string): Promise<CoreEvent[]>;
  /** What `kubectl set image` does: replace the first container's image. */
  setImage(ns: string, name: string, image: string): Promise<void>;
  patch(ns: string, name: string, patch: Record<string, unknown>): Promise<void>;
  /** The cs-demo seed (S1 §2) named `name` in `ns`, changed by `edit`, created; returns what the server stored. */
  createDemo(ns: string, name: string, edit?: (cs: CloneSet) => void): Promise<CloneSet>;
  /** Patches a pod (strategic merge unless told otherwise). */
  patchPod(
    ns: string,
    name: string,
    body: Record<string, unknown>,
    type?: 'strategic' | 'merge',
  ): Promise<void>;
  /** The log of this file's first cloneset program (instance a). */
  controllerLog(): string;
  /** The spans (operation name and tags) Jaeger holds for the CloneSet's last rollout trace ([] until exported). */
  rolloutSpans(ns: string, name: string): Promise<JaegerSpan[]>;
  /** Waits until the status describes the CloneSet's current generation. */
  observed(ns: string, name: string): Promise<CloneSet>;
  /** Waits until the status reports every replica at the update revision and ready, with that many live pods. */
  settled(ns: string, name: string, replicas: number, timeoutMs?: number): Promise<CloneSet>;
}

/**
 * Registers beforeAll/afterAll for a scenario file and returns its helpers. `env` is added to the cloneset
 * program's environment (e.g. `REGATTA_FEATURE_GATES`); `webhooks: false` runs it without admission webhooks, so the
 * API server stores what only the schema checks.
 */
export function useCloneSetScenarios(
  options: { env?: Record<string, string>; webhooks?: boolean } = {},
): CloneSetScenarios {
  const id = randomBytes(3).toString('hex');
  const scopeLabel = 'regatta-test-cloneset';
  const programs: ManagedProcess[] = [];
  let client: KubeClient | undefined;
  let controller: ManagedProcess | undefined;
  let controllerLogFile: string | undefined;
  let jaegerQuery: string | undefined;
  let common: Record<string, string> = {};

  /**
   * Starts a program on free ports and waits for its /readyz. The ports are free when picked but another file's
   * program, starting at the same moment, may take one first: a program that exits before it is ready is started
   * again on other ports (three tries).
   */
  const startReady = async (
    what: string,
    entry: string,
    logName: string,
    env: (health: number, webhook: number) => Record<string, string>,
  ): Promise<{ process: ManagedProcess; logFile: string }> => {
    for (let attempt = 1; ; attempt++) {
      const [health, webhook] = (await freePorts(2)) as [number, number];
      const logFile = join(LOGS, attempt === 1 ? `${logName}.log` : `${logName}-try${attempt}.log`);
      const p = startProgram({
        name: logName,
        entry,
        logFile,
        env: { ...env(health, webhook), REGATTA_HEALTH_ADDR: `127.0.0.1:${health}` },
      });
      programs.push(p);
      try {
        await waitFor(
          `${what} to be ready`,
          async () => {
            p.assertRunning();
            return (await fetch(`http://127.0.0.1:${health}/readyz`).catch(() => undefined))?.status === 200;
          },
          { timeoutMs: 90_000, intervalMs: 250 },
        );
        return { process: p, logFile };
      } catch (err) {
        const exited = await Promise.race([p.exited.then(() => true), sleep(100).then(() => false)]);
        if (!exited || attempt >= 3) throw err;
      }
    }
  };

  const startController = async (instance: string): Promise<ManagedProcess> => {
    const { process: p, logFile } = await startReady(
      'the cloneset program',
      appEntryPath('cloneset'),
      `cloneset-${id}-${instance}`,
      (_health, webhookPort) => ({
        ...common,
        ...(options.webhooks === false
          ? {}
          : {
              REGATTA_WEBHOOK_ADDR: `127.0.0.1:${webhookPort}`,
              REGATTA_WEBHOOK_URL: `https://127.0.0.1:${webhookPort}`,
            }),
        REGATTA_NAMESPACE_SELECTOR: `${scopeLabel}=${id}`,
        POD_NAME: `cloneset-${id}-${instance}`,
        ...options.env,
      }),
    );
    controller = p;
    if (instance === 'a') controllerLogFile = logFile;
    return p;
  };

  beforeAll(async () => {
    const { kubeconfig, nats, jaeger } = inject('cluster');
    jaegerQuery = jaeger?.query;
    mkdirSync(LOGS, { recursive: true });
    client = KubeClient.fromKubeconfigFile(kubeconfig);
    await installCrds(kubeconfig, generateCrds() as unknown as Parameters<typeof installCrds>[1]);
    const leaseNs = `cloneset-lease-${id}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: leaseNs } });
    common = {
      KUBECONFIG: kubeconfig,
      NATS_URL: nats!,
      REGATTA_BUS_PREFIX: `cs${id}_`,
      REGATTA_LEASE_NAMESPACE: leaseNs,
      LOG_LEVEL: 'info',
      ...(jaeger ? { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttp } : {}),
    };
    await startReady('the watcher', appEntryPath('watcher'), `watcher-${id}`, () => ({
      ...common,
      POD_NAME: `watcher-${id}`,
    }));
    await startController('a');
  });

  afterAll(async () => {
    for (const p of programs.reverse()) await p.stop().catch(() => undefined);
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      await client
        ?.delete({ apiVersion: 'admissionregistration.k8s.io/v1', kind, name: `regatta-cloneset-${id}` })
        .catch(() => undefined);
    }
  });

  const kube = (): KubeClient => {
    if (!client) throw new Error('the scenario harness is used before beforeAll ran');
    return client;
  };
  const pods = async (ns: string): Promise<Pod[]> =>
    (await kube().list<Pod>({ ...POD, namespace: ns })).items.filter((p) => !p.metadata?.deletionTimestamp);
  const cloneSet = (ns: string, name: string) => kube().get<CloneSet>({ ...CS, namespace: ns, name });

  return {
    get client() {
      return kube();
    },
    get jaegerQuery() {
      return jaegerQuery;
    },
    get controller() {
      if (!controller) throw new Error('the cloneset program is not started');
      return controller;
    },
    startController,
    async namespace() {
      const ns = `cs-${id}-${randomBytes(2).toString('hex')}`;
      await kube().create({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns, labels: { [scopeLabel]: id } },
      });
      return ns;
    },
    pods,
    cloneSet,
    async events(ns, reason) {
      const all = (await kube().list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: ns })).items;
      return all.filter((e) => e.involvedObject.kind === 'CloneSet' && (!reason || e.reason === reason));
    },
    async setImage(ns, name, image) {
      await kube().patch(
        { ...CS, namespace: ns, name },
        [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }],
        { type: 'json' },
      );
    },
    async patch(ns, name, patch) {
      await kube().patch({ ...CS, namespace: ns, name }, patch, { type: 'merge' });
    },
    async createDemo(ns, name, edit = () => undefined) {
      const cs = seed('s1-2-cs-demo.yaml');
      cs.metadata = { name, namespace: ns };
      edit(cs);
      return kube().create<CloneSet>(cs);
    },
    async patchPod(ns, name, body, type = 'strategic') {
      await kube().patch({ ...POD, namespace: ns, name }, body, { type });
    },
    controllerLog() {
      try {
        return controllerLogFile ? readFileSync(controllerLogFile, 'utf8') : '';
      } catch {
        return '';
      }
    },
    async rolloutSpans(ns, name) {
      const raw = (await cloneSet(ns, name)).metadata?.annotations?.['regatta.dev/rollout-trace'];
      const traceId = raw
        ? ((JSON.parse(raw) as { traceparent?: string }).traceparent?.split('-')[1] ?? '')
        : '';
      if (!traceId || !jaegerQuery) return [];
      const res = await fetch(`${jaegerQuery}/api/traces/${traceId}`);
      if (!res.ok) return [];
      const body = (await res.json()) as {
        data?: { spans: { operationName: string; tags: { key: string; value: unknown }[] }[] }[];
      };
      return (body.data?.[0]?.spans ?? []).map((sp) => ({
        operationName: sp.operationName,
        tags: Object.fromEntries(sp.tags.map((t) => [t.key, t.value])),
      }));
    },
    async observed(ns, name) {
      await expect
        .poll(
          async () => {
            const cs = await cloneSet(ns, name);
            return cs.status?.observedGeneration === cs.metadata?.generation;
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      return cloneSet(ns, name);
    },
    async settled(ns, name, replicas, timeoutMs = 60_000) {
      await expect
        .poll(
          async () => {
            const cs = await cloneSet(ns, name);
            const s = cs.status;
            return (
              s?.observedGeneration === cs.metadata?.generation &&
              s?.replicas === replicas &&
              s.readyReplicas === replicas &&
              s.updatedReplicas === replicas &&
              s.updatedReadyReplicas === replicas &&
              s.currentRevision === s.updateRevision &&
              (await pods(ns)).length === replicas
            );
          },
          { timeout: timeoutMs, interval: 500 },
        )
        .toBe(true);
      return cloneSet(ns, name);
    },
  };
}
