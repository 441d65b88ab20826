// The SidecarSet scenario harness: each scenario file gets its own watcher and sidecarset program (own bus prefix,
// own lease namespace, webhooks scoped to its namespaces and to SidecarSets carrying its label) on the shared local
// cluster, and helpers that read what a user reads (pods, the webhook configuration, kubectl's output). The generic
// parts are @regatta/testing's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { parse } from 'yaml';
import { generateCrds } from '@regatta/api';
import { retryOnError, type KubeClient, type KubeObject } from '@regatta/kube';
import { installCrds, type ManagedProcess } from '@regatta/local-cluster';
import { createNamespace, randomId, scenarioCluster, useScenarioPrograms, type Pod, runKubectl } from '@regatta/testing';

export type { Pod } from '@regatta/testing';

const FIXTURES = fileURLToPath(new URL('../../../../libs/api/src/sidecarset/fixtures/', import.meta.url));
export const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;
const ADMISSION = 'admissionregistration.k8s.io/v1';

/** A seed SidecarSet manifest (libs/api/src/sidecarset/fixtures), as text. */
export const seedText = (file: string): string => readFileSync(`${FIXTURES}${file}`, 'utf8');

export interface SidecarSetScenarios {
  readonly client: KubeClient;
  /** This file's run id (suffix of names, value of the scope label). */
  readonly id: string;
  /** `{regatta-test-sidecarset: <id>}`: the label that puts a SidecarSet in this file's scope. */
  readonly scopeLabels: Record<string, string>;
  readonly controller: ManagedProcess;
  startController(instance: string): Promise<ManagedProcess>;
  /** A fresh namespace this file's pod webhook applies to. */
  namespace(labels?: Record<string, string>): Promise<string>;
  /** Creates a SidecarSet (object or YAML text), named `<name>-<id>` and labelled into this file's scope. */
  createSidecarSet(manifest: (KubeObject & { spec: Record<string, unknown> }) | string): Promise<KubeObject>;
  /** `kubectl <args>` with the cluster's kubeconfig. */
  kubectl(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The webhook entries of this file's pod MutatingWebhookConfiguration (names). */
  podWebhookEntries(): Promise<string[]>;
  /**
   * Kills the program, deletes this file's SidecarSet webhook configurations and stores `obj` as the webhook would
   * never let it be (the caller starts the program again).
   */
  storeWithoutWebhooks(obj: KubeObject): Promise<void>;
  createPod(
    ns: string,
    name: string,
    labels: Record<string, string>,
    extra?: Partial<Pod['spec']>,
  ): Promise<Pod>;
}

/** `cloneset: true` also runs the CloneSet program in the same scope (a workload whose pods get injected). */
export function useSidecarSetScenarios(options: { cloneset?: boolean } = {}): SidecarSetScenarios {
  const id = randomId();
  const scopeKey = 'regatta-test-sidecarset';
  const programs = useScenarioPrograms();
  let client: KubeClient | undefined;
  let kubeconfig = '';
  let controller: ManagedProcess | undefined;
  let common: Record<string, string> = {};
  const sidecarSets: string[] = [];

  const startController = async (instance: string): Promise<ManagedProcess> => {
    const p = await programs.start(
      'sidecarset',
      `sidecarset-${id}-${instance}`,
      {
        ...common,
        REGATTA_NAMESPACE_SELECTOR: `${scopeKey}=${id}`,
        POD_NAME: `sidecarset-${id}-${instance}`,
      },
      { webhook: true },
    );
    controller = p.process;
    return p.process;
  };

  beforeAll(async () => {
    const cluster = scenarioCluster();
    kubeconfig = cluster.kubeconfig;
    client = cluster.client;
    await installCrds(kubeconfig, generateCrds());
    const leaseNs = `sidecarset-lease-${id}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: leaseNs } });
    common = {
      KUBECONFIG: kubeconfig,
      NATS_URL: cluster.nats!,
      REGATTA_BUS_PREFIX: `scs${id}_`,
      REGATTA_LEASE_NAMESPACE: leaseNs,
      // the revisions live in the Lease namespace, as the chart sets it (its RBAC allows them only there)
      REGATTA_SIDECARSET_REVISION_NAMESPACE: leaseNs,
      LOG_LEVEL: 'info',
    };
    await programs.start('watcher', `watcher-${id}`, { ...common, POD_NAME: `watcher-${id}` });
    await startController('a');
    if (options.cloneset) {
      await programs.start(
        'cloneset',
        `cloneset-${id}`,
        { ...common, REGATTA_NAMESPACE_SELECTOR: `${scopeKey}=${id}`, POD_NAME: `cloneset-${id}` },
        { webhook: true },
      );
    }
  });

  afterAll(async () => {
    for (const name of sidecarSets) await client?.delete({ ...SCS, name }).catch(() => undefined);
    for (const name of [
      `regatta-sidecarset-pods-${id}`,
      `regatta-sidecarset-${id}`,
      `regatta-cloneset-${id}`,
    ]) {
      for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
        await client?.delete({ apiVersion: ADMISSION, kind, name }).catch(() => undefined);
      }
    }
  });

  const kube = (): KubeClient => {
    if (!client) throw new Error('the scenario harness is used before beforeAll ran');
    return client;
  };
  const kubectl = (args: string[], input?: string) => runKubectl(kubeconfig, args, input);

  return {
    get client() {
      return kube();
    },
    id,
    scopeLabels: { [scopeKey]: id },
    get controller() {
      if (!controller) throw new Error('the sidecarset program is not started');
      return controller;
    },
    startController,
    namespace: (labels = {}) => createNamespace(kube(), `scs-${id}`, { [scopeKey]: id, ...labels }),
    kubectl,
    async createSidecarSet(manifest) {
      const obj = (typeof manifest === 'string' ? parse(manifest) : structuredClone(manifest)) as KubeObject;
      const name = `${obj.metadata?.name ?? 'scs'}-${id}`;
      obj.metadata = { ...obj.metadata, name, labels: { ...obj.metadata?.labels, [scopeKey]: id } };
      sidecarSets.push(name);
      return kube().create(obj);
    },
    async podWebhookEntries() {
      const cfg = await kube().getOrUndefined<KubeObject & { webhooks?: { name: string }[] }>({
        apiVersion: ADMISSION,
        kind: 'MutatingWebhookConfiguration',
        name: `regatta-sidecarset-pods-${id}`,
      });
      return (cfg?.webhooks ?? []).map((w) => w.name);
    },
    async storeWithoutWebhooks(obj) {
      const running = controller;
      running?.killNow();
      await running?.exited;
      for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'])
        await kube()
          .delete({ apiVersion: ADMISSION, kind, name: `regatta-sidecarset-${id}` })
          .catch(() => undefined);
      // the API server's copy of the webhook configurations trails the delete: on a busy machine it may still call
      // the killed program for a moment (a 500 "failed calling webhook", seen in the whole suite's run): retried for
      // up to 30 s
      await retryOnError(
        () => kube().create(obj),
        (err) => err instanceof Error && /failed calling webhook/.test(err.message),
        { steps: 121, backoff: { durationMs: 250 } },
      );
    },
    createPod: (ns, name, labels, extra = {}) =>
      kube().create<Pod>({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: ns, labels },
        spec: { containers: [{ name: 'main', image: 'nginx:1.25' }], ...extra },
      }),
  };
}
