// `regatta dashboard` in a real headless browser (Debian's chromium driven by playwright-core) against CloneSets served
// by the watcher and the cloneset program on the shared local cluster, with the run's Jaeger: the page lists the
// workloads, follows a rollout's phase (Completed → Progressing), Pause sets the CloneSet's pause switch in the API
// (Paused), Resume lets it finish, the waterfall shows the rollout, its hold and one bar per pod; a screenshot goes
// to docs/images/dashboard.png. Then what the server refuses (another Host, a POST without the token, another
// Origin), an API server error on the page, and a second dashboard run with a read-only ServiceAccount's kubeconfig:
// its Pause is the API server's 403, shown on the page.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { get } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { generateCrds } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { installCrds, writeServiceAccountKubeconfig } from '@regatta/local-cluster';
import { createNamespace, randomId, scenarioCluster, useScenarioPrograms } from '@regatta/testing';
import { REGATTA } from './testing/cli-run.js';

const CHROMIUM = '/usr/bin/chromium';
/** The docs' screenshot is rewritten with UPDATE_SCREENSHOTS=1; otherwise the run's goes to a temporary folder. */
const SCREENSHOT = process.env['UPDATE_SCREENSHOTS']
  ? fileURLToPath(new URL('../../../docs/images/dashboard.png', import.meta.url))
  : join(tmpdir(), `regatta-dashboard-${process.pid}.png`);
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const SCOPE = 'regatta-test-dashboard';
const noChromium = !existsSync(CHROMIUM);
/** A user who may read Regatta's workloads and pods but not change them (the ClusterRole and its binding). */
const VIEWER_SA = 'viewer';

interface CloneSet extends KubeObject {
  spec: { updateStrategy?: { paused?: boolean } };
}

const id = randomId();
const VIEWER = `regatta-dashboard-viewer-${id}`;
const programs = useScenarioPrograms();
let client: KubeClient;
let ns: string;
const dashboards: ChildProcess[] = [];
let kubeconfig: string;
let jaegerQuery: string | undefined;
let url: string;
let browser: BrowserContext | undefined;
let userDataDir: string | undefined;
let page: Page;

function cloneSet(name: string, replicas: number, minReadySeconds: number): KubeObject & { spec: unknown } {
  return {
    ...CS,
    metadata: { name, namespace: ns },
    spec: {
      replicas,
      minReadySeconds,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
      },
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
    },
  };
}

/** Starts `regatta dashboard --port 0` and reads the address it prints. */
function startDashboard(env: Record<string, string>, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [REGATTA, 'dashboard', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dashboards.push(child);
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Regatta dashboard on (http:\/\/\S+\/)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`regatta dashboard exited ${code}: ${err}`)));
  });
}

const row = (name: string) => page.locator(`tr[data-id="${ns}/cloneset/${name}"]`);
const phaseOf = (name: string) => row(name).locator('.phase');
const cloneSetPaused = async (name: string) =>
  (await client.get<CloneSet>({ ...CS, namespace: ns, name })).spec.updateStrategy?.paused === true;

beforeAll(async () => {
  if (noChromium) return;
  const cluster = scenarioCluster();
  const { nats, jaeger } = cluster;
  kubeconfig = cluster.kubeconfig;
  jaegerQuery = jaeger?.query;
  client = cluster.client;
  await installCrds(kubeconfig, generateCrds());
  const leaseNs = await createNamespace(client, `dash-lease-${id}`);
  const common = {
    KUBECONFIG: kubeconfig,
    NATS_URL: nats!,
    REGATTA_BUS_PREFIX: `dash${id}_`,
    REGATTA_LEASE_NAMESPACE: leaseNs,
    ...(jaeger ? { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttp } : {}),
  };
  await programs.start('watcher', `watcher-dash-${id}`, { ...common, POD_NAME: `watcher-dash-${id}` });
  await programs.start(
    'cloneset',
    `cloneset-dash-${id}`,
    { ...common, REGATTA_NAMESPACE_SELECTOR: `${SCOPE}=${id}`, POD_NAME: `cloneset-dash-${id}` },
    { webhook: false },
  );
  ns = await createNamespace(client, `dash-${id}`, { [SCOPE]: id });
  await client.create(cloneSet('api', 2, 0));
  url = await startDashboard({ KUBECONFIG: kubeconfig }, [
    '-n',
    ns,
    '--refresh',
    '1',
    ...(jaeger ? ['--jaeger', jaeger.query] : []),
  ]);

  const { chromium } = await import('playwright-core');
  userDataDir = await mkdtemp(join(tmpdir(), 'regatta-chromium-'));
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
});

afterAll(async () => {
  await browser?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  for (const d of dashboards) d.kill('SIGTERM');
  if (!noChromium) {
    for (const path of [`clusterrolebindings/${VIEWER}`, `clusterroles/${VIEWER}`]) {
      await client.request('DELETE', `/apis/rbac.authorization.k8s.io/v1/${path}`).catch(() => undefined);
    }
  }
});

