// What the chart and the Dockerfile ship, on the local cluster: the rendered manifests pass the API server's
// server-side dry run; the RBAC the chart renders is what `kubectl auth can-i` reports; and the built bundles, each
// copied alone and run with plain node under a token of its own ServiceAccount (TokenRequest), run a CloneSet (its
// webhook configurations created and kept with the RBAC pinned to their names).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient, KubeObject } from '@regatta/kube';
import {
  applyManifests,
  isClusterScoped,
  locateBinaries,
  rbacOf,
  startServingProgram,
  writeServiceAccountKubeconfig,
  type ServingProgram,
} from '@regatta/local-cluster';
import {
  createNamespace,
  livePods,
  PROGRAM_LOGS,
  programLog,
  randomId,
  scenarioCluster,
} from '@regatta/testing';
import { buildBundles, copyAlone } from './bundle.js';
import { VALUE_SETS, chartCopy, parseManifests, templateChart, type Manifest } from './chart.js';

const id = randomId();
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;

let client: KubeClient;
let kubeconfig: string;
let kubectl: string;
let release: string; // the namespace the chart is rendered into (its release and Lease namespace)
let work: string;
let chart: ReturnType<typeof chartCopy>;
const programs: ServingProgram[] = [];
const clusterScoped: Manifest[] = [];

