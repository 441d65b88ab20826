/** `regatta dashboard` (also `kubectl regatta dashboard`): wiring only, the server is @regatta/dashboard. */
import { Command } from 'commander';
import {
  DEFAULT_DASHBOARD_PORT,
  DashboardUsageError,
  dashboardUrl,
  listenAddress,
  listenPort,
  startDashboard,
} from '@regatta/dashboard';
import { jaegerQueryBase } from '@regatta/rollout-cli';
import { contextFor, type TargetOptions } from './rollout-command.js';

/** The command and page a sandbox prints: its kubeconfig, every namespace, its Jaeger. */
export function dashboardHint(kubeconfig: string, jaegerQuery: string | undefined): string {
  const jaeger = jaegerQuery ? ` --jaeger ${jaegerQuery}` : '';
  return `regatta dashboard --kubeconfig ${kubeconfig} -A${jaeger}   (then open ${dashboardUrl('127.0.0.1', DEFAULT_DASHBOARD_PORT)})`;
}

export function addDashboardCommand(program: Command): void {
  program
    .command('dashboard')
    .summary('a local web page: every Regatta workload and its rollout, live; rollout traces; pause and resume')
    .description(
      'serve a web page on this machine (loopback only) showing every Regatta workload with its rollout state, ' +
        'refreshed every --refresh; select one for its summary, its pods by revision and its latest rollout trace ' +
        'as a waterfall read from Jaeger (holds and per-pod spans). Pause and Resume change the kind\'s pause ' +
        "switch with your kubeconfig's rights, as `regatta rollout pause|resume`; what the API server refuses is " +
        'shown on the page. Prints the address and serves until Ctrl-C',
    )
    .option('--port <n>', `port to listen on (0: any free port)`, String(DEFAULT_DASHBOARD_PORT))
    .option('--address <ip>', 'loopback address to listen on (127.0.0.1, ::1 or localhost)', '127.0.0.1')
    .option('-A, --all-namespaces', 'every namespace', false)
    .option('-n, --namespace <ns>', "the namespace (default: the kubeconfig context's, else default)")
    .option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--context <name>', "kubeconfig context (default: the kubeconfig's current context)")
    .option('--jaeger <url>', "Jaeger's query address for the rollout traces (default: $JAEGER_URL; none: no waterfall)")
    .option('--refresh <seconds>', 'how often the page asks again', '2')
    .action(
      async (
        opts: TargetOptions & {
          port: string;
          address: string;
          allNamespaces: boolean;
          jaeger?: string;
          refresh: string;
        },
      ) => {
        // usage first: no cluster call with a bad flag
        const address = listenAddress(opts.address);
        const port = listenPort(opts.port);
        const jaegerUrl = opts.jaeger ?? process.env['JAEGER_URL'];
        const jaeger = jaegerUrl ? jaegerQueryBase(jaegerUrl) : undefined;
        const refresh = Number(opts.refresh);
        if (!(refresh >= 0.5 && refresh <= 600)) {
          throw new DashboardUsageError(`--refresh must be 0.5 to 600 seconds, got ${JSON.stringify(opts.refresh)}`);
        }
        const ctx = contextFor(opts);
        const dashboard = await startDashboard({
          source: { ctx, allNamespaces: opts.allNamespaces, jaeger },
          address,
          port,
          context: ctx.client.kubeConfig.getCurrentContext(),
          refreshMs: refresh * 1000,
          log: (line) => process.stderr.write(`[dashboard] ${line}\n`),
        });
        process.stdout.write(`Regatta dashboard on ${dashboard.url} (Ctrl-C to stop)\n`);
        const stop = async () => {
          await dashboard.close();
          await ctx.close();
          process.exit(0);
        };
        process.on('SIGINT', () => void stop());
        process.on('SIGTERM', () => void stop());
      },
    );
}
