// Benchmark 8b (issue 12): a cold in-place sidecar image upgrade over N pods. On a cluster of its own (+
// kube-controller-manager, kube-scheduler, an audit log), the node simulator in a child process, the watcher and the
// sidecarset program serving its webhooks as the sandbox runs them: a SidecarSet (one ColdUpgrade sidecar, injected
// before the app container, updateStrategy maxUnavailable 10 %) selecting the pods of a native Deployment of N
// pods, injected by the pod webhook at creation. Then the sidecar image is patched (through the SidecarSet webhook,
// which recomputes the hashes, as `kubectl set image` would) and followed until the status says all N matched pods
// are updated and ready. Bound: ceil(N/batch)·t, t the simulator's time for a container restarted in place to be
// ready (rollout-config.ts). Writes: the program's, from the audit log (rollout-audit.ts). The measured part is the
// rollout benchmarks' own (rollout-measure.ts).
import { join } from 'node:path';
import { generateCrds, type Pod } from '@regatta/api';
import { KubeClient, ListWatcher, type KubeObject, type WatchedResource } from '@regatta/kube';
import { installCrds } from '@regatta/local-cluster';
import { Child, fmt, nowMs, sleep, table } from './common.js';
import { readAudit, tally, type WriteTally } from './rollout-audit.js';
import {
  IMAGE_NEW,
  IMAGE_OLD,
  MAX_PODS_PER_NODE,
  MAX_UNAVAILABLE,
  TAIL_MS,
  batchOf,
  rolloutBoundS,
  type Ctx,
  type PhaseResult,
  type Restart,
} from './rollout-config.js';
import { measurePhase, rssNow } from './rollout-measure.js';
import { CONTROL_PLANE, CONTROLLERS, clusterPids } from './process-memory.js';
import { benchSupervisor } from './rollout-programs.js';
import { Follower, PODS, PodTracker } from './rollout-watch.js';
import { describeSidecarSet, sidecarSetDone } from './sidecarset-figures.js';

export const SIDECARSETS: WatchedResource = {
  group: 'apps.kruise.io',
  version: 'v1beta1',
  kind: 'SidecarSet',
  plural: 'sidecarsets',
};

export interface ScsUpgradeResult {
  title: string;
  replicas: number;
  restartMs: number;
  nodes: number;
  phase: PhaseResult;
  /** Pods of the Deployment created → the SidecarSet's status says all N injected and ready, s. */
  injectedReadyS: number;
  /** client → tally over the rollout's window. */
  writes: Map<string, WriteTally>;
  restarts: Restart[];
}

const NS = 'bench-scs-upgrade';
const PROGRAM = 'regatta-sidecarset';
const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;
/** The sidecar is the pods' first container (BeforeAppContainer), which is the one PodTracker follows. */
const imagePatch = [{ op: 'replace', path: '/spec/containers/0/image', value: IMAGE_NEW }];

