// The chart on a cluster that runs pods (issue 48 item 3, docs/images.md): the images `npm run release` builds
// (tools/release) are pushed to the real node's registry, `helm install` of deploy/helm/regatta runs the watcher and
// the CloneSet program as pods on the real node under their chart ServiceAccounts, a CloneSet pinned to the node is
// updated in place through them, `helm upgrade` to another image replaces them and leaves the CloneSet's pods alone,
// and `helm uninstall` removes the programs and leaves the CRDs and the workloads.
// Real nodes have no kube-proxy and no cluster DNS (docs/real-nodes.md "Limits"): the pods reach the API server and
// NATS through relays on the node's bridge address (relay.ts), the API server by the name its certificate holds
// (hostAliases), with values only. On a machine that cannot run a real node the file is skipped, with the reason.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { locateBinaries, locateHelm, nodeBinaries } from '@regatta/local-cluster';
import {
  containerStatus,
  createNamespace,
  livePods,
  randomId,
  scenarioCluster,
  useRealNode,
  type Pod,
} from '@regatta/testing';
import { baseLayer, pinnedNode, writeImage, type BuiltImage } from '../release/release.js';
import { buildBundles } from './bundle.js';
import { CHART_DIR, REPO_ROOT } from './chart.js';
import { startRelay, type Relay } from './relay.js';

const run = promisify(execFile);
const FILE = 'chart-real-node.int.test.ts';
const real = useRealNode(FILE, 'chart');
const id = randomId();
/** The label of the namespaces the installed programs serve (their namespaceSelector). */
const scope = { 'regatta.dev/chart-real-node': id };
const RELEASE = 'regatta';
const PROGRAMS = ['watcher', 'cloneset'];
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const version = `0.1.0-test${id}`;
// the image `helm upgrade` moves to: the same programs, another version (so another config, another digest)
const version2 = `0.1.1-test${id}`;

let client: KubeClient;
let kubeconfig: string;
let releaseNs: string;
let work: string;
let images: BuiltImage[] = [];
let images2: BuiltImage[] = [];
const relays: Relay[] = [];
const namespaces: string[] = [];

const say = (line: string) => process.stderr.write(`[chart real node] ${line}\n`);

async function helm(args: string[]): Promise<string> {
  const r = await run(locateHelm(), [...args, '--kubeconfig', kubeconfig], { timeout: 300_000 });
  return `${r.stdout}${r.stderr}`;
}

async function kubectl(args: string[]): Promise<string> {
  const r = await run(locateBinaries().kubectl, ['--kubeconfig', kubeconfig, ...args]).catch(
    (e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );
  return `${r.stdout}${r.stderr}`;
}

/**
 * The chart's controller switches (values.yaml `controllers`): all off but the CloneSet's, and no node agent (with
 * CloneSet on, the chart would render it for its container meta duty; this test builds no agent image).
 */
function controllerSwitches(): Record<string, { enabled: boolean; agent?: { enabled: boolean } }> {
  const values = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8')) as {
    controllers: Record<string, unknown>;
  };
  return Object.fromEntries(
    Object.keys(values.controllers).map((c) => [
      c,
      { enabled: c === 'cloneset', ...(c === 'imagepull' ? { agent: { enabled: false } } : {}) },
    ]),
  );
}

async function deploymentsAvailable(): Promise<boolean> {
  const list = await client.list<KubeObject & { status?: { availableReplicas?: number } }>({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: releaseNs,
  });
  return (
    list.items.length === PROGRAMS.length && list.items.every((d) => (d.status?.availableReplicas ?? 0) >= 1)
  );
}

