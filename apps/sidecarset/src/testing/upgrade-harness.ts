// The SidecarSet upgrade scenario harness: each scenario file gets its own watcher and sidecarset program (own bus
// prefix, own lease namespace, own revision namespace) on the shared local cluster. The pods are created as the
// injection webhook leaves them (sidecar container, hash and injected-list annotations) and the SidecarSet carries
// the two hash annotations its mutating webhook computes, so these files test the upgrade controller alone.
// The program's scope (REGATTA_NAMESPACE_SELECTOR) is this file's label: on its namespaces, and on its SidecarSets
// (the kit judges cluster-scoped objects by their own labels), whose selectors also pick only this file's pods.
import { afterAll, beforeAll, expect } from 'vitest';
import { generateCrds } from '@regatta/api';
import type { CoreEvent, KubeClient, KubeObject } from '@regatta/kube';
import { type ManagedProcess, installCrds } from '@regatta/local-cluster';
import {
  createNamespace,
  eventsAbout,
  livePods,
  randomId,
  scenarioCluster,
  useScenarioPrograms,
  type Pod,
} from '@regatta/testing';
import { UNTIL_STOPPED } from './upgrade-fixtures.js';

export const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;

export interface SidecarSetStatus {
  observedGeneration?: number;
  matchedPods?: number;
  updatedPods?: number;
  readyPods?: number;
  updatedReadyPods?: number;
  latestRevision?: string;
}
export interface SidecarSetObject extends KubeObject {
  spec: Record<string, unknown>;
  status?: SidecarSetStatus;
}

/** Stand-in for the SidecarSet webhook's hashes: any value that changes with the images (and without them). */
const hashOf = (image: string): string => `h-${image.replace(/[^a-z0-9]/gi, '')}`;

export interface UpgradeScenarios {
  readonly client: KubeClient;
  readonly id: string;
  readonly controller: ManagedProcess;
  startController(instance: string): Promise<ManagedProcess>;
  namespace(): Promise<string>;
  pods(ns: string): Promise<Pod[]>;
  /** A SidecarSet `name` with one cold sidecar `sidecar` at `image`, selecting this file's pods with `app`. */
  createSidecarSet(
    name: string,
    app: string,
    image: string,
    strategy?: Record<string, unknown>,
  ): Promise<void>;
  /** What `kubectl edit` does through the SidecarSet webhook: the sidecar image and both hashes. */
  setSidecarImage(name: string, image: string): Promise<void>;
  patchStrategy(name: string, strategy: Record<string, unknown>): Promise<void>;
  sidecarSet(name: string): Promise<SidecarSetObject>;
  /**
   * `n` pods `app-<i>` as injected with the SidecarSet at `image`; waits until they run and are ready. The sidecar
   * runs `sidecar.command` (default: a shell that exits on SIGTERM), the pods have `sidecar.grace` as their
   * terminationGracePeriodSeconds (default: the API server's, 30 s).
   */
  createInjectedPods(
    ns: string,
    setName: string,
    app: string,
    image: string,
    n: number,
    sidecar?: { command?: string[]; grace?: number },
  ): Promise<Pod[]>;
  events(ns: string, reason?: string): Promise<CoreEvent[]>;
  /** Creates a SidecarSet as given (removed after the file). */
  createRaw(set: SidecarSetObject): Promise<void>;
  /** Creates the pods and waits until they run and are ready. */
  createReadyPods(ns: string, pods: Pod[]): Promise<Pod[]>;
  /** Events about the SidecarSet (cluster-scoped objects' events are in `default`). */
  sidecarSetEvents(name: string, reason?: string): Promise<CoreEvent[]>;
}

const SCOPE = 'regatta-test-scsu';

