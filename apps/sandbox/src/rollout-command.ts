/** `regatta rollout …` (also `kubectl regatta rollout …`): wiring only, the logic is @regatta/rollout-cli. */
import { Command } from 'commander';
import { KubeClient, loadKubectlConfig } from '@regatta/kube';
import {
  ROLLOUT_KINDS,
  parseDuration,
  parseOutputFormat,
  parseTarget,
  rolloutHistory,
  rolloutRestart,
  rolloutSetPaused,
  rolloutStatus,
  rolloutUndo,
  RolloutUsageError,
  type RolloutContext,
} from '@regatta/rollout-cli';

export interface TargetOptions {
  namespace?: string;
  kubeconfig?: string;
  context?: string;
}

const KINDS_HELP = `KIND is one of: ${ROLLOUT_KINDS.map((k) => `${k.names.join('|')} (${k.title})`).join('; ')}`;

/** The client and namespace of kubectl's flags and rules: --kubeconfig, KUBECONFIG, ~/.kube/config; --context. */
export function contextFor(opts: TargetOptions): RolloutContext & { close: () => Promise<void> } {
  const client = new KubeClient(loadKubectlConfig(opts), { userAgent: 'regatta-cli' });
  const kc = client.kubeConfig;
  const namespace = opts.namespace ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';
  return { client, namespace, out: (t) => process.stdout.write(t), close: () => client.close() };
}

/** kubectl's `-o, --output`: json or yaml instead of the table or summary. */
export function withOutputOption(cmd: Command): Command {
  return cmd.option('-o, --output <format>', 'json or yaml instead of the table (as kubectl -o)');
}

export function withTargetOptions(cmd: Command): Command {
  return cmd
    .argument('<KIND/NAME>', 'the workload, e.g. clone/web')
    .option(
      '-n, --namespace <ns>',
      "the workload's namespace (default: the kubeconfig context's, else default; a SidecarSet has none)",
    )
    .option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--context <name>', "kubeconfig context (default: the kubeconfig's current context)")
    .addHelpText('after', `\n${KINDS_HELP}`);
}

export async function run<T>(opts: TargetOptions, body: (ctx: RolloutContext) => Promise<T>): Promise<T> {
  const ctx = contextFor(opts);
  try {
    return await body(ctx);
  } finally {
    await ctx.close();
  }
}