function run(args: string[], input?: string): { status: number; out: string } {
  const r = spawnSync(kubectl, ['--kubeconfig', kubeconfig, ...args], {
    input,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

function render(set: string[]): { text: string; manifests: Manifest[] } {
  const text = templateChart(chart.dir, set, release);
  return { text, manifests: parseManifests(text) };
}

beforeAll(async () => {
  const cluster = scenarioCluster();
  client = cluster.client;
  kubeconfig = cluster.kubeconfig;
  kubectl = locateBinaries().kubectl;
  work = mkdtempSync(join(tmpdir(), 'regatta-deploy-'));
  chart = chartCopy();
  release = await createNamespace(client, `regatta-system-${id}`);
}, 180_000);

afterAll(async () => {
  for (const p of programs.splice(0).reverse()) await p.process.stop().catch(() => undefined);
  for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
    await client
      ?.delete({ apiVersion: 'admissionregistration.k8s.io/v1', kind, name: `regatta-cloneset-${id}` })
      .catch(() => undefined);
  }
  for (const m of clusterScoped) {
    await client
      ?.delete({ apiVersion: m.apiVersion, kind: m.kind, name: m.metadata.name })
      .catch(() => undefined);
  }
  chart?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('deploy on the local cluster', () => {
  it.each(Object.keys(VALUE_SETS))(
    'the rendered manifests pass a server-side dry run (%s)',
    async (name) => {
      const { text, manifests } = render(VALUE_SETS[name]!);
      expect(manifests.length).toBeGreaterThan(10);
      // helm creates the Namespaces it installs before what goes in them; a dry run cannot, so they are made first
      await applyManifests(kubeconfig, manifests.filter((m) => m.kind === 'Namespace'));
      const r = run(
        [
          'apply',
          '--server-side',
          '--dry-run=server',
          '--force-conflicts',
          '--field-manager=helm',
          '-f',
          '-',
        ],
        text,
      );
      expect(r.out, r.out).not.toMatch(/error|invalid|forbidden/i);
      expect(r.status, r.out).toBe(0);
    },
    120_000,
  );

  it('with only cloneset, the rendered RBAC lets each program do what it does and nothing else; the aggregated roles give edit and view users the kinds', async () => {
    // scoped as the program of the next test is, so its webhook configurations carry the names the chart pins
    const rbac = rbacOf(
      render([
        ...VALUE_SETS['only-cloneset']!,
        `controllerDefaults.namespaceSelector.regatta-test-deploy=${id}`,
      ]).manifests,
    );
    clusterScoped.push(...rbac.filter(isClusterScoped));
    await applyManifests(kubeconfig, rbac);

    const can = (sa: string, verb: string, what: string, ns: string) =>
      // the answer is the first line; kubectl may add warnings (a cluster-scoped kind asked in a namespace)
      run(['auth', 'can-i', verb, what, '-n', ns, `--as=system:serviceaccount:${release}:regatta-${sa}`])
        .out.trim()
        .split('\n')[0];
    // the CloneSet program writes pods, claims, revisions and its status; it reads through the bus
    expect(can('cloneset', 'create', 'pods', 'default')).toBe('yes');
    expect(can('cloneset', 'patch', 'pods', 'default')).toBe('yes');
    expect(can('cloneset', 'update', 'pods', 'default')).toBe('no');
    expect(can('cloneset', 'patch', 'clonesets.apps.kruise.io/status', 'default')).toBe('yes');
    expect(can('cloneset', 'update', 'clonesets.apps.kruise.io/status', 'default')).toBe('no');
    expect(can('cloneset', 'list', 'pods', 'default')).toBe('no');
    expect(can('cloneset', 'get', 'secrets', 'default')).toBe('no');
    expect(can('cloneset', 'get', 'secrets', release)).toBe('no');
    expect(can('cloneset', 'get', 'secrets/regatta-cloneset-webhook-certs', release)).toBe('yes');
    expect(can('cloneset', 'update', 'leases/regatta-cloneset', release)).toBe('yes');
    expect(can('cloneset', 'update', 'leases/regatta-watcher', release)).toBe('no');
    // its own webhook configurations by name (an apply that creates one is a create of that name), no other; the
    // sweep of its stale ones is a DELETE of the collection (docs/adr/0085, docs/adr/0094)
    for (const kind of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
      expect(can('cloneset', 'patch', `${kind}/regatta-cloneset-${id}`, 'default')).toBe('yes');
      expect(can('cloneset', 'create', `${kind}/regatta-cloneset-${id}`, 'default')).toBe('yes');
      expect(can('cloneset', 'get', `${kind}/regatta-cloneset-${id}`, 'default')).toBe('yes');
      expect(can('cloneset', 'patch', `${kind}/regatta-cloneset`, 'default')).toBe('no');
      expect(can('cloneset', 'get', `${kind}/someone-elses`, 'default')).toBe('no');
      expect(can('cloneset', 'create', kind, 'default')).toBe('no');
      expect(can('cloneset', 'list', kind, 'default')).toBe('no');
      expect(can('cloneset', 'delete', `${kind}/someone-elses`, 'default')).toBe('no');
      expect(can('cloneset', 'deletecollection', kind, 'default')).toBe('yes');
    }
    // the watcher lists and watches what the CloneSet program reads, and writes nothing but its Lease
    expect(can('watcher', 'watch', 'pods', 'default')).toBe('yes');
    expect(can('watcher', 'list', 'clonesets.apps.kruise.io', 'default')).toBe('yes');
    expect(can('watcher', 'create', 'pods', 'default')).toBe('no');
    expect(can('watcher', 'list', 'secrets', 'default')).toBe('no');
    expect(can('watcher', 'list', 'sidecarsets.apps.kruise.io', 'default')).toBe('no');

    // the aggregated roles: a team bound to Kubernetes' `edit` may pause a rollout, one bound to `view` only read it
    const team = await createNamespace(client, `team-${id}`);
    for (const role of ['edit', 'view']) {
      await client.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${team}/rolebindings`, {
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: role, namespace: team },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
          subjects: [{ kind: 'User', name: `${role}-user` }],
        },
      });
    }
    const user = (name: string, verb: string, what: string) =>
      run(['auth', 'can-i', verb, what, '-n', team, `--as=${name}`]).out.trim().split('\n')[0];
    // kube-controller-manager folds the aggregated rules into edit and view
    await expect.poll(() => user('edit-user', 'patch', 'clonesets.apps.kruise.io'), { timeout: 30_000 }).toBe('yes');
    expect(user('edit-user', 'delete', 'broadcastjobs.apps.kruise.io')).toBe('yes');
    await expect.poll(() => user('view-user', 'list', 'sidecarsets.apps.kruise.io'), { timeout: 30_000 }).toBe('yes');
    expect(user('view-user', 'patch', 'clonesets.apps.kruise.io')).toBe('no');
    expect(user('view-user', 'list', 'clonesets.apps.kruise.io')).toBe('yes');
  }, 120_000);

  it('the bundles, alone and on their own ServiceAccounts, run a CloneSet to its replicas', async () => {
    const bundles = buildBundles(['watcher', 'cloneset']);
    const cluster = scenarioCluster();
    const common = {
      NATS_URL: cluster.nats!,
      REGATTA_BUS_PREFIX: `dp${id}_`,
      REGATTA_LEASE_NAMESPACE: release,
      LOG_LEVEL: 'info',
    };
    const start = async (app: 'watcher' | 'cloneset', env: Record<string, string>) => {
      // TokenRequest: a short-lived token of the program's own ServiceAccount, as a pod's projected token is
      const own = await writeServiceAccountKubeconfig({
        kubeconfig,
        namespace: release,
        serviceAccount: `regatta-${app}`,
        file: join(work, `${app}.kubeconfig`),
      });
      const main = copyAlone(bundles, app);
      const p = await startServingProgram({
        name: `deploy-${app}-${id}`,
        entry: main, // a .mjs: plain node, no loader, nothing beside it
        logFile: join(PROGRAM_LOGS, `deploy-${app}-${id}.log`),
        env: { ...common, KUBECONFIG: own, POD_NAME: `deploy-${app}-${id}`, ...env },
        webhook: app === 'cloneset',
        timeoutMs: 120_000,
      });
      programs.push(p);
      expect(dirname(main)).not.toContain('node_modules');
      return p;
    };
    await start('watcher', {});
    const controller = await start('cloneset', {
      REGATTA_NAMESPACE_SELECTOR: `regatta-test-deploy=${id}`,
      REGATTA_WEBHOOK_OWNER: 'regatta-cloneset',
    });
    rmSync(bundles, { recursive: true, force: true });

    const ns = await createNamespace(client, `deploy-${id}`, { 'regatta-test-deploy': id });
    await client.create({
      ...CS,
      metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
        },
      },
    });
    // through the admission webhooks (defaulted by the mutating one) and reconciled into pods
    const deadline = Date.now() + 180_000;
    let status: { replicas?: number; observedGeneration?: number } | undefined;
    for (;;) {
      const cs = await client.get<KubeObject & { status?: typeof status }>({
        ...CS,
        namespace: ns,
        name: 'web',
      });
      status = cs.status;
      if ((await livePods(client, ns)).length === 2 && status?.replicas === 2) break;
      if (Date.now() > deadline)
        throw new Error(`CloneSet not at 2 replicas: ${JSON.stringify(status)}\n${programLog(controller)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    // its webhook configurations were created and are kept under the pinned names alone (the chart's RBAC)
    expect(programLog(controller)).not.toMatch(/forbidden/i);

    // the chart's ClusterRole owns the webhook configurations (REGATTA_WEBHOOK_OWNER): deleting it, as `helm
    // uninstall` does, garbage-collects them, so no webhook of a removed controller is left to refuse requests
    const role = await client.get({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      name: 'regatta-cloneset',
    });
    const configurations = () =>
      Promise.all(
        ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'].map((kind) =>
          client.getOrUndefined({
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind,
            name: `regatta-cloneset-${id}`,
          }),
        ),
      );
    await expect
      .poll(async () => (await configurations()).map((c) => c?.metadata?.ownerReferences?.[0]?.uid), {
        timeout: 30_000,
      })
      .toEqual([role.metadata?.uid, role.metadata?.uid]);
    await controller.process.stop();
    await client.delete({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      name: 'regatta-cloneset',
    });
    await expect
      .poll(async () => (await configurations()).filter(Boolean).length, { timeout: 60_000 })
      .toBe(0);
  }, 600_000);
});