export async function benchSidecarSetUpgrade(ctx: Ctx): Promise<ScsUpgradeResult> {
  const { cluster, log, replicas: n, restartMs: t } = ctx;
  const { kubeconfig } = cluster.endpoints;
  const batch = batchOf(MAX_UNAVAILABLE, n, true); // percentages of matched pods round up (libs/sidecarset)
  const boundS = rolloutBoundS(n, batch, t);
  const nodes = Math.max(3, Math.ceil((2 * n) / MAX_PODS_PER_NODE));
  const timeoutS = Math.round(4 * boundS + 120);
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  await installCrds(kubeconfig, generateCrds());
  for (const name of ['regatta-system', NS])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  const sim = Child.start('node simulator', './rollout-simulator.ts');
  const supervisor = benchSupervisor({ cluster, logsDir: ctx.logsDir, log }, 'benchscsu_', {
    REGATTA_SIDECARSET_REVISION_NAMESPACE: 'regatta-system',
  });
  let podWatch: ListWatcher<Pod> | undefined;
  let follower: Follower<KubeObject> | undefined;
  let released: Promise<void> | undefined;
  const release = () =>
    (released ??= (async () => {
      supervisor.release();
      await follower?.stop();
      await podWatch?.stop();
      await sim.call('stop').catch(() => undefined);
      await sim.stop();
      await supervisor.stopAll();
      await client.close();
    })());
  try {
    await sim.call('start', {
      kubeconfig,
      nodes,
      maxPods: MAX_PODS_PER_NODE,
      timings: { podStartMs: t, containerRestartMs: t, imagePullMs: 0 },
      logFile: join(ctx.logsDir, 'node-simulator.log'),
    });
    log(
      `node simulator: ${nodes} nodes × ${MAX_PODS_PER_NODE} pods; t = ${t} ms (pod start and in-place restart)`,
    );
    const watcher = await supervisor.start('watcher', 'watcher', '/healthz');
    const program = await supervisor.start('sidecarset', 'sidecarset', '/readyz', { webhook: true });
    log(`watcher and ${PROGRAM} up (webhooks served and registered)`);

    const set = await client.create<KubeObject & { spec: unknown }>({
      ...SCS,
      metadata: { name: 'bench-upgrade' },
      spec: {
        selector: { matchLabels: { app: 'bench-scs' } },
        containers: [
          {
            name: 'sidecar',
            image: IMAGE_OLD,
            podInjectPolicy: 'BeforeAppContainer',
            upgradeStrategy: { upgradeType: 'ColdUpgrade' },
          },
        ],
        updateStrategy: { type: 'RollingUpdate', maxUnavailable: MAX_UNAVAILABLE, partition: 0 },
      },
    });
    const gen0 = set.metadata?.generation ?? 1;
    follower = new Follower<KubeObject>(client, SIDECARSETS, '', 'bench-upgrade');
    // observed = its pod webhook entry is applied (docs/adr/0037-…): pods created from now on get the sidecar
    const observed = (o: KubeObject) =>
      ((o as KubeObject & { status?: { observedGeneration?: number } }).status?.observedGeneration ?? 0) >=
      gen0;
    if ((await follower.until(observed, 120_000)) === undefined)
      throw new Error(`the SidecarSet was not observed in 2 min: ${describeSidecarSet(follower.latest)}`);

    const tracker = new PodTracker(NS, n);
    podWatch = new ListWatcher<Pod>(client, PODS, {
      onList: async (pods) => tracker.reset(pods),
      onUpsert: async (p) => tracker.upsert(p),
      onDelete: async (p) => tracker.remove(p),
    });
    podWatch.start();

    // read again before the rollout: a program restarted during the setup has a new pid
    const pids = (): Record<string, number> => ({
      [PROGRAM]: program.p.pid,
      watcher: watcher.p.pid,
      ...clusterPids(cluster, [...CONTROL_PLANE, ...CONTROLLERS]),
      'node simulator': sim.pid,
      'bench orchestrator': process.pid,
    });
    const idle = rssNow(pids());
    supervisor.phase = 'setup';
    const s0 = nowMs();
    await client.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'bench', namespace: NS },
      spec: {
        replicas: n,
        selector: { matchLabels: { app: 'bench-scs' } },
        template: {
          metadata: { labels: { app: 'bench-scs' } },
          spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '999d'] }] },
        },
      },
    });
    let ok: number | undefined;
    for (let waited = 0; ok === undefined && waited < 600; waited += 20) {
      ok = await follower.until((o) => sidecarSetDone(n)(o, gen0), 20_000);
      if (ok !== undefined || tracker.count >= n) continue;
      // creates refused while the webhook was away (a program restart) leave the ReplicaSet backing off for up to
      // 1000 s (client-go's workqueue); an event on one of its pods requeues it at once
      const pods = await client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: NS }, { limit: 1 });
      const first = pods.items[0];
      if (!first?.metadata?.name) continue;
      const ref = { apiVersion: 'v1', kind: 'Pod', namespace: NS, name: first.metadata.name };
      await client.patch(
        ref,
        { metadata: { annotations: { 'regatta-bench/nudge': String(waited) } } },
        { type: 'merge' },
      );
      log(`${tracker.count}/${n} pods so far: nudged the ReplicaSet (an annotation on one of its pods)`);
    }
    if (ok === undefined)
      throw new Error(
        `the SidecarSet did not match ${n} injected, ready pods in 10 min: ${describeSidecarSet(follower.latest)}`,
      );
    const injectedReadyS = (ok - s0) / 1000;
    log(`${n} pods injected and ready in ${injectedReadyS.toFixed(1)} s; settling 5 s`);
    await sleep(5000);

    supervisor.phase = 'rollout';
    const phase = await measurePhase(
      { client, tracker, log, replicas: n, timeoutS },
      {
        name: 'SidecarSet',
        label: 'SidecarSet ColdUpgrade in place',
        batch,
        boundS,
        ns: NS,
        follower,
        pids: pids(),
        setupS: injectedReadyS,
        idleRss: idle,
        patch: async () =>
          (await client.patch({ ...SCS, name: 'bench-upgrade' }, imagePatch, { type: 'json' })).metadata
            ?.generation ?? Infinity,
        done: sidecarSetDone(n),
        describe: describeSidecarSet,
      },
    );
    await release();
    await sleep(1000); // the audit log is written as responses complete; let the last lines land
    const records = await readAudit(ctx.auditLog);
    return {
      title:
        `Cold in-place upgrade of a sidecar image over N = ${n} pods (a Deployment's, injected by the pod ` +
        `webhook), SidecarSet maxUnavailable ${MAX_UNAVAILABLE} (batch ${batch}), t = ${(t / 1000).toFixed(1)} s ` +
        `for a container restarted in place to be ready; bound ceil(N/batch)·t = ${boundS.toFixed(1)} s`,
      replicas: n,
      restartMs: t,
      nodes,
      phase,
      injectedReadyS,
      writes: tally(records, phase.window),
      restarts: supervisor.restarts,
    };
  } finally {
    await release();
  }
}

