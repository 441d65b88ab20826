// `regatta rollout` (and `kubectl regatta rollout`, the same script as a kubectl plugin) against a CloneSet served by
// the watcher and the cloneset program on the shared local cluster: status --watch until complete, pause, a held
// rollout, a watch that times out, resume, history, undo back to the first template, `regatta diff` of an image-only
// change (in place) and of a port change (recreate, naming the field), `regatta trace` of a finished rollout read from
// the run's Jaeger, and the errors a user gets.
import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generateCrds } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { installCrds, locateBinaries } from '@regatta/local-cluster';
import { createNamespace, randomId, scenarioCluster, useScenarioPrograms } from '@regatta/testing';
import { REGATTA, run, type Run } from './testing/cli-run.js';

const FIXTURES = fileURLToPath(new URL('../../../libs/api/src/fixtures/', import.meta.url));
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const SCOPE = 'regatta-test-rollout-cli';

interface CloneSet extends KubeObject {
  spec: Record<string, unknown> & { updateStrategy?: { paused?: boolean; type?: string; partition?: number } };
}

const id = randomId();
const programs = useScenarioPrograms();
let client: KubeClient;
let env: Record<string, string>;
let ns: string;
/** A folder on PATH holding `kubectl-regatta`, as `npm install` links it. */
let pluginDir: string;
/** The run's Jaeger query address (`regatta trace --jaeger`). */
let jaegerQuery: string | undefined;

const regatta = (...args: string[]) => run(process.execPath, [REGATTA, ...args], env);
const kubectlRegatta = (...args: string[]) =>
  run(locateBinaries().kubectl, ['regatta', ...args], {
    ...env,
    PATH: [pluginDir, dirname(process.execPath), process.env['PATH'] ?? ''].join(delimiter),
  });

beforeAll(async () => {
  const cluster = scenarioCluster();
  const { kubeconfig, nats, jaeger } = cluster;
  client = cluster.client;
  jaegerQuery = jaeger?.query;
  await installCrds(kubeconfig, generateCrds());
  const leaseNs = `rollout-cli-lease-${id}`;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: leaseNs } });
  const common = {
    KUBECONFIG: kubeconfig,
    NATS_URL: nats!,
    REGATTA_BUS_PREFIX: `rc${id}_`,
    REGATTA_LEASE_NAMESPACE: leaseNs,
    ...(jaeger ? { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttp } : {}),
  };
  await programs.start('watcher', `watcher-rc-${id}`, { ...common, POD_NAME: `watcher-rc-${id}` });
  await programs.start(
    'cloneset',
    `cloneset-rc-${id}`,
    { ...common, REGATTA_NAMESPACE_SELECTOR: `${SCOPE}=${id}`, POD_NAME: `cloneset-rc-${id}` },
    { webhook: false },
  );
  await programs.start(
    'asts',
    `asts-rc-${id}`,
    { ...common, REGATTA_NAMESPACE_SELECTOR: `${SCOPE}=${id}`, POD_NAME: `asts-rc-${id}` },
    { webhook: false },
  );
  ns = await createNamespace(client, `rollout-cli-${id}`, { [SCOPE]: id });
  env = { KUBECONFIG: kubeconfig, JAEGER_URL: 'http://jaeger.example:16686' };
  pluginDir = await mkdtemp(join(tmpdir(), 'regatta-plugin-'));
  await symlink(REGATTA, join(pluginDir, 'kubectl-regatta'));
});

