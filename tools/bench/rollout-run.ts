// The rollout benchmarks' common run (docs/benchmarks-rollouts.md): an image change rolled out over N
// pods by a Regatta controller and by its native counterpart, one after the other in the same cluster and the
// same run, with the same simulated time t for a container to start (new pod) or restart (in place). The
// run: CRDs, the node simulator in a child process, the watcher and the controller as supervised programs
// (rollout-programs.ts), one pod watch; then each side is created, followed until its N pods are ready,
// patched and measured (rollout-measure.ts), and deleted; Regatta's programs stop before the native side
// starts, so that side runs on a cluster without Regatta. With `ctx.peer` (`--peer=kruise`), the native side is
// deleted too and the same workload as Regatta's runs a third time, with kruise-manager as its controller
// (kruise-peer.ts), on the same cluster in a namespace of its own. Before Regatta's side and the peer's, the run waits
// for the API server's WATCH count to hold still (kube-controller-manager finds new CRDs within 30 s and watches
// them), so that a side's watches are its controllers' own. Writes come from the audit log (rollout-audit.ts).
// What differs between the comparisons (the objects, when a side is done, the bounds) is a `RolloutSpec`.
import { join } from 'node:path';
import { generateCrds, type Pod } from '@regatta/api';
import { KubeClient, ListWatcher, type KubeObject, type WatchedResource } from '@regatta/kube';
import { installCrds, waitFor } from '@regatta/local-cluster';
import { apiserverMetric, Child, nowMs, sleep } from './common.js';
import { startKruiseManager } from './kruise-peer.js';
import type { KruiseController } from './peer-config.js';
import { readAudit, tally } from './rollout-audit.js';
import {
  IMAGE_NEW,
  WATCHES_QUIET_MS,
  watchesSettled,
  type Ctx,
  type PhaseResult,
  type RolloutResult,
  type Restart,
  type WritesGoal,
} from './rollout-config.js';
import { measurePhase, rssNow, type PhaseEnv } from './rollout-measure.js';
import { CONTROL_PLANE, CONTROLLERS, clusterPids } from './process-memory.js';
import { benchSupervisor, type ProgramSupervisor } from './rollout-programs.js';
import { Follower, PODS, PodTracker } from './rollout-watch.js';

/** One side of a comparison: the workload, when it is done, and what bounds its duration. */
export interface Side {
  /** Short name in logs and notes (`CloneSet`), and the report's column header. */
  name: string;
  label: string;
  /** The workload, named `bench` in a namespace of its own (created by the run). */
  object: KubeObject;
  resource: WatchedResource;
  /** Pods the side's budget lets it update at once, and its bound on the duration (s). */
  batch: number;
  boundS: number;
  /** The status says every pod runs the template of `generation` and is ready (set-up and rollout alike). */
  done: (obj: KubeObject, generation: number) => boolean;
  describe: (obj: KubeObject | undefined) => string;
}

/** The peer's side (peer-config.ts kruisePeerSide): Regatta's workload again, and the kruise-manager controller it
 * needs running before it is created. */
export type PeerSide = Side & { kruiseController: KruiseController };

export interface RolloutSpec {
  /** The report's first line. */
  title: string;
  /** Simulated nodes and pods per node. */
  nodes: number;
  maxPods: number;
  /** The Regatta controller: `apps/<app>`, program (and user agent) `regatta-<app>`. */
  app: string;
  regatta: Side;
  native: Side;
  /** The same workload as `regatta`'s in a namespace of its own, for kruise-manager (run with `ctx.peer`). */
  peer?: PeerSide;
  writesGoalPerPod?: WritesGoal;
}

/** The benchmark's change, the same on both sides: the first container's image, as `kubectl set image` does. */
const imagePatch = [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: IMAGE_NEW }];

