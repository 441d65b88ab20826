import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bucketName, connectBus, ObjectWatch } from '@regatta/bus';
import { alive, locateBinaries, type NodeAgentUser, type ProcessRecord } from '@regatta/local-cluster';
import { KIND_TABLE } from '@regatta/kube';

const run = promisify(execFile);
const regatta = fileURLToPath(new URL('../bin/regatta.mjs', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../libs/api/src/fixtures/', import.meta.url));

describe('regatta sandbox', () => {
  it('up --detach returns once N nodes are Ready and the watcher is ready, serves a seed CloneSet; restart replaces one program; down stops exactly what it started', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'regatta-sandbox-test-'));
    // whatever happens below, nothing it started outlives the test (a failed run left a control plane behind)
    onTestFinished(async () => {
      await run(process.execPath, [regatta, 'sandbox', 'down', '--dir', dir], { timeout: 180_000 }).catch(
        () => undefined,
      );
    });
    const up = await run(
      process.execPath,
      // simulated nodes only: the real node has its own scenario (docs/real-nodes.md)
      [regatta, 'sandbox', 'up', '--detach', '--dir', dir, '--nodes', '3', '--zones', 'east,west', '--real-nodes', '0'],
      // a cold start on a loaded 2-vCPU machine took more than 180 s
      {
        timeout: 300_000,
      },
    );
    expect(up.stdout.trim()).toBe(join(dir, 'endpoints.json'));
    const endpoints = JSON.parse(await readFile(join(dir, 'endpoints.json'), 'utf8')) as {
      kubeconfig: string;
      apiserver: string;
      nats: string;
      jaeger: { query: string };
      programs: { name: string; pid: number; health: string; log: string }[];
      natsAuth: { watcher: { user: string }; controller: { user: string } };
    };
    expect(endpoints.kubeconfig).toBe(join(dir, 'kubeconfig'));
    expect(endpoints.nats).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect(endpoints.jaeger.query).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // the bus has credentials: the watcher's role writes mirrors, controllers' only read them
    expect(endpoints.natsAuth.watcher.user).toBe('regatta-watcher');
    expect(endpoints.natsAuth.controller.user).toBe('regatta-controller');
    // `--controllers all` (the default) runs the watcher beside whatever controllers this build has
    const watcher = endpoints.programs.find((p) => p.name === 'watcher');
    expect(watcher).toBeDefined();
    expect((await fetch(`${watcher!.health}/readyz`)).status).toBe(200);

    const { stdout } = await run(locateBinaries().kubectl, [
      '--kubeconfig',
      endpoints.kubeconfig,
      'get',
      'nodes',
      '-L',
      'topology.kubernetes.io/zone',
      '--no-headers',
    ]);
    const rows = stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/));
    expect(rows.map((r) => [r[0], r[1], r.at(-1)])).toEqual([
      ['node1', 'Ready', 'east'],
      ['node2', 'Ready', 'west'],
      ['node3', 'Ready', 'east'],
    ]);

    // the seed's CloneSet, applied unchanged with kubectl, is served by the sandbox's cloneset program
    const kubectl = (...args: string[]) =>
      run(locateBinaries().kubectl, ['--kubeconfig', endpoints.kubeconfig, ...args]);
    await kubectl('apply', '-f', join(FIXTURES, 's1-2-cs-demo.yaml'));
    await expect
      .poll(
        async () => (await kubectl('get', 'clone', 'cs-demo', '--no-headers')).stdout.trim().split(/\s+/),
        {
          timeout: 90_000,
          interval: 1000,
        },
      )
      .toEqual(['cs-demo', '3', '3', '3', '3', '3', '3', expect.stringMatching(/^\d+s$/)]);
    const header = (await kubectl('get', 'clone', 'cs-demo')).stdout.split('\n')[0]!.trim().split(/\s+/);
    expect(header).toEqual([
      'NAME',
      'DESIRED',
      'UPDATED',
      'UPDATED_READY',
      'UPDATED_AVAILABLE',
      'READY',
      'TOTAL',
      'AGE',
    ]);
    // its admission webhook answers too: a string partition is rejected naming the field
    const badPartition = async () =>
      (
        (await kubectl(
          'patch',
          'clone',
          'cs-demo',
          '--type=merge',
          '-p',
          '{"spec":{"updateStrategy":{"partition":"5"}}}',
        ).catch((e: unknown) => e)) as { stderr?: string }
      ).stderr;
    expect(await badPartition()).toContain('spec.updateStrategy.partition');

    const records = async () => JSON.parse(await readFile(join(dir, 'pids.json'), 'utf8')) as ProcessRecord[];
    const pids = (await records()).map((r) => r.pid);
    expect(pids.length).toBeGreaterThanOrEqual(8); // etcd, nats, jaeger, apiserver, kcm, scheduler, simulator, watcher
    expect(pids.every(alive)).toBe(true);

    // files holding credentials (bus passwords, client key, every program's environment) are private
    const mode = async (f: string) => ((await stat(join(dir, f))).mode & 0o777).toString(8);
    for (const f of [
      'endpoints.json',
      'pids.json',
      'programs.json',
      'kubeconfig',
      'nats.conf',
      'pki/ca.key',
    ]) {
      expect([f, await mode(f)]).toEqual([f, '600']);
    }

    // restart: the same program with a new pid, in the old one's place, ready again
    for (const name of ['watcher', 'cloneset']) {
      const before = (await records()).findIndex((r) => r.name === name);
      const oldPid = (await records())[before]!.pid;
      const logFile = (await records())[before]!.logFile;
      const logBefore = await readFile(logFile, 'utf8');
      const restarted = await run(process.execPath, [regatta, 'sandbox', 'restart', '--dir', dir, name], {
        timeout: 120_000,
      });
      const newPid = Number(restarted.stdout.trim());
      expect(newPid).not.toBe(oldPid);
      expect(alive(oldPid)).toBe(false);
      expect(alive(newPid)).toBe(true);
      expect((await records())[before]).toMatchObject({ name, pid: newPid });
      expect(await mode('pids.json')).toBe('600');
      const program = (
        JSON.parse(await readFile(join(dir, 'endpoints.json'), 'utf8')) as typeof endpoints
      ).programs.find((p) => p.name === name)!;
      expect(program.pid).toBe(newPid);
      expect((await fetch(`${program.health}/readyz`)).status).toBe(200);
      // the same log file, appended to: the first run's lines, then the new run's
      expect(program.log).toBe(logFile);
      const logAfter = await readFile(logFile, 'utf8');
      expect(logAfter.startsWith(logBefore)).toBe(true);
      expect(logAfter.length).toBeGreaterThan(logBefore.length);
    }
    // the restarted cloneset serves its webhook again
    expect(await badPartition()).toContain('spec.updateStrategy.partition');

    // a node added later gets its image pull agent (as the chart's DaemonSet gives a joining node one), ready and
    // recorded, so that `down` stops it too
    await run(process.execPath, [regatta, 'sandbox', 'node', 'add', '--dir', dir, 'node4', '--zone', 'east'], {
      timeout: 180_000,
    });
    const agent = (JSON.parse(await readFile(join(dir, 'endpoints.json'), 'utf8')) as typeof endpoints).programs.find(
      (p) => p.name === 'imagepull-agent-node4',
    );
    expect(agent).toBeDefined();
    expect((await fetch(`${agent!.health}/readyz`)).status).toBe(200);
    expect((await records()).find((r) => r.name === 'imagepull-agent-node4')?.pid).toBe(agent!.pid);
    // with a bus user of its own, as the first nodes' agents (docs/adr/0032): added to nats.conf, nats-server
    // reloaded; it reads its node's NodeImage key and is refused another node's
    const withUsers = async () =>
      (JSON.parse(await readFile(join(dir, 'endpoints.json'), 'utf8')) as {
        natsAuth: { nodeAgents?: Record<string, NodeAgentUser> };
      }).natsAuth.nodeAgents ?? {};
    const user4 = (await withUsers())['node4']!;
    expect(user4.user).toBe('regatta-node-agent-node4');
    const launches = async () =>
      JSON.parse(await readFile(join(dir, 'programs.json'), 'utf8')) as { name: string; env: Record<string, string> }[];
    expect((await launches()).find((l) => l.name === 'imagepull-agent-node4')?.env).toMatchObject({
      NATS_USER: user4.user,
      NATS_INBOX_PREFIX: user4.inboxPrefix,
    });
    const bus4 = await connectBus({
      servers: endpoints.nats,
      name: 'test-node4',
      user: user4.user,
      pass: user4.password,
      inboxPrefix: user4.inboxPrefix,
    });
    try {
      const own = new ObjectWatch(bus4, KIND_TABLE.nodeimages, undefined, 'node4', () => undefined);
      await own.start();
      // the NodeImage controller makes it 30 s after the node is Ready
      await expect.poll(() => own.object?.metadata?.name, { timeout: 90_000, interval: 1000 }).toBe('node4');
      await own.stop();
      const kv = await bus4.kvm.open(bucketName(KIND_TABLE.nodeimages), { allow_direct: true });
      await expect(kv.get('_.node1')).rejects.toThrow(/[Pp]ermission|timeout/i);
    } finally {
      await bus4.close();
    }
    // the first nodes' agents kept their connections through the reload
    for (const p of endpoints.programs.filter((p) => p.name.startsWith('imagepull-agent-node')))
      expect((await fetch(`${p.health}/readyz`)).status).toBe(200);

    // `node remove` stops the node's agent and forgets it: pid and launch records, endpoints, bus user
    await run(process.execPath, [regatta, 'sandbox', 'node', 'remove', '--dir', dir, 'node4'], { timeout: 120_000 });
    expect(alive(agent!.pid)).toBe(false);
    expect((await records()).map((r) => r.name)).not.toContain('imagepull-agent-node4');
    expect((await launches()).map((l) => l.name)).not.toContain('imagepull-agent-node4');
    expect(
      (JSON.parse(await readFile(join(dir, 'endpoints.json'), 'utf8')) as typeof endpoints).programs.map((p) => p.name),
    ).not.toContain('imagepull-agent-node4');
    expect(Object.keys(await withUsers())).toEqual(['node1', 'node2', 'node3']);
    expect(await readFile(join(dir, 'nats.conf'), 'utf8')).not.toContain('regatta-node-agent-node4');

    const unknown = (await run(process.execPath, [regatta, 'sandbox', 'restart', '--dir', dir, 'nope']).catch(
      (e: unknown) => e,
    )) as { code: number; stderr: string };
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /unknown program 'nope'; this sandbox runs: etcd, .*kube-apiserver.*watcher/,
    );

    const finalPids = (await records()).map((r) => r.pid);
    // generous limits: each stop waits for its program's graceful exit, slow when the machine is loaded
    await run(process.execPath, [regatta, 'sandbox', 'down', '--dir', dir], { timeout: 180_000 });
    expect([...pids, ...finalPids].filter(alive)).toEqual([]);
  }, 720_000); // a sandbox start, a CloneSet rollout and two restarts; slow on a loaded 2-core machine

  it('up in the foreground shows a live status view; Ctrl-C stops everything it started', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'regatta-sandbox-fg-'));
    const child = spawn(process.execPath, [
      regatta,
      'sandbox',
      'up',
      '--dir',
      dir,
      '--nodes',
      '1',
      '--real-nodes',
      '0',
      '--controllers',
      'none',
    ]);
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await expect.poll(() => screen, { timeout: 120_000, interval: 250 }).toContain('nodes  1/1 Ready');
    expect(screen).toContain(`export KUBECONFIG=${join(dir, 'kubeconfig')}`);
    const pids = (JSON.parse(await readFile(join(dir, 'pids.json'), 'utf8')) as ProcessRecord[]).map(
      (r) => r.pid,
    );
    expect(pids.every(alive)).toBe(true);

    // a program restarted from outside is stopped by Ctrl-C too (the foreground process did not start it)
    const restarted = await run(
      process.execPath,
      [regatta, 'sandbox', 'restart', '--dir', dir, 'node-simulator'],
      {
        timeout: 180_000,
      },
    );
    const newPid = Number(restarted.stdout.trim());
    expect(alive(newPid)).toBe(true);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect([...pids, newPid].filter(alive)).toEqual([]);
  }, 180_000);

  it('rejects bad flags with a usage message and a non-zero exit', async () => {
    const err = (await run(process.execPath, [regatta, 'sandbox', 'up', '--nodes', 'many']).catch(
      (e: unknown) => e,
    )) as {
      code: number;
      stderr: string;
    };
    expect(err.code).toBe(2);
    expect(err.stderr).toContain("option '--nodes <n>' argument 'many' is invalid");
  });
});