describe('regatta rollout', () => {
  it('status --watch waits for a CloneSet to roll out; pause holds a rollout, resume lets it finish; history lists revisions', async () => {
    const cs = parse(await readFile(join(FIXTURES, 's1-2-cs-demo.yaml'), 'utf8')) as CloneSet;
    cs.metadata = { name: 'web', namespace: ns };
    await client.create(cs);

    const first = await regatta('rollout', 'status', '--watch', 'clone/web', '-n', ns, '--timeout', '3m');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('CloneSet "web" successfully rolled out');
    expect(first.stdout).toMatch(/replicas: +3 desired, 3 updated \(3 expected\), 3 ready, 3 available/);

    // kubectl finds the plugin on PATH
    const paused = await kubectlRegatta('rollout', 'pause', 'clone/web', '-n', ns);
    expect(paused).toMatchObject({ code: 0, stdout: 'CloneSet "web" paused (spec.updateStrategy.paused=true)\n' });
    const stored = await client.get<CloneSet>({ ...CS, namespace: ns, name: 'web' });
    expect(stored.spec.updateStrategy?.paused).toBe(true);

    await client.patch(
      { ...CS, namespace: ns, name: 'web' },
      [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' }],
      { type: 'json' },
    );
    // held: a watch with a short timeout gives up and says what is pending
    const held = await regatta('rollout', 'status', '-w', 'clone/web', '-n', ns, '--timeout', '5s');
    expect(held.code, held.stderr).toBe(1);
    expect(held.stdout).toContain('Waiting for CloneSet "web" rollout to finish');
    expect(held.stderr).toMatch(/timed out waiting for CloneSet "web": still waiting for /);
    const once = await regatta('rollout', 'status', 'clone/web', '-n', ns);
    expect(once.code).toBe(1);
    expect(once.stdout).toMatch(/paused: +true/);

    const resumed = await regatta('rollout', 'resume', 'clone/web', '-n', ns);
    expect(resumed).toMatchObject({ code: 0, stdout: 'CloneSet "web" resumed (spec.updateStrategy.paused=false)\n' });
    const done = await regatta('rollout', 'status', '--watch', 'clone/web', '-n', ns, '--timeout', '3m');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('CloneSet "web" successfully rolled out');
    // the rollout's trace id from regatta.dev/rollout-trace, with the Jaeger link from JAEGER_URL
    expect(done.stdout).toMatch(/rollout trace: +[0-9a-f]{32}/);
    expect(done.stdout).toMatch(/jaeger: +http:\/\/jaeger\.example:16686\/trace\/[0-9a-f]{32}/);

    const history = await regatta('rollout', 'history', 'clone/web', '-n', ns);
    expect(history.code).toBe(0);
    const rows = history.stdout.trim().split('\n').slice(2).map((l) => l.split(/\s+/));
    expect(rows.map((r) => [r[0], r[4]])).toEqual([
      ['1', undefined],
      ['2', 'current,update'],
    ]);
    expect(rows.every((r) => r[1]!.startsWith('web-') && /^\d+[smhd]$/.test(r[3]!))).toBe(true);
  }, 600_000);

  it('undo puts the first template back: the pods return to its image; undo refuses a missing revision and skips the current one', async () => {
    const missing = await regatta('rollout', 'undo', 'clone/web', '-n', ns, '--to-revision=9');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('CloneSet "web" has no revision 9 (revisions: 1, 2)');
    const current = await regatta('rollout', 'undo', 'clone/web', '-n', ns, '--to-revision=2');
    // as kubectl: nothing to do is no failure
    expect(current.code, current.stderr).toBe(0);
    expect(current.stdout).toBe('CloneSet "web" skipped rollback (current template already matches revision 2)\n');
    const usage = await regatta('rollout', 'undo', 'clone/web', '-n', ns, '--to-revision=one');
    expect(usage.code).toBe(2);

    const undo = await kubectlRegatta('rollout', 'undo', 'clone/web', '-n', ns);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toMatch(/^CloneSet "web" rolled back to revision 1 \(web-\w+\)\n$/);
    const stored = await client.get<CloneSet>({ ...CS, namespace: ns, name: 'web' });
    expect((stored.spec['template'] as { spec: { containers: { image: string }[] } }).spec.containers[0]!.image).toBe(
      'nginx:alpine',
    );
    const done = await regatta('rollout', 'status', '--watch', 'clone/web', '-n', ns, '--timeout', '3m');
    expect(done.code, done.stderr).toBe(0);
    await expect
      .poll(
        async () => {
          const pods = await client.list<KubeObject & { spec: { containers: { image: string }[] } }>(
            { apiVersion: 'v1', kind: 'Pod', namespace: ns },
            { labelSelector: 'app=cs' },
          );
          return pods.items.filter((p) => !p.metadata?.deletionTimestamp).map((p) => p.spec.containers[0]!.image);
        },
        { timeout: 120_000, interval: 1000 },
      )
      .toEqual(['nginx:alpine', 'nginx:alpine', 'nginx:alpine']);
    // as kubectl's history: the revision rolled back to is renumbered as the newest
    const history = await regatta('rollout', 'history', 'clone/web', '-n', ns);
    const rows = history.stdout.trim().split('\n').slice(2).map((l) => l.split(/\s+/));
    expect(rows.map((r) => [r[0], r[4]])).toEqual([
      ['2', undefined],
      ['3', 'current,update'],
    ]);
  }, 600_000);

  it('diff previews a change: an image-only change in place, a port change recreates and names the field', async () => {
    const cs = parse(await readFile(join(FIXTURES, 's1-2-cs-demo.yaml'), 'utf8')) as CloneSet;
    const before = await client.get<CloneSet>({ ...CS, namespace: ns, name: 'web' });
    const container = (cs.spec['template'] as { spec: { containers: Record<string, unknown>[] } }).spec.containers[0]!;
    const manifest = (image: string, port: number, type?: string) => {
      container['image'] = image;
      container['ports'] = [{ containerPort: port }];
      return stringify({
        ...cs,
        metadata: { name: 'web', namespace: ns },
        spec: { ...cs.spec, ...(type ? { updateStrategy: { type } } : {}) },
      });
    };
    const file = join(pluginDir, 'web.yaml');

    await writeFile(file, manifest('nginx:mainline', 80, 'InPlaceIfPossible'));
    const inPlace = await kubectlRegatta('diff', '-f', file);
    expect(inPlace.code, inPlace.stderr).toBe(0);
    expect(inPlace.stdout).toContain('CloneSet "web": template changes (back to revision web-');
    expect(inPlace.stdout).toMatch(/strategy InPlaceIfPossible, partition 0 pods/);
    expect(inPlace.stdout.match(/ in place +nginx: nginx:alpine → nginx:mainline$/gm)).toHaveLength(3);
    expect(inPlace.stdout).toContain('3 in place, 0 recreated, 0 kept by the partition, 0 unchanged');

    await writeFile(file, manifest('nginx:mainline', 8080, 'InPlaceIfPossible'));
    const recreate = await regatta('diff', '-f', file);
    expect(recreate.code, recreate.stderr).toBe(0);
    expect(recreate.stdout.match(/ recreate +changes spec\.template\.spec\.containers\[0\]\.ports\[0\]\.containerPort$/gm)).toHaveLength(3);
    expect(recreate.stdout).toContain('fields that force a recreate: spec.template.spec.containers[0].ports[0].containerPort');

    await writeFile(file, manifest('nginx:mainline', 80));
    const byStrategy = await regatta('diff', '-f', file);
    expect(byStrategy.code, byStrategy.stderr).toBe(0);
    expect(
      byStrategy.stdout.match(/ recreate +nginx: nginx:alpine → nginx:mainline; updateStrategy\.type is ReCreate$/gm),
    ).toHaveLength(3);

    // nothing was written
    const after = await client.get<CloneSet>({ ...CS, namespace: ns, name: 'web' });
    expect(after.metadata?.generation).toBe(before.metadata?.generation);

    await writeFile(file, stringify({ ...cs, metadata: { name: 'absent', namespace: ns } }));
    const absent = await regatta('diff', '-f', file);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain(`CloneSet "absent" not found in namespace "${ns}"`);
    await writeFile(file, stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' } }));
    const service = await regatta('diff', '-f', file);
    expect(service.code).toBe(2);
    expect(service.stderr).toContain('Service v1 is not a workload diff can preview');
  }, 240_000);

  it('trace prints the waterfall of a finished CloneSet rollout from Jaeger: the rollout line, one pod-update line per pod', async () => {
    expect(jaegerQuery, 'the scenario cluster runs Jaeger').toBeDefined();
    const cs = parse(await readFile(join(FIXTURES, 's1-2-cs-demo.yaml'), 'utf8')) as CloneSet;
    const labels = { app: 'traced' };
    cs.metadata = { name: 'traced', namespace: ns };
    cs.spec = {
      ...cs.spec,
      selector: { matchLabels: labels },
      template: { ...(cs.spec['template'] as Record<string, unknown>), metadata: { labels } },
      updateStrategy: { type: 'InPlaceIfPossible' },
    };
    await client.create(cs);
    const created = await regatta('rollout', 'status', '--watch', 'clone/traced', '-n', ns, '--timeout', '3m');
    expect(created.code, created.stderr).toBe(0);
    // a new CloneSet has no rollout yet
    const none = await regatta('trace', 'clone/traced', '-n', ns, '--jaeger', jaegerQuery!);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`CloneSet "traced" in namespace "${ns}" has no rollout trace`);
    expect(none.stderr).toContain('its rollout has not begun yet, or its controller runs without tracing');

    await client.patch(
      { ...CS, namespace: ns, name: 'traced' },
      [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' }],
      { type: 'json' },
    );
    const done = await regatta('rollout', 'status', '--watch', 'clone/traced', '-n', ns, '--timeout', '3m');
    expect(done.code, done.stderr).toBe(0);
    const pods = await client.list<KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace: ns }, { labelSelector: 'app=traced' });
    const names = pods.items.map((p) => p.metadata?.name ?? '').sort();
    expect(names).toHaveLength(3);

    // spans reach Jaeger in batches after they end, the rollout span once the controller has seen the rollout done
    let trace: Run = { code: -1, stdout: '', stderr: '' };
    await expect
      .poll(
        async () => {
          trace = await kubectlRegatta('trace', 'clone/traced', '-n', ns, '--jaeger', jaegerQuery!, '--width', '30');
          const podLines = trace.stdout.split('\n').filter((l) => / pod-update /.test(l));
          return trace.code === 0 && trace.stdout.includes('(done at ') && / rollout +- +traced-\w+ → traced-\w+ +\|━+\|$/m.test(trace.stdout) && podLines.length >= 3;
        },
        { timeout: 120_000, interval: 2000 },
      )
      .toBe(true);
    const lines = trace.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CloneSet "traced" rollout traced-\w+ → traced-\w+ \(done at .+\), started /);
    expect(lines[1]).toMatch(new RegExp(`^trace [0-9a-f]{32}: \\d+ spans from ${jaegerQuery!.replace(/[.]/g, '\\.')}$`));
    expect(lines[2]).toMatch(/^START +DURATION +SPAN +POD\/SUBSET +DETAIL +WATERFALL$/);
    expect(lines[3]).toMatch(/^\+0ms +\S+ +rollout /);
    const podLines = lines.filter((l) => / pod-update /.test(l));
    expect(podLines.map((l) => / pod-update +(\S+) /.exec(l)![1]).sort()).toEqual(names);
    expect(podLines.every((l) => / in place +\|[ █]{30}\|$/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^3 pods updated: 3 in place, 0 recreated; holds: \d+.*; total: /);

    // the live view shows the same rows: the rollout's last 3 pod updates under the summary
    const watched = await regatta('rollout', 'status', '--watch', 'clone/traced', '-n', ns, '--jaeger', jaegerQuery!);
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toContain('  last pod updates (regatta trace):');
    expect(watched.stdout.match(/^ {4}\S+ +\S+ +pod-update +traced-\w+ +in place +\|/gm)).toHaveLength(3);

    const unreachable = await regatta('trace', 'clone/traced', '-n', ns, '--jaeger', 'http://127.0.0.1:9');
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("cannot reach Jaeger's query API at http://127.0.0.1:9");
    const usage = await regatta('trace', 'clone/traced', '-n', ns, '--width', 'wide');
    expect(usage.code).toBe(2);
  }, 600_000);

  it('status --watch shows the pods live: an in-place rollout held by a partition shows both revisions, then ends with every pod updated in place', async () => {
    const cs = parse(await readFile(join(FIXTURES, 's1-2-cs-demo.yaml'), 'utf8')) as CloneSet;
    const labels = { app: 'live' };
    cs.metadata = { name: 'live', namespace: ns };
    cs.spec = {
      ...cs.spec,
      selector: { matchLabels: labels },
      template: { ...(cs.spec['template'] as Record<string, unknown>), metadata: { labels } },
      updateStrategy: { type: 'InPlaceIfPossible', partition: 2 },
    };
    await client.create(cs);
    const watch = (...more: string[]) =>
      regatta('rollout', 'status', '--watch', 'clone/live', '-n', ns, '--timeout', '3m', '--interval', '500ms', ...more);
    /** The frames of a non-TTY watch: each begins with the headline. */
    const frames = (out: string) => out.split(/^(?=Waiting for |CloneSet "live" successfully)/m).filter(Boolean);
    const rows = (frame: string) => frame.split('\n').filter((l) => /^ {4}live-\w{5} /.test(l));

    const created = await watch();
    expect(created.code, created.stderr).toBe(0);
    const first = frames(created.stdout).at(-1)!;
    expect(first).toMatch(/^ {2}pods by revision, update revision first \(3\):$/m);
    expect(first).toMatch(/^ {4}NAME +STATUS +READY +RESTARTS +UPDATE +LIFECYCLE +NODE +AGE$/m);
    expect(first).toMatch(/^ {2}revision live-\w+ \(update\): 3 pods$/m);
    expect(rows(first)).toHaveLength(3);
    expect(rows(first).every((l) => / Running +1\/1 +0 +- +Normal +\S+ +\d+s$/.test(l)), first).toBe(true);

    await client.patch(
      { ...CS, namespace: ns, name: 'live' },
      [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' }],
      { type: 'json' },
    );
    // the partition keeps 2 pods: done once 1 is updated; the last frame shows both revisions
    const held = await watch();
    expect(held.code, held.stderr).toBe(0);
    const both = frames(held.stdout).at(-1)!;
    const [update, current] = [/^ {2}revision (live-\w+) \(update\): 1 pod$/m.exec(both), /^ {2}revision (live-\w+) \(current\): 2 pods$/m.exec(both)];
    expect(update, both).not.toBeNull();
    expect(current, both).not.toBeNull();
    expect(update![1]).not.toBe(current![1]);
    expect(both).toContain(`updateRevision:    ${update![1]}`);
    const heldRows = rows(both);
    expect(heldRows.filter((l) => / in place +Normal +/.test(l))).toHaveLength(1);
    expect(heldRows.filter((l) => / - +Normal +\S+ +\d+[sm] +‖ partition$/.test(l))).toHaveLength(2);
    // the update revision is listed first
    expect(both.indexOf(update![0])).toBeLessThan(both.indexOf(current![0]));

    await client.patch({ ...CS, namespace: ns, name: 'live' }, { spec: { updateStrategy: { partition: 0 } } }, { type: 'merge' });
    const done = await watch();
    expect(done.code, done.stderr).toBe(0);
    const last = frames(done.stdout).at(-1)!;
    expect(last).toContain('CloneSet "live" successfully rolled out');
    expect(last).toMatch(new RegExp(`^ {2}revision ${update![1]} \\(update\\): 3 pods$`, 'm'));
    expect(last).not.toContain('(current)');
    expect(rows(last)).toHaveLength(3);
    expect(rows(last).every((l) => / Running +1\/1 +\d+ +in place +Normal +\S+ +\d+[sm]$/.test(l)), last).toBe(true);

    // --no-pods: the summary only; --max-pods bounds the rows and counts the rest
    const summary = await regatta('rollout', 'status', '--watch', 'clone/live', '-n', ns, '--no-pods');
    expect(summary.code).toBe(0);
    expect(summary.stdout).not.toContain('pods by revision');
    const bounded = await regatta('rollout', 'status', '--watch', 'clone/live', '-n', ns, '--max-pods', '1');
    expect(bounded.code).toBe(0);
    expect(rows(bounded.stdout)).toHaveLength(1);
    expect(bounded.stdout).toMatch(/^ {4}… and 2 more$/m);
    const usage = await regatta('rollout', 'status', '--watch', 'clone/live', '-n', ns, '--max-pods', 'all');
    expect(usage.code).toBe(2);

    // on a terminal (`script` gives the command a pseudo-terminal) the frame is redrawn in place every interval; a
    // paused rollout never completes, so the watch times out with exit 1 and its pods are marked not updated
    await client.patch({ ...CS, namespace: ns, name: 'live' }, { spec: { updateStrategy: { paused: true } } }, { type: 'merge' });
    await client.patch(
      { ...CS, namespace: ns, name: 'live' },
      [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:alpine' }],
      { type: 'json' },
    );
    const command = [process.execPath, REGATTA, 'rollout', 'status', '-w', 'clone/live', '-n', ns, '--timeout', '4s', '--interval', '500ms'];
    const tty = await run('script', ['-qec', `stty cols 160 rows 50 && ${command.join(' ')}`, '/dev/null'], env);
    expect(tty.code, tty.stdout).toBe(1);
    expect(tty.stdout).toContain('every 0.5s, Ctrl-C to stop');
    // ECMA-48: cursor up over the previous frame, erase to the end of the screen
    const ESC = String.fromCharCode(27);
    expect(tty.stdout.match(new RegExp(`${ESC}\\[\\d+A\\r${ESC}\\[J`, 'g'))?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(tty.stdout).toMatch(/^ {4}live-\w{5} +Running .* ◦ not updated\r?$/m);
    // lines are cut to the terminal's width (160 columns here), so none wraps and the redraw stays in place
    expect(tty.stdout.split('\n').every((l) => [...l.replace(new RegExp(`${ESC}\\[\\d*[A-Za-z]|\\r`, 'g'), '')].length < 160)).toBe(true);
  }, 600_000);

  it('status --watch of an Advanced StatefulSet: recreated pods at the update revision, the ordinals below the partition marked kept', async () => {
    const labels = { app: 'db' };
    await client.create({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: ns },
      spec: {
        replicas: 3,
        serviceName: 'db',
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: labels },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1, maxUnavailable: 2 } },
        template: { metadata: { labels }, spec: { containers: [{ name: 'db', image: 'nginx:alpine' }] } },
      },
    } as KubeObject);
    const watch = () => regatta('rollout', 'status', '--watch', 'asts/db', '-n', ns, '--timeout', '3m', '--interval', '500ms');
    const created = await watch();
    expect(created.code, created.stderr).toBe(0);
    await client.patch(
      { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', namespace: ns, name: 'db' },
      [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' }],
      { type: 'json' },
    );
    const done = await watch();
    expect(done.code, done.stderr).toBe(0);
    const last = done.stdout.split(/^(?=Waiting for |Advanced StatefulSet "db" successfully)/m).at(-1)!;
    expect(last, last).toMatch(/^ {2}revision db-\w+ \(update\): 2 pods\n {4}db-1 .* recreated .*\n {4}db-2 .* recreated /m);
    expect(last, last).toMatch(/^ {2}revision db-\w+ \(current\): 1 pod\n {4}db-0 +Running +1\/1 +0 +- +.*‖ partition$/m);
  }, 600_000);

  it('status --watch exits 1 once the controller reports the rollout stuck; --context works without --kubeconfig', async () => {
    const cs = parse(await readFile(join(FIXTURES, 's1-2-cs-demo.yaml'), 'utf8')) as CloneSet;
    cs.metadata = { name: 'stuck', namespace: ns };
    cs.spec['replicas'] = 1;
    cs.spec['progressDeadlineSeconds'] = 3;
    const template = cs.spec['template'] as { spec: Record<string, unknown> };
    template.spec['nodeSelector'] = { 'regatta.test/no-such-node': 'true' };
    await client.create(cs);

    const stuck = await regatta('rollout', 'status', '--watch', 'clone/stuck', '-n', ns, '--timeout', '2m');
    expect(stuck.code, stuck.stderr).toBe(1);
    expect(stuck.stderr).toMatch(/CloneSet "stuck" is degraded: Progressing ProgressDeadlineExceeded/);

    // KUBECONFIG (no --kubeconfig) with a context named on the command line, as kubectl takes it
    const current = (parse(await readFile(env['KUBECONFIG']!, 'utf8')) as { 'current-context': string })['current-context'];
    const once = await regatta('rollout', 'status', 'clone/stuck', '-n', ns, '--context', current);
    expect(once.stdout).toContain('CloneSet "stuck"');
    const wrong = await regatta('rollout', 'status', 'clone/stuck', '-n', ns, '--context', 'no-such-context');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`context "no-such-context" is not in the kubeconfig (contexts: ${current})`);
    await client.delete({ ...CS, namespace: ns, name: 'stuck' });
  }, 240_000);

  it('refuses an unknown kind with exit 2 and names a missing workload with exit 1', async () => {
    const unknown = await regatta('rollout', 'status', 'deployment/web', '-n', ns);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown kind "deployment"; valid kinds: cloneset, .*asts, .*ads, .*ud/);
    const missing = await regatta('rollout', 'pause', 'asts/nothing', '-n', ns);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`Advanced StatefulSet "nothing" not found in namespace "${ns}"`);
    const help = await regatta('rollout', 'status', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--watch');
    expect(help.stdout).toContain('KIND is one of: cloneset|clonesets|clone (CloneSet)');
  }, 240_000);
});
