// Benchmark 7 (issue 14): a ConfigMap distributed by a ResourceDistribution to N namespaces (Regatta's
// resourcedistribution program behind the watcher, as the sandbox runs them), then changed once. Measured: time
// until every copy is written (status succeeded = N, every copy carrying the new hash), the program's API writes
// on ConfigMaps per namespace from the API server's audit log (the goal is 1 per change), and the program's CPU and
// peak memory. Nothing here is a timed assertion.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { generateCrds, resourceHashCode, type ResourceDistribution } from '@regatta/api';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { installCrds, type LocalCluster } from '@regatta/local-cluster';
import { cpuWindow, fmt, nowMs, sleep, table } from './common.js';
import { rssSampler } from './process-memory.js';
import { benchSupervisor } from './rollout-programs.js';
import { readAudit } from './rollout-audit.js';

export interface DistributionCtx {
  cluster: LocalCluster;
  auditLog: string;
  logsDir: string;
  namespaces: number;
  log: (line: string) => void;
}

export interface DistributionPhase {
  name: string;
  seconds: number;
  /** The program's writes on ConfigMaps (create/update/patch/delete) from the phase's start to its end + 5 s. */
  writes: number;
  failedWrites: number;
  cpuPercent: number;
}

export interface DistributionResult {
  namespaces: number;
  phases: DistributionPhase[];
  peakRssBytes: number;
  restarts: number;
}

const RD = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution' } as const;
const LABEL = 'regatta-bench-distribution';
const TAIL_MS = 5000;

export async function benchDistribution(ctx: DistributionCtx): Promise<DistributionResult> {
  const { cluster, log, namespaces: n } = ctx;
  const { kubeconfig } = cluster.endpoints;
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  await installCrds(kubeconfig, generateCrds());
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'regatta-system' } });
  const supervisor = benchSupervisor({ cluster, logsDir: ctx.logsDir, log }, 'benchrd_', {
    REGATTA_SECRET_HASH_KEY: randomBytes(32).toString('base64url'),
  });
  try {
    await supervisor.start('watcher', 'watcher', '/healthz');
    const program = await supervisor.start('resourcedistribution', 'resourcedistribution', '/readyz');
    log('watcher and regatta-resourcedistribution up');

    const names = Array.from({ length: n }, (_, i) => `bench-rd-${i}`);
    for (let i = 0; i < n; i += 50) {
      await Promise.all(
        names.slice(i, i + 50).map((name) =>
          client.create({
            apiVersion: 'v1',
            kind: 'Namespace',
            metadata: { name, labels: { [LABEL]: 'yes' } },
          }),
        ),
      );
    }
    log(`${n} namespaces created`);
    await sleep(3000); // the program's namespace cache catches up

    const memory = rssSampler({ program: program.p.pid });
    const phases: DistributionPhase[] = [];
    const measure = async (name: string, write: () => Promise<ResourceDistribution>) => {
      const cpu = cpuWindow({ program: program.p.pid });
      const fromMs = Date.now();
      const t0 = nowMs();
      supervisor.phase = name;
      const rd = await write();
      const hash = resourceHashCode(rd.spec.resource);
      const timeoutMs = 30 * 60_000;
      for (;;) {
        const s = (await client.get<ResourceDistribution>({ ...RD, name: 'bench' })).status;
        if (s?.observedGeneration === rd.metadata?.generation && s?.succeeded === n) {
          const copies = await client.list<KubeObject>(
            { apiVersion: 'v1', kind: 'ConfigMap' },
            { fieldSelector: 'metadata.name=bench-config' },
          );
          const fresh = copies.items.filter(
            (c) => c.metadata?.annotations?.['kruise.io/resourcedistribution.resource.hashcode'] === hash,
          ).length;
          if (fresh === n) break;
        }
        if (nowMs() - t0 > timeoutMs)
          throw new Error(`${name}: not converged after ${timeoutMs / 60_000} min`);
        await sleep(250);
      }
      const seconds = (nowMs() - t0) / 1000;
      const toMs = Date.now() + TAIL_MS;
      await sleep(TAIL_MS);
      const usage = cpu.end();
      const records = (await readAudit(ctx.auditLog)).filter(
        (r) =>
          r.at >= fromMs &&
          r.at <= toMs &&
          r.client === 'regatta-resourcedistribution' &&
          r.resource === 'configmaps',
      );
      phases.push({
        name,
        seconds,
        writes: records.length,
        failedWrites: records.filter((r) => r.failed).length,
        cpuPercent: usage.percent['program'] ?? NaN,
      });
      log(`${name}: ${fmt(seconds)} s, ${records.length} ConfigMap writes`);
    };

    await measure('initial distribution', () =>
      client.create<ResourceDistribution>({
        ...RD,
        metadata: { name: 'bench' },
        spec: {
          resource: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'bench-config' },
            data: { v: '1' },
          },
          targets: { namespaceSelector: { matchLabels: { [LABEL]: 'yes' } } },
        },
      }),
    );
    await measure('one change', () =>
      client.patch<ResourceDistribution>(
        { ...RD, name: 'bench' },
        { spec: { resource: { data: { v: '2' } } } },
        { type: 'merge' },
      ),
    );
    return {
      namespaces: n,
      phases,
      peakRssBytes: memory.end()['program'] ?? NaN,
      restarts: supervisor.restarts.length,
    };
  } finally {
    await supervisor.stopAll();
    await client.close();
  }
}

export function reportDistribution(r: DistributionResult): string {
  return [
    `7. ResourceDistribution: a ConfigMap to ${r.namespaces} namespaces, then one change`,
    table([
      [
        'phase',
        'converged (s)',
        'ConfigMap writes',
        'writes / namespace',
        'failed writes',
        'program CPU (% of a core)',
      ],
      ...r.phases.map((p) => [
        p.name,
        fmt(p.seconds),
        p.writes,
        fmt(p.writes / r.namespaces, 2),
        p.failedWrites,
        fmt(p.cpuPercent, 0),
      ]),
    ]),
    `program peak RSS ${fmt(r.peakRssBytes / 2 ** 20, 0)} MiB; restarts ${r.restarts}; goal: 1 write per namespace per change`,
  ].join('\n');
}

export const distributionDir = (dir: string): string => join(dir, 'distribution');
