/** `regatta trace KIND/NAME` (also `kubectl regatta trace`): wiring only, the logic is @regatta/rollout-cli. */
import { Command, InvalidArgumentError } from 'commander';
import { jaegerQueryBase, parseTarget, rolloutTrace } from '@regatta/rollout-cli';
import { run, withTargetOptions, type TargetOptions } from './rollout-command.js';

function barWidth(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 10 || n > 500)
    throw new InvalidArgumentError('must be a whole number from 10 to 500');
  return n;
}

export function addTraceCommand(program: Command): void {
  withTargetOptions(
    program
      .command('trace')
      .summary("a workload's rollout trace as a terminal waterfall, read from Jaeger")
      .description(
        'print the latest rollout trace of a workload (the trace id in its regatta.dev/rollout-trace annotation) as ' +
          "Jaeger's query API holds it: one line per span by start, the rollout first, with its start offset, " +
          'duration, pod or subset, in place / recreate, holds (pause, partition) and lifecycle-hook waits, and a bar ' +
          "on the rollout's time scale; then the totals. Exit 1 when the workload has no trace (its rollout has not " +
          'begun, or its controller runs without tracing), Jaeger cannot be reached or has no such trace yet; 2 for ' +
          'usage',
      ),
  )
    .option('--jaeger <url>', "Jaeger's query address, e.g. http://127.0.0.1:16686 (default: $JAEGER_URL)")
    .option('--width <n>', 'columns of the waterfall bars (10 to 500)', barWidth, 40)
    .addHelpText(
      'after',
      '\nBars: ━ the rollout (> still running), █ a pod update or subset write, ░ a hold, ▒ a lifecycle-hook wait.\n' +
        "The sandbox's Jaeger query address is `jaeger.query` in its endpoints.json.",
    )
    .action(async (arg: string, opts: TargetOptions & { jaeger?: string; width: number }) => {
      const target = parseTarget(arg);
      // usage first: no cluster call without a Jaeger address
      const jaeger = jaegerQueryBase(opts.jaeger ?? process.env['JAEGER_URL']);
      await run(opts, (ctx) => rolloutTrace(ctx, target, { jaeger, width: opts.width }));
    });
}