describe.skipIf(noChromium)(
  `regatta dashboard in headless chromium${noChromium ? ` (skipped: ${CHROMIUM} is missing; apt-get install chromium)` : ''}`,
  () => {
    it('follows a CloneSet rollout, pauses and resumes it with the buttons, and draws its waterfall', { timeout: 300_000 }, async () => {
      await client.create(cloneSet('web', 3, 6));
      await page.goto(url);
      await expect.poll(() => row('web').count(), { timeout: 30_000 }).toBe(1);
      await expect.poll(() => phaseOf('web').textContent(), { timeout: 90_000 }).toBe('Completed');
      await expect.poll(() => phaseOf('api').textContent(), { timeout: 90_000 }).toBe('Completed');

      // a new template: one pod at a time (maxUnavailable 1), each available 6 s after it is ready
      await client.patch(
        { ...CS, namespace: ns, name: 'web' },
        [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' }],
        { type: 'json' },
      );
      await expect.poll(() => phaseOf('web').textContent(), { timeout: 30_000 }).toBe('Progressing');
      await row('web').locator('button[data-action="pause"]').click();
      await vi.waitFor(async () => expect(await cloneSetPaused('web')).toBe(true), { timeout: 15_000, interval: 250 });
      await expect.poll(() => phaseOf('web').textContent(), { timeout: 30_000 }).toBe('Paused');

      // the detail: summary, pods, the Resume button
      await row('web').click();
      await expect.poll(() => page.locator('#summary').textContent(), { timeout: 15_000 }).toMatch(/paused: +true/);
      await expect.poll(() => page.locator('#pods').textContent()).toContain('by revision');
      await page.waitForTimeout(3000); // the hold lasts a few seconds, as a person's would
      await page.locator('#detail-action[data-action="resume"]').click();
      await vi.waitFor(async () => expect(await cloneSetPaused('web')).toBe(false), { timeout: 15_000, interval: 250 });
      await expect.poll(() => phaseOf('web').textContent(), { timeout: 120_000 }).toBe('Completed');

      // the rollout's trace from Jaeger: the rollout line, the pause hold, one pod-update bar per pod, the totals
      await expect
        .poll(() => page.locator('#totals').textContent(), { timeout: 120_000, interval: 1000 })
        .toMatch(/3 pods updated: 3 in place.*holds: [1-9].*total: \d/);
      expect(await page.locator('#waterfall .bar.rollout').count()).toBe(1);
      expect(await page.locator('#waterfall .bar.pod-update').count()).toBe(3);
      expect(await page.locator('#waterfall .bar.hold').count()).toBeGreaterThanOrEqual(1);
      expect(await page.locator('#errors').isHidden()).toBe(true);
      await mkdir(join(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    });

    it('refuses another Host and a POST without the token; shows the API server\'s error on the page', async () => {
      const port = new URL(url).port;
      // a page whose DNS name was rebound to 127.0.0.1 sends its own name as Host
      const rebound = await new Promise<number>((resolve, reject) => {
        get(`${url}api/workloads`, { headers: { host: `evil.example:${port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject);
      });
      expect(rebound).toBe(403);
      const body = JSON.stringify({ kind: 'cloneset', namespace: ns, name: 'api' });
      const noToken = await fetch(`${url}api/pause`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(noToken.status).toBe(403);
      expect(((await noToken.json()) as { error: string }).error).toContain('x-regatta-token');
      const crossSite = await fetch(`${url}api/pause`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
        body,
      });
      expect(crossSite.status).toBe(403);
      expect(await cloneSetPaused('api')).toBe(false);

      // a workload the API server does not have: its 404 message on the page
      await page.goto(`${url}#${encodeURIComponent(`${ns}/cloneset/gone`)}`);
      await expect
        .poll(() => page.locator('#errors').textContent(), { timeout: 15_000 })
        .toContain(`CloneSet "gone" not found in namespace "${ns}"`);
    });

    it("acts with the user's own rights: a viewer's Pause is refused by the API server, with its message on the page", async () => {
      await client.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: VIEWER_SA, namespace: ns } });
      const rbac = '/apis/rbac.authorization.k8s.io/v1';
      await client.request('POST', `${rbac}/clusterroles`, {
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: VIEWER },
          rules: [
            { apiGroups: ['apps.kruise.io'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
            { apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] },
          ],
        },
      });
      await client.request('POST', `${rbac}/clusterrolebindings`, {
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: VIEWER },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: VIEWER },
          subjects: [{ kind: 'ServiceAccount', name: VIEWER_SA, namespace: ns }],
        },
      });
      const viewerKubeconfig = await writeServiceAccountKubeconfig({
        kubeconfig,
        namespace: ns,
        serviceAccount: VIEWER_SA,
        file: join(userDataDir!, 'viewer.kubeconfig'),
      });
      const viewerUrl = await startDashboard({ KUBECONFIG: viewerKubeconfig }, [
        '-n',
        ns,
        '--refresh',
        '1',
        ...(jaegerQuery ? ['--jaeger', jaegerQuery] : []),
      ]);
      await page.goto(`${viewerUrl}#${encodeURIComponent(`${ns}/cloneset/api`)}`);
      await expect.poll(() => phaseOf('api').textContent(), { timeout: 30_000 }).toBe('Completed');
      await page.locator('#detail-action[data-action="pause"]').click();
      await expect
        .poll(() => page.locator('#errors').textContent(), { timeout: 15_000 })
        .toContain(`cannot patch resource "clonesets" in API group "apps.kruise.io" in the namespace "${ns}"`);
      expect(await cloneSetPaused('api')).toBe(false);
    });
  },
);
