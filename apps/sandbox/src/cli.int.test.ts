// The CLI's everyday commands against CloneSets served by the watcher and the cloneset program on the shared local
// cluster: `regatta list` (a namespace, -A, -o json), `rollout restart` (every pod replaced with the template's
// restartedAt; refused while paused), `rollout status|history -o json|yaml`, `version` and `completion`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { generateCrds } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { installCrds, writeServiceAccountKubeconfig } from '@regatta/local-cluster';
import { createNamespace, randomId, scenarioCluster, useScenarioPrograms } from '@regatta/testing';
import { REGATTA, run } from './testing/cli-run.js';

const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const SCOPE = 'regatta-test-cli';

interface Pod extends KubeObject {
  spec: { containers: { name: string; image: string }[] };
}

const id = randomId();
const programs = useScenarioPrograms();
let client: KubeClient;
let env: Record<string, string>;
let a: string;
let b: string;

const regatta = (...args: string[]) => run(process.execPath, [REGATTA, ...args], env);

function cloneSet(namespace: string, name: string, replicas: number): KubeObject & { spec: unknown } {
  return {
    ...CS,
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
      },
      updateStrategy: { type: 'InPlaceIfPossible' },
    },
  };
}

const podsOf = async (ns: string, app: string) =>
  (await client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: ns }, { labelSelector: `app=${app}` })).items;

beforeAll(async () => {
  const cluster = scenarioCluster();
  client = cluster.client;
  await installCrds(cluster.kubeconfig, generateCrds());
  const leaseNs = await createNamespace(client, `cli-lease-${id}`);
  const common = {
    KUBECONFIG: cluster.kubeconfig,
    NATS_URL: cluster.nats!,
    REGATTA_BUS_PREFIX: `cli${id}_`,
    REGATTA_LEASE_NAMESPACE: leaseNs,
  };
  await programs.start('watcher', `watcher-cli-${id}`, { ...common, POD_NAME: `watcher-cli-${id}` });
  await programs.start(
    'cloneset',
    `cloneset-cli-${id}`,
    { ...common, REGATTA_NAMESPACE_SELECTOR: `${SCOPE}=${id}`, POD_NAME: `cloneset-cli-${id}` },
    { webhook: false },
  );
  a = await createNamespace(client, `cli-a-${id}`, { [SCOPE]: id });
  b = await createNamespace(client, `cli-b-${id}`, { [SCOPE]: id });
  env = { KUBECONFIG: cluster.kubeconfig };
  await client.create(cloneSet(a, 'web', 2));
  await client.create(cloneSet(b, 'api', 1));
  for (const [ns, name] of [
    [a, 'web'],
    [b, 'api'],
  ] as const) {
    const done = await regatta('rollout', 'status', '-w', `clone/${name}`, '-n', ns, '--timeout', '3m');
    expect(done.code, done.stderr).toBe(0);
  }
});

// each test runs the CLI (tsx start-up: seconds each) several times; on a loaded 2-vCPU machine one took over 120 s
vi.setConfig({ testTimeout: 300_000 });

