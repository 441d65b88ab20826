/** `regatta list [-A]` (also `kubectl regatta list`): wiring only, the logic is @regatta/rollout-cli. */
import { Command } from 'commander';
import { listWorkloads, parseOutputFormat } from '@regatta/rollout-cli';
import { run, withOutputOption, type TargetOptions } from './rollout-command.js';

export function addListCommand(program: Command): void {
  withOutputOption(
    program
      .command('list')
      .summary('every Regatta workload with its rollout state')
      .description(
        'list the CloneSets, Advanced StatefulSets, Advanced DaemonSets, UnitedDeployments (of the namespace, or ' +
          'of every namespace with -A) and SidecarSets, one row each: KIND/NAME as `rollout` takes it, desired, ' +
          'updated, ready and available pods, the rollout (Progressing, Paused, Completed, Degraded) and age. Kinds ' +
          'whose CRD the cluster does not serve are left out',
      )
      .option('-A, --all-namespaces', 'every namespace', false)
      .option('-n, --namespace <ns>', "the namespace (default: the kubeconfig context's, else default)")
      .option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
      .option('--context <name>', "kubeconfig context (default: the kubeconfig's current context)"),
  ).action(async (opts: TargetOptions & { allNamespaces: boolean; output?: string }) => {
    const output = parseOutputFormat(opts.output);
    await run(opts, (ctx) => listWorkloads(ctx, { allNamespaces: opts.allNamespaces, output }));
  });
}
