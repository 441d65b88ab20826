// The image pre-warming scenario harness: each scenario file gets its own watcher and imagepull program (own bus
// prefix, own lease namespace, ImagePullJob webhooks scoped to its namespaces) on the shared local cluster, and
// helpers that read what a user reads (NodeImages, the job's status, events). Until the per-node agent runs, a test
// answers for a node the way the agent would: it writes the tag's pull status into the NodeImage.
import { afterAll, expect } from 'vitest';
import { bucketName, connectBus, objectKey, type Bus } from '@regatta/bus';
import { type ImagePullJob, type ImageTagStatus, type NodeImage, KINDS } from '@regatta/api';
import { retryOnConflict, type CoreEvent, type KubeClient } from '@regatta/kube';
import { eventsAbout, useScenarioLayer, type TestNodeOptions } from '@regatta/testing';

export const JOB = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob' } as const;
export const JOB_V1ALPHA1 = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob' } as const;
export const NODE_IMAGE = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
export const NODE = { apiVersion: 'v1', kind: 'Node' } as const;

export interface ImagePullScenarios {
  readonly client: KubeClient;
  /** The simulated nodes of the run. */
  readonly nodes: string[];
  namespace(): Promise<string>;
  /**
   * `count` fake NodeImages (label `apps.kruise.io/fake-nodeimage`, no Node behind them, never served by an agent)
   * labelled `group=<group>`; removed after the file. Jobs aimed at them see only this test answering.
   */
  fakeNodes(group: string, count: number): Promise<string[]>;
  /** Adds a node tainted `regatta-test-<x>` (removed after the file). */
  addTestNode(x: string, options?: TestNodeOptions): Promise<string>;
  /** The labels of this file's scope: NodeImages carrying them pass through this file's NodeImage webhooks. */
  readonly scopeLabels: Record<string, string>;
  /** Starts another imagepull program for its own namespaces, with `env` (e.g. a feature gate). */
  startScoped(env: Record<string, string>): Promise<{ namespace(): Promise<string> }>;
  job(ns: string, name: string): Promise<ImagePullJob | undefined>;
  createJob(ns: string, name: string, spec: Record<string, unknown>): Promise<ImagePullJob>;
  nodeImage(name: string): Promise<NodeImage | undefined>;
  /** The NodeImages whose image `name` has tag `tag` in spec. */
  holding(name: string, tag: string): Promise<string[]>;
  /** Acts as the node's agent: writes `phase` for the tag's current version (Succeeded/Failed with a completionTime). */
  answer(node: string, image: string, tag: string, phase: ImageTagStatus['phase']): Promise<void>;
  events(ns: string, kind: string, reason?: string): Promise<CoreEvent[]>;
  controllerLog(): string;
}

export function useImagePullScenarios(env: Record<string, string> = {}): ImagePullScenarios {
  let bus: Bus | undefined;
  const fakes: string[] = [];
  let scoped = 0;
  const layer = useScenarioLayer({
    lease: 'imagepull',
    short: 'ip',
    scopeLabel: 'regatta-test-imagepull',
    env: { REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '0', REGATTA_NODEIMAGE_RESPONSE_TIMEOUT_SECONDS: '30' },
    controller: { app: 'imagepull', env, webhooks: true },
    async start(l) {
      bus = await connectBus({ servers: l.nats, name: `imagepull-test-${l.id}`, prefix: l.env['REGATTA_BUS_PREFIX']! });
    },
  });

  /**
   * Waits until the watcher has mirrored the NodeImage: a job created before its controller's cache holds the
   * NodeImages it selects would rightly find no node and complete at once.
   */
  const mirrored = async (name: string) => {
    if (!bus) throw new Error('the scenario harness is used before beforeAll ran');
    const b = bus;
    await expect
      .poll(
        async () => {
          const kv = await b.kvm.open(b.prefix + bucketName(KINDS.nodeimages)).catch(() => undefined);
          return (await kv?.get(objectKey(undefined, name)).catch(() => null))?.operation === 'PUT';
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
  };

  afterAll(async () => {
    await bus?.close();
    for (const name of fakes) await layer.client.delete({ ...NODE_IMAGE, name }).catch(() => undefined);
  });

  const kube = (): KubeClient => layer.client;
  const nodeImage = (name: string) => kube().getOrUndefined<NodeImage>({ ...NODE_IMAGE, name });

  return {
    get client() {
      return kube();
    },
    get nodes() {
      return layer.nodes;
    },
    get scopeLabels() {
      return layer.scopeLabels;
    },
    namespace: () => layer.namespace(),
    addTestNode: (x, options) => layer.addTestNode(x, options),
    async fakeNodes(group, count) {
      const id = layer.id;
      const names: string[] = [];
      for (let i = 0; i < count; i++) {
        const name = `fake-${id}-${group}-${i}`;
        fakes.push(name);
        names.push(name);
        await kube().create({
          ...NODE_IMAGE,
          metadata: { name, labels: { 'apps.kruise.io/fake-nodeimage': 'true', group: `${id}-${group}`, ...layer.scopeLabels } },
          spec: {},
        } as NodeImage);
      }
      for (const name of names) await mirrored(name);
      return names;
    },
    async startScoped(extra) {
      scoped += 1;
      const scope = `${layer.id}x${scoped}`;
      // its own lease: a second replica of the same program would only stand by
      const leaseNs = `imagepull-lease-${scope}`;
      await kube().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: leaseNs } });
      await layer.startProgram('imagepull', `s${scoped}`, { REGATTA_LEASE_NAMESPACE: leaseNs, ...extra }, { webhook: true, scope });
      return { namespace: () => layer.namespace(scope) };
    },
    job: (ns, name) => kube().getOrUndefined<ImagePullJob>({ ...JOB, namespace: ns, name }),
    createJob: (ns, name, spec) =>
      kube().create<ImagePullJob>({ ...JOB, metadata: { name, namespace: ns }, spec } as ImagePullJob),
    nodeImage,
    async holding(name, tag) {
      const all = (await kube().list<NodeImage>(NODE_IMAGE)).items;
      return all
        .filter((ni) => ni.spec?.images?.[name]?.tags.some((t) => t.tag === tag))
        .map((ni) => ni.metadata?.name ?? '')
        .sort();
    },
    async answer(node, image, tag, phase) {
      await retryOnConflict(async () => {
        const ni = await kube().get<NodeImage>({ ...NODE_IMAGE, name: node });
        const spec = ni.spec?.images?.[image]?.tags.find((t) => t.tag === tag);
        if (!spec) throw new Error(`${node} has no ${image}:${tag} to answer`);
        const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
        const finished = phase === 'Succeeded' || phase === 'Failed';
        const entry: ImageTagStatus = {
          tag,
          phase,
          version: spec.version ?? 0,
          startTime: now,
          ...(finished ? { completionTime: now, progress: 100 } : {}),
          ...(phase === 'Failed' ? { message: 'simulated pull failure' } : {}),
        };
        const status = ni.status ?? { desired: 0 };
        const images = (status.imageStatuses ??= {});
        const tags = (images[image] ??= { tags: [] }).tags.filter((t) => t.tag !== tag);
        images[image] = { tags: [...tags, entry].sort((a, b) => (a.tag < b.tag ? -1 : 1)) };
        await kube().updateStatus({ ...ni, status });
      });
    },
    events: (ns, kind, reason) => eventsAbout(kube(), ns, kind, reason),
    controllerLog: () => layer.controllerLog(),
  };
}