export async function runRollout(ctx: Ctx, spec: RolloutSpec): Promise<RolloutResult> {
  const { cluster, log, replicas: n, restartMs: t } = ctx;
  const { kubeconfig } = cluster.endpoints;
  const controller = `regatta-${spec.app}`;
  // a user agent of its own, so the audit log tells the benchmark's writes (the image patch) apart
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  const timeoutS = Math.round(4 * Math.max(spec.regatta.boundS, spec.native.boundS) + 120);

  await installCrds(kubeconfig, generateCrds());
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'regatta-system' } });

  // kubelets with room for N pods twice over (a recreate's terminating pods still hold their slots); the same
  // t for a new pod's containers to start and for a container restarted in place; image pulls take no time
  const sim = Child.start('node simulator', './rollout-simulator.ts');
  let podWatch: ListWatcher<Pod> | undefined;
  let released: Promise<void> | undefined;
  let supervisor: ProgramSupervisor | undefined;
  /** Stops what this benchmark runs in this process and the simulator (the cluster stops its programs). */
  const release = () =>
    (released ??= (async () => {
      supervisor?.release();
      await podWatch?.stop();
      await sim.call('stop').catch(() => undefined);
      await sim.stop();
      await client.close();
    })());
  try {
    await sim.call('start', {
      kubeconfig,
      nodes: spec.nodes,
      maxPods: spec.maxPods,
      timings: { podStartMs: t, containerRestartMs: t, imagePullMs: 0 },
      logFile: join(ctx.logsDir, 'node-simulator.log'),
    });
    log(
      `node simulator: ${spec.nodes} nodes × ${spec.maxPods} pods; t = ${t} ms (pod start and in-place restart)`,
    );

    // Regatta: the watcher and the controller, as the sandbox runs them
    supervisor = benchSupervisor({ cluster, logsDir: ctx.logsDir, log }, 'benchroll_');
    const watcher = await supervisor.start('watcher', 'watcher', '/healthz');
    const program = await supervisor.start(spec.app, spec.app, '/readyz');
    log(`watcher and ${controller} up`);

    // one pod watch for the whole benchmark; each side tracks its own namespace
    let tracker = new PodTracker('', n);
    podWatch = new ListWatcher<Pod>(client, PODS, {
      onList: async (pods) => tracker.reset(pods),
      onUpsert: async (p) => tracker.upsert(p),
      onDelete: async (p) => tracker.remove(p),
    });
    podWatch.start();

    const basePids = () => ({
      ...clusterPids(cluster, [...CONTROL_PLANE, ...CONTROLLERS]),
      'node simulator': sim.pid,
      'bench orchestrator': process.pid,
    });

    /** Every WATCH the API server holds (a side's controllers' own: with them less without them). */
    const watchesNow = async () =>
      (await apiserverMetric(client, 'apiserver_longrunning_requests', { verb: 'WATCH' })).sum;
    /** Waits (at most 2 min) for the WATCH count to hold still for WATCHES_QUIET_MS (rollout-config.ts): the
     * cluster's watches on the CRDs just installed are all open before a side is measured. */
    const settleWatches = async (what: string) => {
      const samples: [number, number][] = [];
      const s0 = nowMs();
      while (nowMs() - s0 < 120_000) {
        samples.push([nowMs(), await watchesNow()]);
        if (watchesSettled(samples, WATCHES_QUIET_MS)) break;
        await sleep(2500);
      }
      const first = samples[0]?.[1] ?? NaN;
      const last = samples[samples.length - 1]?.[1] ?? NaN;
      log(
        `${what}: WATCH count ${first} → ${last} in ${((nowMs() - s0) / 1000).toFixed(0)} s` +
          (watchesSettled(samples, WATCHES_QUIET_MS)
            ? `, still for ${WATCHES_QUIET_MS / 1000} s`
            : ', NOT settled'),
      );
    };
    /** The same, once the connections of processes just stopped have closed. */
    const watchesAfterStop = async () => {
      await sleep(3000);
      return watchesNow();
    };

    /** Creates the side's workload, waits for N ready pods, rolls the image out, measures, deletes it. */
    const runSide = async (
      side: Side,
      pids: () => Record<string, number>,
      o: { sup?: ProgramSupervisor; remove: boolean },
    ): Promise<PhaseResult> => {
      const { sup } = o;
      const ns = side.object.metadata?.namespace ?? '';
      const ref = {
        apiVersion: side.object.apiVersion ?? '',
        kind: side.object.kind ?? '',
        namespace: ns,
        name: 'bench',
      };
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      tracker = new PodTracker(ns, n);
      const follower = new Follower<KubeObject>(client, side.resource, ns, 'bench');
      const idle = rssNow(pids());
      let result: PhaseResult;
      try {
        if (sup) sup.phase = `${side.name} setup`;
        const s0 = nowMs();
        const created = await client.create(side.object);
        const gen = created.metadata?.generation ?? 1;
        const ok = await follower.until((o) => side.done(o, gen), 600_000);
        if (ok === undefined)
          throw new Error(
            `${side.name} did not get ${n} ready pods in 10 min: ${side.describe(follower.latest)}`,
          );
        const setupS = (ok - s0) / 1000;
        log(`${side.name}: ${n} pods ready in ${setupS.toFixed(1)} s; settling 5 s`);
        await sleep(5000);
        const apiWatches = await watchesNow();
        if (sup) sup.phase = `${side.name} rollout`;
        const env: PhaseEnv = { client, tracker, log, replicas: n, timeoutS };
        result = await measurePhase(env, {
          name: side.name,
          label: side.label,
          batch: side.batch,
          boundS: side.boundS,
          ns,
          follower,
          pids: pids(),
          setupS,
          idleRss: idle,
          patch: async () =>
            (await client.patch(ref, imagePatch, { type: 'json' })).metadata?.generation ?? Infinity,
          done: side.done,
          describe: side.describe,
        });
        result.apiWatches = apiWatches;
      } finally {
        await follower.stop();
      }
      if (!o.remove) return result;
      await client.delete(ref, { propagationPolicy: 'Background' });
      await waitFor(
        `the pods of ${ns} to be gone`,
        async () => (await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: ns })).items.length === 0,
        { timeoutMs: 300_000, intervalMs: 1000 },
      );
      return result;
    };

    await settleWatches(`before ${spec.regatta.name}`);
    const regatta = await runSide(
      spec.regatta,
      () => ({ [controller]: program.p.pid, watcher: watcher.p.pid, ...basePids() }),
      { sup: supervisor, remove: true },
    );
    // the native side runs without Regatta's processes, as a cluster without Regatta would
    await supervisor.stopAll();
    regatta.apiWatchesWithout = await watchesAfterStop();
    log(`${spec.regatta.name} deleted, its pods gone; watcher and ${controller} stopped`);
    supervisor.phase = spec.native.name;
    // with a peer, the native side's objects go too: kruise-manager caches every pod of the cluster
    const withPeer = ctx.peer && spec.peer ? { o: ctx.peer, side: spec.peer } : undefined;
    const native = await runSide(spec.native, basePids, { remove: withPeer !== undefined });
    let peer: RolloutResult['peer'];
    if (withPeer) {
      const { o, side } = withPeer;
      log(
        `${spec.native.name} deleted, its pods gone; starting kruise-manager (${o.qps}/${o.burst} QPS/burst)`,
      );
      const kp = await startKruiseManager({
        kubeconfig,
        dir: join(ctx.logsDir, 'kruise-manager'),
        qps: o.qps,
        burst: o.burst,
        log,
        cluster,
        controller: side.kruiseController,
      });
      try {
        await settleWatches('before kruise-manager');
        const phase = await runSide(
          side,
          () => ({
            'kruise-manager': kp.pid,
            'kruise relay (host)': kp.relayPids.host,
            'kruise relay (netns)': kp.relayPids.netns,
            ...basePids(),
          }),
          { remove: false },
        );
        await kp.stop();
        phase.apiWatchesWithout = await watchesAfterStop();
        peer = { phase, qps: o.qps, burst: o.burst, version: kp.version, readyS: kp.readyMs / 1000 };
      } finally {
        await kp.stop();
      }
    }
    await release();

    await sleep(1000); // the audit log is written as responses complete; let the last lines land
    const records = await readAudit(ctx.auditLog);
    const restarts: Restart[] = supervisor.restarts;
    return {
      title: spec.title,
      replicas: n,
      restartMs: t,
      nodes: spec.nodes,
      controller,
      regatta,
      native,
      ...(spec.writesGoalPerPod !== undefined ? { writesGoalPerPod: spec.writesGoalPerPod } : {}),
      restarts,
      writes: {
        regatta: tally(records, regatta.window),
        native: tally(records, native.window),
        ...(peer ? { peer: tally(records, peer.phase.window) } : {}),
      },
      ...(peer ? { peer } : {}),
    };
  } finally {
    // also on the way out of a failure, before the cluster stops: no program is started again
    await release();
  }
}
