/** `regatta status KIND/NAME` (also `kubectl regatta status`): wiring only, the logic is @regatta/rollout-cli. */
import { Command } from 'commander';
import { JOB_KINDS, jobStatus, parseDuration, parseJobTarget, parseOutputFormat } from '@regatta/rollout-cli';
import { run, withOutputOption, type TargetOptions } from './rollout-command.js';

const KINDS_HELP = `KIND is one of: ${JOB_KINDS.map((k) => `${k.names.join('|')} (${k.title})`).join('; ')}`;

export function addStatusCommand(program: Command): void {
  withOutputOption(
    program
      .command('status')
      .summary('the state of a BroadcastJob, ContainerRecreateRequest or AdvancedCronJob')
      .description(
        'print what a BroadcastJob (pods succeeded, active, failed; how long), a ContainerRecreateRequest (each ' +
          "container's recreation) or an AdvancedCronJob (schedule, last run, active jobs) is doing; exit 0 when " +
          'it ended well (an AdvancedCronJob: always), 1 when it failed or has not ended yet (with --watch: wait ' +
          'for its end; exit 1 when it failed or on timeout)',
      )
      .argument('<KIND/NAME>', 'e.g. bcj/security-patch, crr/crr-demo')
      .option('-n, --namespace <ns>', "the namespace (default: the kubeconfig context's, else default)")
      .option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
      .option('--context <name>', "kubeconfig context (default: the kubeconfig's current context)")
      .option('-w, --watch', 'print each change until it ends (not for an AdvancedCronJob)', false)
      .option('--timeout <duration>', 'with --watch, give up after this long (e.g. 90s, 5m; 0: never)', '10m')
      .option('--interval <duration>', 'with --watch, how often to look again (e.g. 500ms, 2s)', '2s')
      .addHelpText('after', `\n${KINDS_HELP}`),
  ).action(
    async (
      arg: string,
      opts: TargetOptions & { watch: boolean; timeout: string; interval: string; output?: string },
    ) => {
      const target = parseJobTarget(arg);
      const output = parseOutputFormat(opts.output);
      const ok = await run(opts, (ctx) =>
        jobStatus(ctx, target, {
          watch: opts.watch,
          timeoutMs: parseDuration(opts.timeout),
          intervalMs: Math.max(100, parseDuration(opts.interval)),
          output,
        }),
      );
      if (!ok) process.exitCode = 1;
    },
  );
}