const perPod = (x: number | undefined, n: number) => (x === undefined ? 'n/a' : (x / n).toFixed(2));

export function reportSidecarSetUpgrade(r: ScsUpgradeResult): string {
  const n = r.replicas;
  const p = r.phase;
  const w = r.writes.get(PROGRAM);
  const goal = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const overBound = p.durationS === undefined ? undefined : p.durationS / p.boundS;
  const mib = (b: number | undefined) =>
    b !== undefined && Number.isFinite(b) ? `${(b / 2 ** 20).toFixed(0)} MiB` : 'n/a';
  const out: string[] = [
    `${r.title}; ${r.nodes} simulated nodes`,
    '',
    table([
      ['', p.label, 'goal'],
      [
        'duration, patch → status done (s)',
        p.durationS === undefined ? `> ${p.timeoutS} (not done)` : fmt(p.durationS, 1),
        '',
      ],
      ['bound ceil(N/batch)·t (s)', fmt(p.boundS, 1), ''],
      [
        'duration / bound',
        overBound === undefined ? 'n/a' : fmt(overBound, 2),
        `≤ 1.10 (as the other rollouts): ${goal(overBound !== undefined && overBound <= 1.1)}`,
      ],
      ['patch → last pod new and Ready (s)', p.podsDoneS === undefined ? 'n/a' : fmt(p.podsDoneS, 1), ''],
      [
        'program pod writes / pod',
        `${perPod(w?.podWrites ?? 0, n)} (${PROGRAM})`,
        'OpenKruise: 2 (UPDATE, then the condition)',
      ],
      ['program writes of any kind / pod', perPod(w?.all ?? 0, n), ''],
      ['program CPU during the rollout (s)', fmt(p.cpuS[PROGRAM] ?? NaN, 2), ''],
      ['  + the watcher', fmt((p.cpuS[PROGRAM] ?? NaN) + (p.cpuS['watcher'] ?? NaN), 2), ''],
      ['program peak RSS during the rollout', mib(p.rssPeak[PROGRAM]), ''],
      [
        'most pods unavailable at once',
        `${p.maxUnavailable}`,
        `≤ ${p.batch}: ${goal(p.maxUnavailable <= p.batch)}`,
      ],
      ['N pods created → injected and ready (s)', fmt(r.injectedReadyS, 1), ''],
      ...['sidecarset', 'watcher'].map((name) => [
        `${name} exits: during setup / rollout`,
        ['setup', 'rollout']
          .map((ph) => r.restarts.filter((x) => x.name === name && x.phase === ph).length)
          .join(' / '),
        '',
      ]),
    ]),
  ];

  const rows: (string | number)[][] = [['pods new and Ready', 'at (s)', 'Δ (s)', 'ideal (s)']];
  const at = (k: number) => p.podDoneS[k - 1] ?? NaN;
  for (let b = 1; b <= Math.ceil(n / p.batch); b++) {
    const k = Math.min(n, b * p.batch);
    const prev = (b - 1) * p.batch;
    rows.push([
      `${k}`,
      fmt(at(k), 1),
      fmt(at(k) - (prev ? at(prev) : 0), 1),
      fmt((b * r.restartMs) / 1000, 1),
    ]);
  }
  out.push(
    '',
    'Progress (from the pods: first seen with the new sidecar image and Ready; ideal ceil(k/batch)·t)',
    '',
    table(rows),
  );

  const wrows: (string | number)[][] = [['client', 'resource verb', 'writes', '/pod']];
  for (const [c, tly] of [...r.writes]
    .filter(([c]) => c !== 'bench')
    .sort(([a], [b]) => a.localeCompare(b))) {
    for (const [k, x] of [...tly.byKind].sort(([a], [b]) => a.localeCompare(b)))
      wrows.push([c, k, x, perPod(x, n)]);
    wrows.push([
      c,
      '= all (failed; after done)',
      `${tly.all} (${tly.failed}; ${tly.afterDone})`,
      perPod(tly.all, n),
    ]);
  }
  out.push(
    '',
    `API writes from the audit log, patch → done + ${TAIL_MS / 1000} s, by user agent`,
    '',
    table(wrows),
    '',
    w
      ? `${PROGRAM}: pod writes up to done at most ${w.podConcurrency} in flight at once, API latency p50 ` +
          `${fmt(w.podLatencyP50, 0)} ms, at least one in flight during ${fmt(100 * w.podBusyShare, 0)} % of ` +
          `patch → done; ${w.podsWritten} pods written, at most ${w.maxPerPod} writes on one`
      : `${PROGRAM}: no writes`,
    '',
    'CPU seconds per process, patch → done (the machine has 2 cores)',
    '',
    table([['process', 'seconds'], ...Object.entries(p.cpuS).map(([k, v]) => [k, fmt(v, 2)])]),
  );
  const elsewhere = p.cpuS['everything else'] ?? 0;
  const elapsed = p.durationS ?? p.timeoutS;
  if (elsewhere / elapsed > 0.25)
    out.push(
      '',
      `Note: work outside the benchmark used ${fmt((100 * elsewhere) / elapsed, 0)} % of a core during the ` +
        'rollout: the machine was shared, and these figures are slower than a quiet run.',
    );
  for (const x of r.restarts)
    out.push(
      '',
      `${x.name} EXITED during the ${x.phase} (code ${x.code}) and was started again: ${x.reason}`,
    );
  out.push('', `SidecarSet at the end: ${p.finalStatus}`, `  ${p.notes.join('\n  ')}`);
  return out.join('\n');
}