describe.skipIf(real.skipReason !== undefined)(
  `the chart installed on a real node${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
  () => {
    beforeAll(async () => {
      const c = scenarioCluster();
      client = c.client;
      kubeconfig = c.kubeconfig;
      work = mkdtempSync(join(tmpdir(), 'regatta-chart-real-'));
      releaseNs = await createNamespace(client, `regatta-system-${id}`);
      namespaces.push(releaseNs);

      // images: the bundles, one base layer (pinned Node + libraries), one layout per program, pushed with crane
      const t0 = Date.now();
      const bundles = buildBundles(PROGRAMS);
      const t1 = Date.now();
      const { layer } = baseLayer(pinnedNode(REPO_ROOT).path);
      const repository = `${real.node.registry}/regatta`;
      images = PROGRAMS.map((app, i) =>
        writeImage({
          app,
          bundleDir: join(bundles, app),
          base: layer,
          outDir: join(work, 'images'),
          repository,
          version,
          baseFrom: i > 0 ? join(work, 'images', PROGRAMS[0]!) : undefined,
        }),
      );
      const t2 = Date.now();
      images2 = PROGRAMS.map((app) =>
        writeImage({
          app,
          bundleDir: join(bundles, app),
          base: layer,
          outDir: join(work, 'images2'),
          repository,
          version: version2,
        }),
      );
      rmSync(bundles, { recursive: true, force: true });
      for (const image of [...images, ...images2]) {
        await run(nodeBinaries().crane, ['push', '--insecure', image.layout, image.ref]);
      }
      say(
        `images built in ${t2 - t0} ms (bundles ${t1 - t0} ms), pushed in ${Date.now() - t2} ms: ${images
          .map((i) => `${i.ref} ${(i.size / 1e6).toFixed(1)} MB`)
          .join(', ')}`,
      );

      // the API server and NATS, reachable from the node's pods
      const api = new URL(c.apiserver);
      const nats = new URL(c.nats ?? '');
      const ip = real.node.nodeIp;
      relays.push(await startRelay(ip, { host: api.hostname, port: Number(api.port) }));
      relays.push(await startRelay(ip, { host: nats.hostname, port: Number(nats.port) }));
      const [apiRelay, natsRelay] = relays as [Relay, Relay];

      const placement = real.pin({} as Record<string, unknown>);
      const small = { requests: { cpu: '10m', memory: '64Mi' }, limits: { memory: '512Mi' } };
      const program = { replicas: 1, resources: small, pdb: { enabled: false }, ...placement };
      const values = {
        image: { registry: repository, tag: version, pullPolicy: 'IfNotPresent' },
        bus: { url: `nats://${ip}:${natsRelay.port}`, prefix: `chart${id}` },
        extraEnv: [
          { name: 'KUBERNETES_SERVICE_HOST', value: 'kubernetes.default.svc' },
          { name: 'KUBERNETES_SERVICE_PORT', value: String(apiRelay.port) },
        ],
        hostAliases: [{ ip, hostnames: ['kubernetes.default.svc'] }],
        // the local API server runs without the ServiceAccount admission plugin (libs/local-cluster components.ts):
        // the token volume it would add, written out
        extraVolumes: [
          {
            name: 'kube-api-access',
            projected: {
              sources: [
                { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
                { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
                {
                  downwardAPI: {
                    items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }],
                  },
                },
              ],
            },
          },
        ],
        extraVolumeMounts: [
          {
            name: 'kube-api-access',
            mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
            readOnly: true,
          },
        ],
        watcher: program,
        // the installed programs serve only this file's namespaces: the run's cluster is shared with every other
        // scenario file (docs/adr/0005), whose CloneSets a second CloneSet controller and its webhooks must not touch
        controllerDefaults: { ...program, namespaceSelector: scope },
        controllers: controllerSwitches(),
      };
      const valuesFile = join(work, 'values.json');
      writeFileSync(valuesFile, JSON.stringify(values, null, 2));

      const t3 = Date.now();
      // --take-ownership: the test run's cluster already has the CRDs (tools/testing/global-setup.ts)
      say(
        (
          await helm(['install', RELEASE, CHART_DIR, '-n', releaseNs, '-f', valuesFile, '--take-ownership'])
        ).trim(),
      );
      const deadline = Date.now() + 180_000;
      while (!(await deploymentsAvailable())) {
        if (Date.now() > deadline) {
          say(await kubectl(['-n', releaseNs, 'get', 'pods', '-o', 'wide']));
          say(await kubectl(['-n', releaseNs, 'describe', 'pods']));
          say(
            await kubectl([
              '-n',
              releaseNs,
              'logs',
              '-l',
              'app.kubernetes.io/name=regatta',
              '--tail=40',
              '--all-containers',
            ]),
          );
          throw new Error('the chart programs did not become available in 180 s');
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      say(`helm install -> programs available in ${Date.now() - t3} ms`);
    }, 600_000);

    afterAll(async () => {
      await helm(['uninstall', RELEASE, '-n', releaseNs, '--ignore-not-found']).catch(() => '');
      for (const ns of namespaces.splice(0)) {
        await client?.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns }).catch(() => undefined);
      }
      // the node stops after this: its pods go first
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline) {
        const pods = await client
          ?.list<Pod>({ apiVersion: 'v1', kind: 'Pod' })
          .then((l) => l.items.filter((p) => p.spec?.nodeName === real.name))
          .catch(() => []);
        if (!pods || pods.length === 0) break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      for (const r of relays.splice(0)) await r.close();
      if (work) rmSync(work, { recursive: true, force: true });
    }, 180_000);

    it('runs the programs as pods on the real node, from the pushed images, on their ServiceAccounts', async () => {
      const pods = await livePods(client, releaseNs);
      expect(pods.map((p) => p.spec?.serviceAccountName).sort()).toEqual([
        'regatta-cloneset',
        'regatta-watcher',
      ]);
      for (const p of pods) {
        expect(p.spec?.nodeName).toBe(real.name);
        const image = images.find((i) => i.ref === p.spec?.containers?.[0]?.image);
        expect(image).toBeDefined();
        // the digest containerd ran is the one built here
        expect(p.status?.containerStatuses?.[0]?.imageID).toContain(image?.digest);
        expect(p.status?.containerStatuses?.[0]?.ready).toBe(true);
      }
    });

    it('rolls a CloneSet out in place through the installed programs', async () => {
      const ns = await createNamespace(client, `chart-cs-${id}`, scope);
      namespaces.push(ns);
      const template = {
        metadata: { labels: { app: 'web' } },
        spec: real.pin({ containers: [{ name: 'http', image: 'regatta/http:v1' }] }),
      };
      await client.create({
        ...CS,
        metadata: { name: 'web', namespace: ns },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template,
          updateStrategy: { type: 'InPlaceIfPossible' },
        },
      } as KubeObject);
      type Cs = KubeObject & {
        metadata: { generation?: number };
        status?: {
          observedGeneration?: number;
          updatedReadyReplicas?: number;
          readyReplicas?: number;
          replicas?: number;
        };
      };
      const done = async () => {
        const cs = await client.get<Cs>({ ...CS, namespace: ns, name: 'web' });
        const s = cs.status ?? {};
        return (
          s.observedGeneration === cs.metadata.generation &&
          s.replicas === 2 &&
          s.readyReplicas === 2 &&
          s.updatedReadyReplicas === 2
        );
      };
      await expect.poll(done, { timeout: 120_000, interval: 1000 }).toBe(true);
      const before = await livePods(client, ns);
      expect(before).toHaveLength(2);

      const patched = Date.now();
      await client.patch(
        { ...CS, namespace: ns, name: 'web' },
        { spec: { template: { spec: { containers: [{ name: 'http', image: 'regatta/http:v2' }] } } } },
        { type: 'merge' },
      );
      await expect.poll(done, { timeout: 120_000, interval: 1000 }).toBe(true);
      await expect
        .poll(async () => (await livePods(client, ns)).map((p) => containerStatus(p, 'http')?.restartCount), {
          timeout: 60_000,
        })
        .toEqual([1, 1]);
      say(`CloneSet rolled out in place through the chart's programs in ${Date.now() - patched} ms`);
      const after = await livePods(client, ns);
      expect(after.map((p) => p.metadata?.uid).sort()).toEqual(before.map((p) => p.metadata?.uid).sort());
      for (const p of after) expect(p.spec?.containers?.[0]?.image).toBe('regatta/http:v2');
    }, 300_000);

    it('helm upgrade to a changed image replaces the programs and leaves the workloads alone', async () => {
      const ns = namespaces[1]!;
      const cloneset = async () =>
        (await livePods(client, ns))
          .map((p) => `${p.metadata?.uid}:${containerStatus(p, 'http')?.restartCount}`)
          .sort();
      const before = await cloneset();
      const t = Date.now();
      await helm([
        'upgrade',
        RELEASE,
        CHART_DIR,
        '-n',
        releaseNs,
        '--reuse-values',
        '--set',
        `image.tag=${version2}`,
      ]);
      const upgraded = async () => {
        const pods = await livePods(client, releaseNs);
        return (
          pods.length === PROGRAMS.length &&
          pods.every((p) => {
            const image = images2.find((i) => i.ref === p.spec?.containers?.[0]?.image);
            const st = p.status?.containerStatuses?.[0];
            return image !== undefined && st?.ready === true && (st.imageID ?? '').includes(image.digest);
          })
        );
      };
      await expect.poll(upgraded, { timeout: 180_000, interval: 1000 }).toBe(true);
      say(`helm upgrade -> both programs on the new image in ${Date.now() - t} ms`);
      // the CloneSet's pods were not touched by the programs' replacement
      expect(await cloneset()).toEqual(before);
      // and the new programs serve it: another in-place update goes through
      await client.patch(
        { ...CS, namespace: ns, name: 'web' },
        { spec: { template: { spec: { containers: [{ name: 'http', image: 'regatta/http:v3' }] } } } },
        { type: 'merge' },
      );
      await expect
        .poll(
          async () =>
            (await livePods(client, ns)).map(
              (p) => `${p.spec?.containers?.[0]?.image}:${containerStatus(p, 'http')?.restartCount}`,
            ),
          { timeout: 120_000, interval: 1000 },
        )
        .toEqual(['regatta/http:v3:2', 'regatta/http:v3:2']);
    }, 300_000);

    it('helm uninstall removes the programs and leaves the CRDs and the workloads', async () => {
      const ns = namespaces[1]!;
      const t = Date.now();
      say((await helm(['uninstall', RELEASE, '-n', releaseNs, '--wait'])).trim());
      say(`helm uninstall in ${Date.now() - t} ms`);
      await expect.poll(async () => (await livePods(client, releaseNs)).length, { timeout: 60_000 }).toBe(0);
      expect(
        (await client.list({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: releaseNs })).items,
      ).toHaveLength(0);
      // crds.keep (docs/operations.md): the CRDs stay, and so every CloneSet and its pods
      const crd = await client.getOrUndefined({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'clonesets.apps.kruise.io',
      });
      expect(crd).toBeDefined();
      expect(await client.getOrUndefined({ ...CS, namespace: ns, name: 'web' })).toBeDefined();
      expect(await livePods(client, ns)).toHaveLength(2);
      // the webhook configurations were owned by the program's ClusterRole: garbage-collected with it
      await expect
        .poll(
          async () =>
            (
              await client.list({
                apiVersion: 'admissionregistration.k8s.io/v1',
                kind: 'MutatingWebhookConfiguration',
              })
            ).items.filter((w) => w.metadata?.name?.startsWith('regatta-cloneset')).length,
          { timeout: 60_000 },
        )
        .toBe(0);
    }, 180_000);
  },
);