export function addRolloutCommands(program: Command): void {
  const rollout = program
    .command('rollout')
    .summary('status | pause | resume | restart | history | undo of a workload rollout')
    .description(
      'follow and steer the rollout of a CloneSet, Advanced StatefulSet, Advanced DaemonSet, UnitedDeployment or SidecarSet',
    );

  withOutputOption(withTargetOptions(
    rollout
      .command('status')
      .description(
        'print the rollout summary; exit 0 when it is complete, 1 when not (with --watch: wait for it; exit 1 when ' +
          'the controller reports it stuck — a progress deadline exceeded, a failed scale or update — or on timeout)',
      ),
  ))
    .option(
      '-w, --watch',
      'follow the rollout live until it is complete: the summary and, under it, the pods by revision (update ' +
        'revision first; per pod status, ready containers, restarts, in place or recreated by this rollout, lifecycle ' +
        'state, node, age; ◦ not yet updated, ‖ kept by the partition). SidecarSet: matched pods by sidecar hash; ' +
        'UnitedDeployment: pods by subset; Advanced DaemonSet: one row per node. On a terminal the view is redrawn ' +
        'in place every interval; otherwise a new frame is printed when something changed',
      false,
    )
    .option('--timeout <duration>', 'with --watch, give up after this long (e.g. 90s, 5m; 0: never)', '10m')
    .option('--interval <duration>', 'with --watch, how often to look again (e.g. 500ms, 2s)', '2s')
    .option('--no-pods', 'with --watch, the summary only (no pod list: no LIST of pods per refresh)')
    .option(
      '--max-pods <n>',
      'with --watch, pod rows per revision (subset, sidecar hash); the rest are counted',
      '20',
    )
    .option(
      '--jaeger <url>',
      "Jaeger query address for the trace link; with --watch the rollout's last 3 pod updates are read from it " +
        '(as `regatta trace` shows them) (default: $JAEGER_URL)',
    )
    .action(
      async (
        arg: string,
        opts: TargetOptions & {
          watch: boolean;
          timeout: string;
          interval: string;
          pods: boolean;
          maxPods: string;
          jaeger?: string;
          output?: string;
        },
      ) => {
        const target = parseTarget(arg);
        const output = parseOutputFormat(opts.output);
        const timeoutMs = parseDuration(opts.timeout);
        const intervalMs = parseDuration(opts.interval);
        if (intervalMs < 100)
          throw new RolloutUsageError(
            `--interval must be at least 100ms, got ${JSON.stringify(opts.interval)}`,
          );
        const maxPods = Number(opts.maxPods);
        if (!/^\d+$/.test(opts.maxPods) || !Number.isSafeInteger(maxPods)) {
          throw new RolloutUsageError(
            `--max-pods must be a whole number ≥ 0, got ${JSON.stringify(opts.maxPods)}`,
          );
        }
        const stdout = process.stdout;
        const complete = await run(opts, (ctx) =>
          rolloutStatus(ctx, target, {
            watch: opts.watch,
            timeoutMs,
            intervalMs,
            pods: opts.pods,
            podsPerGroup: maxPods,
            jaeger: opts.jaeger ?? process.env['JAEGER_URL'],
            output,
            terminal: () =>
              stdout.isTTY ? { columns: stdout.columns || 80, rows: stdout.rows || 24 } : undefined,
          }),
        );
        if (!complete) process.exitCode = 1;
      },
    );

  for (const [name, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    withTargetOptions(
      rollout
        .command(name)
        .description(
          paused
            ? "stop updating pods (scaling still happens): sets the kind's updateStrategy paused to true"
            : "continue a paused rollout: sets the kind's updateStrategy paused to false",
        ),
    ).action(async (arg: string, opts: TargetOptions) => {
      const target = parseTarget(arg);
      await run(opts, (ctx) => rolloutSetPaused(ctx, target, paused));
    });
  }

  withOutputOption(withTargetOptions(
    rollout
      .command('history')
      .description(
        'list the ControllerRevisions the workload owns (revision, hash, age), marking current and update ' +
          "(a SidecarSet's live in the SidecarSet controller's namespace)",
      ),
  )).action(async (arg: string, opts: TargetOptions & { output?: string }) => {
    const target = parseTarget(arg);
    const output = parseOutputFormat(opts.output);
    await run(opts, (ctx) => rolloutHistory(ctx, target, output));
  });

  withTargetOptions(
    rollout
      .command('restart')
      .description(
        'replace every pod, as kubectl-kruise does: stamp kubectl.kubernetes.io/restartedAt on the pod template ' +
          '(a new revision, rolled out under the update strategy; in place where the strategy allows). CloneSet, ' +
          'Advanced StatefulSet and Advanced DaemonSet; refused while paused',
      ),
  ).action(async (arg: string, opts: TargetOptions) => {
    const target = parseTarget(arg);
    await run(opts, (ctx) => rolloutRestart(ctx, target));
  });

  withTargetOptions(
    rollout
      .command('undo')
      .description(
        'roll back: put the pod template of an earlier revision (see `rollout history`) back into spec.template; ' +
          'the controller then rolls the pods out as for any template change. Exit 1 when the revision does not ' +
          'exist; when the template already matches it, says "skipped rollback" and exits 0 (as kubectl). ' +
          'Not for SidecarSet (its revisions hold no template)',
      ),
  )
    .option('--to-revision <n>', 'the revision number to go back to (default 0: the one before the newest)')
    .action(async (arg: string, opts: TargetOptions & { toRevision?: string }) => {
      const target = parseTarget(arg);
      const text = opts.toRevision ?? '0';
      const to = Number(text);
      if (!/^\d+$/.test(text) || !Number.isSafeInteger(to)) {
        throw new RolloutUsageError(
          `--to-revision must be a whole number ≥ 0, got ${JSON.stringify(opts.toRevision)}`,
        );
      }
      await run(opts, (ctx) => rolloutUndo(ctx, target, to));
    });
}
