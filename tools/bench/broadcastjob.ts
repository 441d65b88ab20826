// Benchmark 11: a BroadcastJob over N simulated nodes with parallelism P, each pod's container running a fixed
// t (`sleep`, understood by the node simulator). The bound is ceil(N/P)·t: P nodes at a time, each busy t. Measured:
// from the job's create to `status.phase: completed` (polled every 100 ms), the pods created (one per node, exactly)
// and the most pods active at once (never above P). Own control plane with kube-scheduler (the pods are bound by
// node affinity), the watcher and the broadcastjob program from their bundles, the simulator in this process.
import { generateCrds, type BroadcastJob, type Pod } from '@regatta/api';
import { KubeClient } from '@regatta/kube';
import { installCrds, type LocalCluster } from '@regatta/local-cluster';
import { NodeSimulator } from '@regatta/node-simulator';
import { fmt, nowMs, sleep, table } from './common.js';
import { benchSupervisor } from './rollout-programs.js';

export interface BroadcastJobCtx {
  cluster: LocalCluster;
  logsDir: string;
  nodes: number;
  parallelism: number;
  runMs: number;
  log: (line: string) => void;
}

export interface BroadcastJobResult {
  nodes: number;
  parallelism: number;
  runMs: number;
  boundS: number;
  seconds: number;
  pods: number;
  maxActive: number;
  restarts: number;
}

const BJ = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob' } as const;
const NS = 'bench-bj';

export async function benchBroadcastJob(ctx: BroadcastJobCtx): Promise<BroadcastJobResult> {
  const { cluster, log, nodes: n, parallelism: p, runMs } = ctx;
  const { kubeconfig } = cluster.endpoints;
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  await installCrds(kubeconfig, generateCrds());
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'regatta-system' } });
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const sim = await NodeSimulator.start({
    kubeconfig,
    nodes: n,
    namePrefix: 'bench-node-',
    capacity: { cpu: '64', memory: '256Gi', pods: '110' },
    events: false,
    storageClass: '',
    log: () => undefined,
  });
  const supervisor = benchSupervisor({ cluster, logsDir: ctx.logsDir, log }, 'benchbj_');
  try {
    await supervisor.start('watcher', 'watcher', '/healthz');
    await supervisor.start('broadcastjob', 'broadcastjob', '/readyz');
    log(`watcher and regatta-broadcastjob up, ${sim.nodeNames.length} simulated nodes`);
    // every node Ready (its not-ready taint gone) before the job starts
    for (;;) {
      const list = await client.list<{ spec?: { taints?: unknown[] } } & Pod>({ apiVersion: 'v1', kind: 'Node' });
      if (list.items.length === n && list.items.every((x) => (x.spec?.taints ?? []).length === 0)) break;
      await sleep(250);
    }
    await sleep(2000); // the program's node cache catches up
    const t0 = nowMs();
    await client.create<BroadcastJob>({
      ...BJ,
      metadata: { name: 'bench', namespace: NS },
      spec: {
        parallelism: p,
        completionPolicy: { type: 'Always' },
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'work', image: 'busybox:1.36', command: ['sleep', String(runMs / 1000)] }],
          },
        },
      },
    });
    let maxActive = 0;
    for (;;) {
      const job = await client.get<BroadcastJob>({ ...BJ, namespace: NS, name: 'bench' });
      maxActive = Math.max(maxActive, job.status?.active ?? 0);
      if (job.status?.phase === 'completed') break;
      if (job.status?.phase === 'failed') throw new Error('the benchmark job failed');
      if (nowMs() - t0 > 10 * 60_000) throw new Error(`not completed after 10 min: ${JSON.stringify(job.status)}`);
      await sleep(100);
    }
    const seconds = (nowMs() - t0) / 1000;
    const pods = (await client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: NS })).items.length;
    const boundS = (Math.ceil(n / p) * runMs) / 1000;
    log(`BroadcastJob over ${n} nodes, parallelism ${p}: ${fmt(seconds)} s (bound ${fmt(boundS)} s)`);
    return { nodes: n, parallelism: p, runMs, boundS, seconds, pods, maxActive, restarts: supervisor.restarts.length };
  } finally {
    await supervisor.stopAll();
    await sim.stop();
    await client.close();
  }
}

export function reportBroadcastJob(r: BroadcastJobResult): string {
  return [
    `## 11. BroadcastJob over ${r.nodes} simulated nodes, parallelism ${r.parallelism}, t = ${fmt(r.runMs / 1000)} s per pod`,
    '',
    table([
      ['', 'seconds', 'bound ceil(N/P)·t', 'ratio', 'pods created', 'most active (status)', 'restarts'],
      [
        'regatta-broadcastjob',
        fmt(r.seconds),
        fmt(r.boundS),
        `${(r.seconds / r.boundS).toFixed(2)}x`,
        r.pods,
        r.maxActive,
        r.restarts,
      ],
    ]),
  ].join('\n');
}