export function useUpgradeScenarios(): UpgradeScenarios {
  const id = randomId();
  const programs = useScenarioPrograms();
  let client: KubeClient | undefined;
  let controller: ManagedProcess | undefined;
  let common: Record<string, string> = {};
  const created: string[] = [];

  const kube = (): KubeClient => {
    if (!client) throw new Error('the scenario harness is used before beforeAll ran');
    return client;
  };
  const startController = async (instance: string): Promise<ManagedProcess> => {
    const p = await programs.start(
      'sidecarset',
      `sidecarset-upgrade-${id}-${instance}`,
      {
        ...common,
        POD_NAME: `sidecarset-upgrade-${id}-${instance}`,
        REGATTA_NAMESPACE_SELECTOR: `${SCOPE}=${id}`,
      },
      { webhook: false },
    );
    controller = p.process;
    return p.process;
  };

  beforeAll(async () => {
    const cluster = scenarioCluster();
    client = cluster.client;
    await installCrds(cluster.kubeconfig, generateCrds());
    const system = `scs-system-${id}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: system } });
    common = {
      KUBECONFIG: cluster.kubeconfig,
      NATS_URL: cluster.nats!,
      REGATTA_BUS_PREFIX: `scsu${id}_`,
      REGATTA_LEASE_NAMESPACE: system,
      REGATTA_SIDECARSET_REVISION_NAMESPACE: system,
      LOG_LEVEL: 'info',
      ...(cluster.jaeger ? { OTEL_EXPORTER_OTLP_ENDPOINT: cluster.jaeger.otlpHttp } : {}),
    };
    await programs.start('watcher', `watcher-scsu-${id}`, { ...common, POD_NAME: `watcher-scsu-${id}` });
    await startController('a');
  });

  afterAll(async () => {
    for (const name of created) await client?.delete({ ...SCS, name }).catch(() => undefined);
  });

  const annotations = (image: string) => ({
    'kruise.io/sidecarset-hash': hashOf(image),
    'kruise.io/sidecarset-hash-without-image': 'h-without-image',
  });

  return {
    get client() {
      return kube();
    },
    id,
    get controller() {
      if (!controller) throw new Error('the sidecarset program is not started');
      return controller;
    },
    startController,
    namespace: () => createNamespace(kube(), `scsu-${id}`, { [SCOPE]: id }),
    pods: (ns) => livePods(kube(), ns),
    async createSidecarSet(name, app, image, strategy = {}) {
      created.push(name);
      await kube().create({
        ...SCS,
        metadata: { name, labels: { [SCOPE]: id }, annotations: annotations(image) },
        spec: {
          selector: { matchLabels: { app, 'scsu-file': id } },
          containers: [
            {
              name: 'sidecar',
              image,
              podInjectPolicy: 'AfterAppContainer',
              upgradeStrategy: { upgradeType: 'ColdUpgrade' },
            },
          ],
          updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1, ...strategy },
        },
      });
    },
    async setSidecarImage(name, image) {
      await kube().patch(
        { ...SCS, name },
        [
          { op: 'replace', path: '/spec/containers/0/image', value: image },
          { op: 'replace', path: '/metadata/annotations/kruise.io~1sidecarset-hash', value: hashOf(image) },
        ],
        { type: 'json' },
      );
    },
    async patchStrategy(name, strategy) {
      await kube().patch({ ...SCS, name }, { spec: { updateStrategy: strategy } }, { type: 'merge' });
    },
    sidecarSet: (name) => kube().get<SidecarSetObject>({ ...SCS, name }),
    async createInjectedPods(ns, setName, app, image, n, sidecar = {}) {
      const entry = (hash: string) =>
        JSON.stringify({ [setName]: { hash, sidecarSetName: setName, sidecarList: ['sidecar'] } });
      for (let i = 0; i < n; i++) {
        await kube().create({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: `${app}-${i}`,
            namespace: ns,
            labels: { app, 'scsu-file': id },
            annotations: {
              'kruise.io/sidecarset-hash': entry(hashOf(image)),
              'kruise.io/sidecarset-hash-without-image': entry('h-without-image'),
              'kruise.io/sidecarset-injected-list': setName,
            },
          },
          spec: {
            ...(sidecar.grace === undefined ? {} : { terminationGracePeriodSeconds: sidecar.grace }),
            containers: [
              { name: 'main', image: 'nginx:1.27' },
              {
                name: 'sidecar',
                image,
                command: sidecar.command ?? UNTIL_STOPPED,
                env: [{ name: 'IS_INJECTED', value: 'true' }],
              },
            ],
          },
        });
      }
      let out: Pod[] = [];
      await expect
        .poll(
          async () => {
            out = await livePods(kube(), ns);
            return out.filter(
              (p) =>
                p.metadata?.labels?.['app'] === app &&
                p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
            ).length;
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe(n);
      return out.filter((p) => p.metadata?.labels?.['app'] === app);
    },
    events: (ns, reason) => eventsAbout(kube(), ns, 'Pod', reason),
    async createRaw(set) {
      created.push(set.metadata?.name ?? '');
      await kube().create({
        ...SCS,
        ...set,
        metadata: { ...set.metadata, labels: { ...set.metadata?.labels, [SCOPE]: id } },
      });
    },
    async createReadyPods(ns, pods) {
      for (const p of pods) await kube().create({ ...p, metadata: { ...p.metadata, namespace: ns } });
      const names = new Set(pods.map((p) => p.metadata?.name));
      let out: Pod[] = [];
      await expect
        .poll(
          async () => {
            out = (await livePods(kube(), ns)).filter((p) => names.has(p.metadata?.name));
            return out.filter((p) =>
              p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
            ).length;
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe(pods.length);
      return out;
    },
    sidecarSetEvents: async (name, reason) =>
      (await eventsAbout(kube(), 'default', 'SidecarSet', reason)).filter(
        (e) => e.involvedObject.name === name,
      ),
  };
}

export const sidecarImage = (p: Pod): string | undefined =>
  p.spec?.containers?.find((c) => c.name === 'sidecar')?.image;
export const mainImage = (p: Pod): string | undefined =>
  p.spec?.containers?.find((c) => c.name === 'main')?.image;
export const restarts = (p: Pod, name: string): number =>
  p.status?.containerStatuses?.find((c) => c.name === name)?.restartCount ?? 0;
