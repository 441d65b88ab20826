import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import {
  cleanupRealNodesInDir,
  LocalClusterError,
  stopClusterInDir,
  UnknownProcessError,
} from '@regatta/local-cluster';
import { UsageError } from './controllers.js';
import { serveHealth } from './health.js';
import { sandboxImagePush } from './image-command.js';
import { SandboxNodeError, sandboxNodeAdd, sandboxNodeRemove } from './node-command.js';
import { sandboxRestart } from './restart.js';
import { sandboxUp } from './sandbox.js';
import { renderStatus } from './status-view.js';
import { addRolloutCommands } from './rollout-command.js';
import { addDiffCommand } from './diff-command.js';
import { addTraceCommand } from './trace-command.js';
import { addListCommand } from './list-command.js';
import { addStatusCommand } from './status-command.js';
import { addDashboardCommand } from './dashboard-command.js';
import { completionScript, completionWords } from './completion.js';
import { cliVersion } from './version.js';
import { KubeApiError, KubeConfigError } from '@regatta/kube';
import { ROLLOUT_KINDS, RolloutCliError, formatStructured, parseOutputFormat } from '@regatta/rollout-cli';

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new InvalidArgumentError('must be a whole number from 1 to 1000');
  return n;
}

function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 8) throw new InvalidArgumentError('must be a whole number from 0 to 8');
  return n;
}

function zoneList(v: string): string[] {
  const zones = v
    .split(',')
    .map((z) => z.trim())
    .filter(Boolean);
  if (zones.length === 0) throw new InvalidArgumentError('must be a comma list of zone names');
  return zones;
}

const log = (line: string) => process.stderr.write(`[regatta] ${line}\n`);

// `regatta … | head`: the reader went away; stop quietly as other command-line tools do
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
});

const program = new Command(process.env['REGATTA_INVOKED_AS'] === 'kubectl-regatta' ? 'kubectl regatta' : 'regatta')
  .description('Regatta: OpenKruise-compatible workload controllers on a NATS bus')
  .exitOverride()
  .showHelpAfterError();

const sandbox = program
  .command('sandbox')
  .description('a local cluster made of real parts, with Regatta running in it');

sandbox
  .command('up')
  .description('start the control plane, NATS, Jaeger, simulated nodes and the Regatta controllers')
  .option(
    '--detach',
    'return once everything is ready and leave it running (stop with `sandbox down`)',
    false,
  )
  .option('--dir <dir>', 'working folder: kubeconfig, endpoints.json, logs (default: a new temporary folder)')
  .option('--nodes <n>', 'number of simulated nodes', positiveInt, 5)
  .option(
    '--real-nodes <n>',
    'nodes run by a real kubelet and containerd (default: 1 where the machine can run one; 0: none)',
    nonNegativeInt,
  )
  .option(
    '--bundles',
    'run the built bundles (dist/apps/<app>/main.mjs from `npm run build`) with plain node instead of the sources',
    false,
  )
  .option('--zones <list>', 'zones the nodes are spread over', zoneList, ['zone-a', 'zone-b', 'zone-c'])
  .option(
    '--bus-replicas <n>',
    'nats-servers of the bus: 1, or 3 for a JetStream cluster whose buckets are replicated on all three',
    positiveInt,
    1,
  )
  .addOption(
    new Option(
      '--controllers <list>',
      "controllers to run: 'all', 'none' (cluster only) or a comma list",
    ).default('all'),
  )
  .action(
    async (opts: {
      detach: boolean;
      dir?: string;
      nodes: number;
      realNodes?: number;
      zones: string[];
      controllers: string;
      bundles: boolean;
      busReplicas: number;
    }) => {
      const dir = resolve(opts.dir ?? (await mkdtemp(join(tmpdir(), 'regatta-sandbox-'))));
      const { cluster, endpoints } = await sandboxUp({ ...opts, realNodes: opts.realNodes ?? 'default', dir, log });
      if (opts.detach) {
        process.stdout.write(`${join(dir, 'endpoints.json')}\n`);
        return;
      }
      let stopping = false;
      const stop = async () => {
        if (stopping) return;
        stopping = true;
        log('stopping…');
        await cluster.stop();
        await cleanupRealNodesInDir(dir);
        process.exit(0);
      };
      process.on('SIGINT', () => void stop());
      process.on('SIGTERM', () => void stop());
      const tty = process.stdout.isTTY;
      for (;;) {
        try {
          const screen = await renderStatus(cluster, endpoints);
          process.stdout.write(tty ? `\x1b[2J\x1b[H${screen}\n` : `${screen}\n\n`);
        } catch (err) {
          if (!stopping) log(`status: ${(err as Error).message}`);
        }
        await new Promise((r) => setTimeout(r, tty ? 2000 : 30_000));
      }
    },
  );

