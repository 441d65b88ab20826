// Moving from OpenKruise to Regatta (docs/operations.md "Migrating from OpenKruise"), on a cluster of its own: CloneSets
// that OpenKruise's kruise-manager (v1.9.1, built by tools/compat/build.sh) created and rolled out; kruise-manager
// stopped and its webhooks removed; Regatta's CRDs applied over OpenKruise's and the watcher and cloneset program
// started. Every CloneSet is adopted as it stands: the same update revision, no pod recreated or restarted, and the
// next template change is rolled out by Regatta in place.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCrds } from '@regatta/api';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { LocalCluster, installCrds } from '@regatta/local-cluster';
import { NodeSimulator } from '@regatta/node-simulator';
import { useScenarioPrograms } from '@regatta/testing';
import { kruiseCacheDir, startKruiseManager } from '../bench/kruise-peer.js';

const KRUISE_MANAGER = join(kruiseCacheDir(), 'bin', 'kruise-manager');
const skip = existsSync(KRUISE_MANAGER)
  ? undefined
  : `no ${KRUISE_MANAGER}: \`npm run compat\` builds kruise-manager once (tools/compat/build.sh)`;
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const NS = 'shop';

interface CloneSet extends KubeObject {
  spec: { replicas: number; template: { spec: { containers: { name: string; image: string }[] } } };
  status?: { observedGeneration?: number; updateRevision?: string; readyReplicas?: number; updatedReplicas?: number };
}
interface Pod extends KubeObject {
  spec: { containers: { name: string; image: string }[] };
  status?: { containerStatuses?: { restartCount: number; image: string }[] };
}

const cloneSet = (name: string, replicas: number, strategy: Record<string, unknown>) => ({
  ...CS,
  metadata: { name, namespace: NS },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] } },
    updateStrategy: strategy,
  },
});

const log = (line: string) => process.stderr.write(`[migration] ${line}\n`);
const programs = useScenarioPrograms();
let cluster: LocalCluster | undefined;
let sim: NodeSimulator | undefined;
let client: KubeClient | undefined;
afterAll(async () => {
  await programs.stopAll();
  await client?.close();
  await sim?.stop();
  await cluster?.stop();
});

describe.skipIf(skip !== undefined)(`migration from OpenKruise ${skip ? `(skipped: ${skip})` : ''}`, () => {
  it("adopts kruise-manager's CloneSets with the same revisions and no pod recreated, then rolls them out", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'regatta-migration-'));
    cluster = await LocalCluster.start({ dir, jaeger: false, log });
    const { kubeconfig, nats } = cluster.endpoints;
    sim = await NodeSimulator.start({ kubeconfig, nodes: 3, log });
    client = KubeClient.fromKubeconfigFile(kubeconfig);
    const c = client;
    const read = (name: string) => c.get<CloneSet>({ ...CS, namespace: NS, name });
    const pods = async (app: string) =>
      (await c.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: NS }, { labelSelector: `app=${app}` })).items;
    const settled = async (name: string, replicas: number) =>
      expect
        .poll(
          async () => {
            const cs = await read(name);
            const s = cs.status ?? {};
            return s.observedGeneration === cs.metadata?.generation && s.readyReplicas === replicas
              ? s.updatedReplicas
              : -1;
          },
          { timeout: 180_000, interval: 1000 },
        )
        .toBe(replicas);

    // 1. OpenKruise: its CRDs, webhooks and manager create and roll out two CloneSets
    const kruise = await startKruiseManager({ kubeconfig, dir: join(dir, 'kruise'), qps: 30, burst: 50, log, cluster });
    await c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await c.create(cloneSet('web', 3, { type: 'InPlaceIfPossible', maxUnavailable: 1 }) as never);
    await c.create(cloneSet('api', 2, { type: 'ReCreate', partition: 0 }) as never);
    await settled('web', 3);
    await settled('api', 2);
    const before = new Map<string, { revision?: string; pods: Pod[] }>();
    for (const name of ['web', 'api'])
      before.set(name, { revision: (await read(name)).status?.updateRevision, pods: await pods(name) });
    await kruise.stop();

    // 2. Regatta: its CRDs over OpenKruise's (objects kept), the watcher and the CloneSet program
    await installCrds(kubeconfig, generateCrds());
    const leaseNs = 'regatta-system';
    await c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: leaseNs } });
    const common = { KUBECONFIG: kubeconfig, NATS_URL: nats!, REGATTA_LEASE_NAMESPACE: leaseNs };
    await programs.start('watcher', 'migration-watcher', { ...common, POD_NAME: 'migration-watcher' });
    await programs.start('cloneset', 'migration-cloneset', { ...common, POD_NAME: 'migration-cloneset' }, { webhook: true });

    // adopted as they stand: Regatta's status names the same update revision, the pods are the same and untouched
    for (const [name, was] of before) {
      await expect.poll(async () => (await read(name)).status?.updateRevision, { timeout: 60_000 }).toBe(was.revision);
      const now = await pods(name);
      expect(now.map((p) => p.metadata?.uid).sort(), name).toEqual(was.pods.map((p) => p.metadata?.uid).sort());
      expect(now.flatMap((p) => p.status?.containerStatuses ?? []).map((s) => s.restartCount), name).toEqual(
        now.map(() => 0),
      );
    }

    // the next change is Regatta's to roll out: in place, the same pods at the new image
    await c.patch({ ...CS, namespace: NS, name: 'web' }, [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' },
    ], { type: 'json' });
    await settled('web', 3);
    const updated = await pods('web');
    expect(updated.map((p) => p.metadata?.uid).sort()).toEqual(before.get('web')!.pods.map((p) => p.metadata?.uid).sort());
    expect(updated.map((p) => p.spec.containers[0]!.image)).toEqual(['nginx:mainline', 'nginx:mainline', 'nginx:mainline']);
    expect((await read('web')).status?.updateRevision).not.toBe(before.get('web')!.revision);
  }, 600_000);
});
