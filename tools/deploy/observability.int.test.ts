// The Grafana dashboard and the Prometheus alert rules in deploy/observability use only metrics the programs export:
// every metric named in a panel or a rule is on the /metrics of the watcher or of a controller (the cloneset
// program, serving its webhooks, after a CloneSet was admitted and rolled out). A renamed or removed metric fails here.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateCrds } from '@regatta/api';
import type { KubeClient } from '@regatta/kube';
import { installCrds } from '@regatta/local-cluster';
import {
  createNamespace,
  randomId,
  scenarioCluster,
  useScenarioPrograms,
  type ServingProgram,
} from '@regatta/testing';

const DIR = fileURLToPath(new URL('../../deploy/observability/', import.meta.url));
const SCOPE = 'regatta-test-observability';

interface Dashboard {
  panels: { title: string; type: string; targets?: { expr: string }[] }[];
}
interface Rules {
  groups: { rules: { alert: string; expr: string; for?: string; annotations: Record<string, string> }[] }[];
}

const dashboard = JSON.parse(readFileSync(`${DIR}grafana-dashboard.json`, 'utf8')) as Dashboard;
const rules = parse(readFileSync(`${DIR}prometheus-rules.yaml`, 'utf8')) as Rules;

/** The metric names a PromQL expression reads: identifiers followed by a selector, a range or a closing paren. */
function metricsIn(expr: string): string[] {
  const labels = /\{[^}]*\}/g;
  const bare = expr.replace(labels, '{}');
  const names = [...bare.matchAll(/\b([a-z_:][a-z0-9_:]*)\s*(?=\{|\[|\))/g)].map((m) => m[1]!);
  const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
  return names.filter((n) => !keywords.has(n) && n.includes('_'));
}

/** Every sample name a /metrics page declares (`# TYPE`), with a histogram's `_bucket`, `_sum` and `_count`. */
function exported(page: string): Set<string> {
  const out = new Set<string>();
  for (const m of page.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    out.add(m[1]!);
    if (m[2] === 'histogram') for (const s of ['_bucket', '_sum', '_count']) out.add(`${m[1]}${s}`);
  }
  return out;
}

const id = randomId();
const programs = useScenarioPrograms();
let client: KubeClient;
let watcher: ServingProgram;
let cloneset: ServingProgram;

beforeAll(async () => {
  const cluster = scenarioCluster();
  client = cluster.client;
  await installCrds(cluster.kubeconfig, generateCrds());
  const leaseNs = await createNamespace(client, `obs-lease-${id}`);
  const common = {
    KUBECONFIG: cluster.kubeconfig,
    NATS_URL: cluster.nats!,
    REGATTA_BUS_PREFIX: `obs${id}_`,
    REGATTA_LEASE_NAMESPACE: leaseNs,
  };
  watcher = await programs.start('watcher', `watcher-obs-${id}`, { ...common, POD_NAME: `watcher-obs-${id}` });
  cloneset = await programs.start(
    'cloneset',
    `cloneset-obs-${id}`,
    { ...common, REGATTA_NAMESPACE_SELECTOR: `${SCOPE}=${id}`, POD_NAME: `cloneset-obs-${id}` },
    { webhook: true },
  );
});

describe('deploy/observability', () => {
  it('names only metrics the programs export', async () => {
    const ns = await createNamespace(client, `obs-${id}`, { [SCOPE]: id });
    await client.create({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] } },
      },
    } as never);
    const page = async (p: ServingProgram) => (await fetch(`${p.health}/metrics`)).text();
    // the program leads, has reconciled the CloneSet and answered its admission
    await expect
      .poll(async () => page(cloneset), { timeout: 60_000, interval: 1000 })
      .toMatch(/regatta_webhook_admissions_total\{[^}]*kind="CloneSet"/);
    await expect.poll(async () => page(cloneset), { timeout: 60_000, interval: 1000 }).toMatch(/regatta_rollout_info\{/);
    const names = new Set([...exported(await page(watcher)), ...exported(await page(cloneset))]);

    const used = [
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => [`panel "${p.title}"`, t.expr] as const)),
      ...rules.groups.flatMap((g) => g.rules.map((r) => [`alert ${r.alert}`, r.expr] as const)),
    ];
    expect(used.length).toBeGreaterThan(20);
    const missing = used.flatMap(([where, expr]) =>
      metricsIn(expr)
        .filter((n) => !names.has(n))
        .map((n) => `${where}: ${n}`),
    );
    expect(missing).toEqual([]);
  });

  it('every alert says what to look at, and every panel has a query', () => {
    for (const r of rules.groups.flatMap((g) => g.rules)) {
      expect(r.annotations['summary'], r.alert).toBeTruthy();
      expect(r.annotations['description'], r.alert).toMatch(/\b(Check|See|The program's log)\b/);
      expect(metricsIn(r.expr).length, r.alert).toBeGreaterThan(0);
    }
    for (const p of dashboard.panels.filter((x) => x.type !== 'row')) {
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets ?? []) expect(metricsIn(t.expr).length, p.title).toBeGreaterThan(0);
    }
  });
});
