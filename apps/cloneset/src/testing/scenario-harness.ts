// The CloneSet scenario harness: each scenario file gets its own watcher and cloneset program (own bus prefix, own
// lease namespace, webhooks scoped to its namespaces) on the shared local cluster, and helpers that read what a user
// would read (pods, the CloneSet's status, events). The generic parts (programs on port 0, namespaces, waits, pods,
// events, Jaeger) are @regatta/testing's; this file adds only what is CloneSet's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { CoreEvent, KubeClient, KubeObject } from '@regatta/kube';
import type { ManagedProcess } from '@regatta/local-cluster';
import {
  eventsAbout,
  livePods,
  POD,
  rolloutTraceSpans,
  setTemplateImage,
  useScenarioLayer,
  waitObserved,
  type JaegerSpan,
  type Pod,
} from '@regatta/testing';

export { isReady, POD, specOf, type Container, type ContainerStatus, type JaegerSpan, type Pod } from '@regatta/testing';
export type { CoreEvent } from '@regatta/kube';

export const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const FIXTURES = fileURLToPath(new URL('../../../../libs/api/src/fixtures/', import.meta.url));

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

/** A seed fixture (libs/api/src/fixtures): the YAML of the articles, parsed. */
export function seed(file: string): CloneSet {
  return parse(readFileSync(join(FIXTURES, file), 'utf8')) as CloneSet;
}

export const instanceId = (p: Pod): string =>
  p.metadata?.labels?.['apps.kruise.io/cloneset-instance-id'] ?? '';

export interface CloneSetScenarios {
  readonly client: KubeClient;
  readonly jaegerQuery: string | undefined;
  /** The running controller (replaced by `startController`). */
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
  /** The cs-demo seed named `name` in `ns`, changed by `edit`, created; returns what the server stored. */
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
  /** What the running cloneset program's `/metrics` answers. */
  metrics(): Promise<string>;
  /** The file's bus: the NATS URL and the prefix of the buckets its watcher writes and its program reads. */
  readonly bus: { readonly servers: string; readonly prefix: string };
  /** The spans (operation name and tags) Jaeger holds for the CloneSet's last rollout trace ([] until exported). */
  rolloutSpans(ns: string, name: string): Promise<JaegerSpan[]>;
  /** Waits until the status describes the CloneSet's current generation. */
  observed(ns: string, name: string): Promise<CloneSet>;
  /** Waits until the status reports every replica at the update revision and ready, with that many live pods. */
  settled(ns: string, name: string, replicas: number, timeoutMs?: number): Promise<CloneSet>;
  /** Starts another program of this file (e.g. a real node's agent) with `env` added; resolves once it is ready. */
  startProgram(app: string, instance: string, env: NodeJS.ProcessEnv): Promise<unknown>;
  /** The kubeconfig of the run (for `kubectl`). */
  readonly kubeconfig: string;
}

/**
 * Registers beforeAll/afterAll for a scenario file and returns its helpers. `env` is added to the cloneset
 * program's environment (e.g. `REGATTA_FEATURE_GATES`); `webhooks: false` runs it without admission webhooks, so the
 * API server stores what only the schema checks.
 */
export function useCloneSetScenarios(
  options: {
    env?: Record<string, string>;
    webhooks?: boolean;
    /** Added to the watcher's and the program's environment when they start (a bus of the file's own: NATS_URL). */
    layerEnv?: () => Record<string, string>;
  } = {},
): CloneSetScenarios {
  const { layerEnv, ...controller } = options;
  const layer = useScenarioLayer({
    lease: 'cloneset',
    short: 'cs',
    scopeLabel: 'regatta-test-cloneset',
    controller: { app: 'cloneset', ...controller },
    ...(layerEnv ? { env: () => layerEnv() } : {}),
  });
  const kube = (): KubeClient => layer.client;
  const pods = (ns: string) => livePods(kube(), ns);
  const cloneSet = (ns: string, name: string) => kube().get<CloneSet>({ ...CS, namespace: ns, name });

  return {
    get client() {
      return kube();
    },
    get jaegerQuery() {
      return layer.jaegerQuery;
    },
    get controller() {
      return layer.controller;
    },
    startController: (instance) => layer.startController(instance),
    namespace: () => layer.namespace(),
    pods,
    cloneSet,
    events: (ns, reason) => eventsAbout(kube(), ns, 'CloneSet', reason),
    setImage: (ns, name, image) => setTemplateImage(kube(), { ...CS, namespace: ns, name }, image),
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
    controllerLog: () => layer.controllerLog(),
    startProgram: (app, instance, env) => layer.startProgram(app, instance, env),
    get kubeconfig() {
      return layer.kubeconfig;
    },
    metrics: async () => (await fetch(`${layer.controllerHealth}/metrics`)).text(),
    get bus() {
      return { servers: layer.nats, prefix: layer.env['REGATTA_BUS_PREFIX'] ?? '' };
    },
    rolloutSpans: async (ns, name) => rolloutTraceSpans(layer.jaegerQuery, await cloneSet(ns, name)),
    observed: (ns, name) => waitObserved(() => cloneSet(ns, name)),
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