sandbox
  .command('down')
  .description('stop everything a detached sandbox started')
  .requiredOption('--dir <dir>', 'the folder given to `sandbox up --detach`')
  .action(async (opts: { dir: string }) => {
    const stopped = await stopClusterInDir(resolve(opts.dir));
    // after the kubelets and containerds stopped: their containers, mounts, bridges, cgroups
    const left = await cleanupRealNodesInDir(resolve(opts.dir));
    log(`stopped ${stopped.length} processes${left.length ? `; could not undo: ${left.join(', ')}` : ''}`);
  });

sandbox
  .command('restart')
  .description(
    'stop one program of a sandbox and start it again with the same command line, environment and log file; ' +
      'returns once it is ready and prints its new pid',
  )
  .argument(
    '<program>',
    'its name in pids.json: watcher, cloneset, node-simulator, kube-apiserver, nats-server, …',
  )
  .requiredOption('--dir <dir>', 'the folder given to `sandbox up`')
  .option('--grace-period <seconds>', 'time to exit after SIGTERM before SIGKILL', positiveInt, 10)
  .action(async (name: string, opts: { dir: string; gracePeriod: number }) => {
    const { previous, current } = await sandboxRestart(resolve(opts.dir), name, {
      graceMs: opts.gracePeriod * 1000,
    });
    log(`${name} restarted (pid ${previous?.pid ?? 'none'} → ${current.pid}) and ready`);
    process.stdout.write(`${current.pid}\n`);
  });

const collect = (v: string, prev: string[]) => [...prev, v];

const nodeCommand = sandbox
  .command('node')
  .description(
    'add or remove simulated nodes of a running sandbox (kubectl create/delete node, label, taint, cordon work too)',
  );

nodeCommand
  .command('add')
  .description(
    'create a Node that the sandbox\'s node simulator runs (heartbeats, Ready, pods bound to it); waits until Ready. ' +
      'Labels, taints and cordon set later with kubectl are kept. ' +
      '`kubectl annotate node <name> sim.regatta.dev/not-ready=true` makes any simulated node NotReady (remove it to recover).',
  )
  .argument('<name>', 'the node name')
  .requiredOption('--dir <dir>', 'the folder given to `sandbox up`')
  .option('--zone <zone>', 'label topology.kubernetes.io/zone (default: round-robin over the sandbox zones)')
  .option('--label <key=value>', 'a label (repeatable)', collect, [])
  .option('--taint <key[=value]:Effect>', 'a taint, kubectl syntax (repeatable)', collect, [])
  .option('--capacity <list>', 'reported capacity, e.g. cpu=4,memory=16Gi,pods=50 (default cpu=8,memory=32Gi,pods=110)')
  .option('--no-wait', 'return once the Node is created')
  .action(
    async (
      name: string,
      opts: { dir: string; zone?: string; label: string[]; taint: string[]; capacity?: string; wait: boolean },
    ) => {
      await sandboxNodeAdd(name, { ...opts, dir: resolve(opts.dir) }, log);
    },
  );

nodeCommand
  .command('remove')
  .description('delete a Node (as kubectl delete node): the simulator stops running it, its image pull agent is stopped; its pods are left to pod GC')
  .argument('<name>', 'the node name')
  .requiredOption('--dir <dir>', 'the folder given to `sandbox up`')
  .action(async (name: string, opts: { dir: string }) => {
    await sandboxNodeRemove(name, resolve(opts.dir), log);
  });

