import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { readPidRecords, type LocalCluster } from '@regatta/local-cluster';
import type { SandboxEndpoints } from './sandbox.js';
import { dashboardHint } from './dashboard-command.js';

/** One screen of the foreground sandbox: components, nodes and pods, refreshed every few seconds. */
export async function renderStatus(cluster: LocalCluster, e: SandboxEndpoints): Promise<string> {
  const kc = new KubeConfig();
  kc.loadFromFile(e.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const [nodes, pods, records] = await Promise.all([
    core.listNode(),
    core.listPodForAllNamespaces(),
    // the pid file, not the start-time list: `sandbox restart` replaces a pid there
    readPidRecords(cluster.dir).catch(() => cluster.processRecords),
  ]);
  const ready = nodes.items.filter((n) =>
    n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  );
  const phases = new Map<string, number>();
  for (const p of pods.items) {
    const phase = p.metadata?.deletionTimestamp ? 'Terminating' : (p.status?.phase ?? 'Unknown');
    phases.set(phase, (phases.get(phase) ?? 0) + 1);
  }
  const lines = [
    `Regatta sandbox — ${new Date().toLocaleTimeString()}   (Ctrl-C stops everything)`,
    '',
    `  export KUBECONFIG=${e.kubeconfig}`,
    `  API server   ${e.apiserver}`,
    ...(e.nats ? [`  NATS         ${e.nats}`] : []),
    ...(e.jaeger ? [`  Jaeger API   ${e.jaeger.query}   OTLP ${e.jaeger.otlpHttp}`] : []),
    `  Dashboard    ${dashboardHint(e.kubeconfig, e.jaeger?.query)}`,
    '',
    `  nodes  ${ready.length}/${nodes.items.length} Ready`,
    `  pods   ${pods.items.length}${phases.size ? '  (' + [...phases].map(([k, v]) => `${k} ${v}`).join(', ') + ')' : ''}`,
    '',
    '  PROCESS                     PID',
    ...records.map((r) => `  ${r.name.padEnd(26)}  ${r.pid}`),
  ];
  return lines.join('\n');
}