describe('regatta list', () => {
  it("lists the namespace's workloads, every namespace's with -A, and the same rows as JSON", async () => {
    const one = await regatta('list', '-n', a);
    expect(one.code, one.stderr).toBe(0);
    const lines = one.stdout.trimEnd().split('\n');
    expect(lines[0]!.split(/\s+/)).toEqual(['NAME', 'DESIRED', 'UPDATED', 'READY', 'AVAILABLE', 'ROLLOUT', 'AGE']);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 6))).toEqual([
      ['cloneset/web', '2', '2', '2', '2', 'Completed'],
    ]);

    const all = await regatta('list', '-A');
    expect(all.code, all.stderr).toBe(0);
    const mine = all.stdout.split('\n').filter((l) => l.includes(id));
    expect(mine.map((l) => l.split(/\s+/).slice(0, 2))).toEqual([
      [a, 'cloneset/web'],
      [b, 'cloneset/api'],
    ]);

    const json = await regatta('list', '-A', '-o', 'json');
    const items = (JSON.parse(json.stdout) as { items: { namespace?: string; name: string; phase: string }[] }).items;
    expect(items.filter((i) => i.namespace === b)).toEqual([
      expect.objectContaining({ kind: 'cloneset', name: 'api', phase: 'Completed', desired: 1, ready: 1 }),
    ]);
    const bad = await regatta('list', '-o', 'wide');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('-o must be json or yaml');
  });

  it('with rights in one namespace only, lists what it may and names the kinds it may not (the cluster-scoped SidecarSets)', async () => {
    await client.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'team', namespace: a } });
    await client.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${a}/rolebindings`, {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'team-view', namespace: a },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ kind: 'ServiceAccount', name: 'team', namespace: a }],
      },
    });
    const team = await writeServiceAccountKubeconfig({
      kubeconfig: env['KUBECONFIG']!,
      namespace: a,
      serviceAccount: 'team',
      file: join(mkdtempSync(join(tmpdir(), 'cli-team-')), 'kubeconfig'),
    });
    const listed = await run(process.execPath, [REGATTA, 'list', '-n', a], { KUBECONFIG: team });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^cloneset\/web +2 /m);
    expect(listed.stdout).toMatch(/^not listed: SidecarSet \(.*forbidden/im);
    const json = JSON.parse((await run(process.execPath, [REGATTA, 'list', '-n', a, '-o', 'json'], { KUBECONFIG: team })).stdout) as {
      notListed: { kind: string }[];
    };
    expect(json.notListed.map((n) => n.kind)).toEqual(['SidecarSet']);
    // no rights at all: the API server's refusal, exit 1
    const none = await run(process.execPath, [REGATTA, 'list', '-n', b], { KUBECONFIG: team });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/forbidden/i);
  });
});

describe('regatta rollout restart', () => {
  it('replaces every pod through a new revision and is refused while the CloneSet is paused', async () => {
    const before = await podsOf(a, 'web');
    const restarted = await regatta('rollout', 'restart', 'clone/web', '-n', a);
    expect(restarted).toMatchObject({ code: 0, stdout: 'CloneSet "web" restarted\n' });
    const cs = await client.get<KubeObject & { spec: { template: KubeObject } }>({ ...CS, namespace: a, name: 'web' });
    expect(cs.spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    const done = await regatta('rollout', 'status', '-w', 'clone/web', '-n', a, '--timeout', '3m');
    expect(done.code, done.stderr).toBe(0);
    // metadata only: updated in place, so the same pods carry the new revision
    await vi.waitFor(async () => {
      const after = await podsOf(a, 'web');
      expect(after.map((p) => p.metadata?.uid).sort()).toEqual(before.map((p) => p.metadata?.uid).sort());
      expect(new Set(after.map((p) => p.metadata?.labels?.['controller-revision-hash'])).size).toBe(1);
      expect(after[0]!.metadata?.labels?.['controller-revision-hash']).not.toBe(
        before[0]!.metadata?.labels?.['controller-revision-hash'],
      );
    }, { timeout: 60_000, interval: 500 });

    expect((await regatta('rollout', 'pause', 'clone/api', '-n', b)).code).toBe(0);
    const refused = await regatta('rollout', 'restart', 'clone/api', '-n', b);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('CloneSet "api" is paused; run `regatta rollout resume` first');
    const sets = await regatta('rollout', 'restart', 'sidecarset/x');
    expect(sets.code).toBe(2);
    expect(sets.stderr).toContain('SidecarSet cannot be restarted');
  });
});

describe('structured output, version and completion', () => {
  it('status and history print JSON or YAML; version and completion need no cluster', async () => {
    const status = await regatta('rollout', 'status', 'clone/api', '-n', b, '-o', 'json');
    expect(JSON.parse(status.stdout)).toMatchObject({ kind: 'CloneSet', name: 'api', namespace: b, desired: 1 });
    const history = await regatta('rollout', 'history', 'clone/api', '-n', b, '-o', 'yaml');
    expect(history.code, history.stderr).toBe(0);
    const doc = parse(history.stdout) as { name: string; items: { revision: number; current: boolean }[] };
    expect(doc.name).toBe('api');
    expect(doc.items).toEqual([expect.objectContaining({ revision: 1, current: true })]);
    const watchJson = await regatta('rollout', 'status', '-w', 'clone/api', '-n', b, '-o', 'json');
    expect(watchJson.code).toBe(2);

    const version = await run(process.execPath, [REGATTA, 'version'], { KUBECONFIG: '/nonexistent' });
    expect(version).toMatchObject({ code: 0 });
    expect(version.stdout).toMatch(/^regatta \d+\.\d+\.\d+ \(source\) \(node v24\./);
    const completion = await regatta('completion', 'zsh');
    expect(completion.stdout).toContain('bashcompinit');
    expect(completion.stdout).toContain("'rollout restart'");
  });
});