sandbox
  .command('image')
  .description("images in the sandbox's registry, where its real nodes pull from (docs/real-nodes.md)")
  .command('push')
  .description('push a docker-style tarball or an OCI image layout folder as NAME:TAG (pods name it so); prints the digest reference')
  .argument('<source>', 'a tarball (docker save, crane pull) or an OCI image layout folder')
  .argument('<image>', 'the name pods use, e.g. myapp:v1 or registry.k8s.io/x:y')
  .requiredOption('--dir <dir>', 'the folder given to `sandbox up`')
  .action(async (source: string, image: string, opts: { dir: string }) => {
    process.stdout.write(`${await sandboxImagePush(resolve(opts.dir), resolve(source), image)}\n`);
  });

program
  .command('node-simulator', { hidden: true })
  .description('run simulated nodes (kubelets) against a cluster until stopped')
  .requiredOption('--kubeconfig <path>')
  .option('--nodes <n>', 'number of nodes', positiveInt, 5)
  .option('--zones <list>', 'zones', zoneList, ['zone-a', 'zone-b', 'zone-c'])
  .option('--cri-socket-dir <dir>', "serve each node's CRI ImageService on <dir>/<node>.sock")
  .action(async (opts: { kubeconfig: string; nodes: number; zones: string[]; criSocketDir?: string }) => {
    const { NodeSimulator } = await import('@regatta/node-simulator');
    const sim = await NodeSimulator.start({
      kubeconfig: opts.kubeconfig,
      nodes: opts.nodes,
      zones: opts.zones,
      ...(opts.criSocketDir ? { criSocketDir: opts.criSocketDir } : {}),
      // Nodes made with kubectl or `sandbox node add` are run too
      adoptNodes: true,
      log,
    });
    // the sandbox (and `sandbox restart`) knows it is up when this answers
    const health = await serveHealth(process.env['REGATTA_HEALTH_ADDR']);
    const stop = async () => {
      health?.close();
      await sim.stop();
      process.exit(0);
    };
    process.on('SIGINT', () => void stop());
    process.on('SIGTERM', () => void stop());
  });

addRolloutCommands(program);
addListCommand(program);
addStatusCommand(program);
addDiffCommand(program);
addTraceCommand(program);
addDashboardCommand(program);

program
  .command('version')
  .description("print the CLI's version (a released CLI's, or the source checkout's package version)")
  .option('-o, --output <format>', 'json or yaml instead of the line')
  .action((opts: { output?: string }) => {
    const output = parseOutputFormat(opts.output);
    const v = cliVersion();
    process.stdout.write(
      output === 'table' ? `regatta ${v.version} (node ${v.node}, ${v.platform})\n` : formatStructured(output, v),
    );
  });

program
  .command('completion')
  .description(
    'print a shell completion script: `source <(regatta completion bash)`, or in zsh `source <(regatta completion zsh)`',
  )
  .argument('<shell>', 'bash or zsh')
  .action((shell: string) => {
    if (shell !== 'bash' && shell !== 'zsh') throw new UsageError(`completion: shell must be bash or zsh, got ${JSON.stringify(shell)}`);
    const words = completionWords(program, ROLLOUT_KINDS.map((k) => k.names[0]!));
    process.stdout.write(completionScript(shell, words));
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else if (err instanceof RolloutCliError) {
    process.stderr.write(`regatta: ${err.message}\n`);
    process.exitCode = err.exitCode;
  } else if (err instanceof KubeConfigError || err instanceof KubeApiError) {
    process.stderr.write(`regatta: ${err.message}\n`);
    process.exitCode = 1;
  } else if (err instanceof UsageError || err instanceof UnknownProcessError) {
    process.stderr.write(`regatta: ${err.message}\n`);
    process.exitCode = 2;
  } else if (err instanceof LocalClusterError || err instanceof SandboxNodeError) {
    process.stderr.write(`regatta: ${err.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`regatta: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}
