// Benchmark 4: an image change rolled out over N pods, by a CloneSet in place (Regatta's cloneset
// controller, InPlaceIfPossible) and by a native Deployment (kube-controller-manager, RollingUpdate:
// pods recreated), in the same cluster and the same run, with the same disruption budget
// (maxUnavailable 10 %) and the same simulated time t for a container to start (new pod) or restart
// (in place). Measured: duration from the image patch to done, against the bound ceil(N/batch)·t; the
// controllers' API writes per pod (from the API server's audit log, by user agent); the controllers'
// CPU seconds and peak memory; the largest number of pods unavailable at once. The pieces: settings and
// results (rollout-config.ts), the watches (rollout-watch.ts), the supervised programs
// (rollout-programs.ts), one measured phase (rollout-measure.ts), the audit log (rollout-audit.ts), the
// report (rollout-report.ts).
import { join } from 'node:path';
import { defaultCloneSet, generateCrds, type CloneSet, type Pod } from '@regatta/api';
import { KubeClient, ListWatcher, type KubeObject } from '@regatta/kube';
import { installCrds, waitFor } from '@regatta/local-cluster';
import { Child, nowMs, sleep } from './common.js';
import { readAudit, tally } from './rollout-audit.js';
import {
  IMAGE_NEW,
  IMAGE_OLD,
  MAX_PODS_PER_NODE,
  MAX_UNAVAILABLE,
  type Ctx,
  type PhaseResult,
  type RolloutResult,
} from './rollout-config.js';
import { measurePhase, rssNow, type PhaseEnv } from './rollout-measure.js';
import { ProgramSupervisor } from './rollout-programs.js';
import {
  CLONESETS,
  DEPLOYMENTS,
  Follower,
  PODS,
  PodTracker,
  type CloneSetObj,
  type DeploymentObj,
} from './rollout-watch.js';

export type { RolloutConfig, RolloutResult } from './rollout-config.js';
export { reportRollout } from './rollout-report.js';

function podSpec(image: string) {
  return {
    containers: [{ name: 'app', image, ports: [{ containerPort: 8080, protocol: 'TCP' }] }],
  };
}

export async function benchRollout(ctx: Ctx): Promise<RolloutResult> {
  const { cluster, log, replicas: n, restartMs: t } = ctx;
  const { kubeconfig, nats } = cluster.endpoints;
  // a user agent of its own, so the audit log tells the benchmark's writes (the image patch) apart
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  /** The measured change, the same on both sides: the first container's image, as `kubectl set image` does. */
  const setNewImage = async (ref: { apiVersion: string; kind: string; namespace: string; name: string }) =>
    (
      await client.patch(
        ref,
        [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: IMAGE_NEW }],
        {
          type: 'json',
        },
      )
    ).metadata?.generation ?? Infinity;
  const batch = Math.max(1, Math.floor(n / 10));
  const boundS = (Math.ceil(n / batch) * t) / 1000;
  const nodes = Math.max(3, Math.ceil((2 * n) / MAX_PODS_PER_NODE));
  const timeoutS = Math.round(4 * boundS + 120);
  const record = (name: string) => cluster.processRecords.find((p) => p.name === name)?.pid ?? -1;

  await installCrds(kubeconfig, generateCrds());
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'regatta-system' } });

  // kubelets: N pods, ≥ 2N slots (a Deployment's terminating pods still hold theirs); the same t for a
  // new pod's containers to start and for a container restarted in place; image pulls take no time
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
      nodes,
      maxPods: MAX_PODS_PER_NODE,
      timings: { podStartMs: t, containerRestartMs: t, imagePullMs: 0 },
      logFile: join(ctx.logsDir, 'node-simulator.log'),
    });
    log(
      `node simulator: ${nodes} nodes × ${MAX_PODS_PER_NODE} pods; t = ${t} ms (pod start and in-place restart)`,
    );

    // Regatta: the watcher and the cloneset controller, as the sandbox runs them
    supervisor = new ProgramSupervisor({
      cluster,
      logsDir: ctx.logsDir,
      log,
      env: {
        KUBECONFIG: kubeconfig,
        NATS_URL: nats ?? '',
        REGATTA_BUS_PREFIX: 'benchroll_',
        REGATTA_LEASE_NAMESPACE: 'regatta-system',
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
      },
    });
    const watcher = await supervisor.start('watcher', 'watcher', '/healthz');
    const cloneset = await supervisor.start('cloneset', 'cloneset', '/readyz');
    log('watcher and cloneset controller up');

    // one pod watch for the whole benchmark; each phase tracks its own namespace
    let tracker = new PodTracker('', n);
    podWatch = new ListWatcher<Pod>(client, PODS, {
      onList: async (pods) => tracker.reset(pods),
      onUpsert: async (p) => tracker.upsert(p),
      onDelete: async (p) => tracker.remove(p),
    });
    podWatch.start();

    const basePids = () => ({
      'kube-apiserver': record('kube-apiserver'),
      etcd: record('etcd'),
      'nats-server': record('nats-server'),
      'kube-scheduler': record('kube-scheduler'),
      'kube-controller-manager': record('kube-controller-manager'),
      'node simulator': sim.pid,
      'bench orchestrator': process.pid,
    });

    const phaseEnv = (): PhaseEnv => ({ client, tracker, log, replicas: n, timeoutS, boundS });

    const waitPodsGone = async (ns: string) => {
      await waitFor(
        `the pods of ${ns} to be gone`,
        async () => (await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: ns })).items.length === 0,
        { timeoutMs: 300_000, intervalMs: 1000 },
      );
    };

    // ---- CloneSet, in place ----
    const csNs = 'bench-cloneset';
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: csNs } });
    tracker = new PodTracker(csNs, n);
    const csFollower = new Follower<CloneSetObj>(client, CLONESETS, csNs, 'bench');
    let cloneSet: PhaseResult;
    const csPids = () => ({ 'regatta-cloneset': cloneset.p.pid, watcher: watcher.p.pid, ...basePids() });
    const csIdle = rssNow(csPids());
    try {
      // no webhook runs here, so the CloneSet is sent as the mutating webhook would leave it
      const cs = defaultCloneSet({
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name: 'bench', namespace: csNs },
        spec: {
          replicas: n,
          selector: { matchLabels: { app: 'bench-cs' } },
          template: { metadata: { labels: { app: 'bench-cs' } }, spec: podSpec(IMAGE_OLD) },
          updateStrategy: {
            type: 'InPlaceIfPossible',
            maxUnavailable: MAX_UNAVAILABLE,
            maxSurge: 0,
            partition: 0,
          },
        },
      } as unknown as CloneSet);
      supervisor.phase = 'CloneSet setup';
      const s0 = nowMs();
      const created = await client.create(cs as unknown as KubeObject);
      const ok = await csFollower.until((o) => {
        const s = o.status;
        return (
          s?.observedGeneration === created.metadata?.generation &&
          s?.readyReplicas === n &&
          s.updatedReadyReplicas === n
        );
      }, 600_000);
      if (ok === undefined) throw new Error(`CloneSet did not get ${n} ready pods in 10 min`);
      const setupS = (ok - s0) / 1000;
      log(`CloneSet: ${n} pods ready in ${setupS.toFixed(1)} s; settling 5 s`);
      await sleep(5000);

      supervisor.phase = 'CloneSet rollout';
      const describe = (o: CloneSetObj | undefined) => {
        const s = o?.status;
        return s
          ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ` +
              `ready ${s.readyReplicas}, updated ${s.updatedReplicas}, updatedReady ${s.updatedReadyReplicas}, ` +
              `current ${s.currentRevision}, update ${s.updateRevision}`
          : 'no status';
      };
      cloneSet = await measurePhase(phaseEnv(), {
        name: 'CloneSet',
        ns: csNs,
        follower: csFollower,
        pids: csPids(),
        setupS,
        idleRss: csIdle,
        patch: () =>
          setNewImage({
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            namespace: csNs,
            name: 'bench',
          }),
        done: (o, gen) => {
          const s = o.status;
          return (
            (s?.observedGeneration ?? 0) >= gen &&
            s?.updatedReadyReplicas === n &&
            s.readyReplicas === n &&
            s.replicas === n &&
            !!s.updateRevision &&
            s.currentRevision === s.updateRevision
          );
        },
        describe,
      });
    } finally {
      await csFollower.stop();
    }
    await client.delete(
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: csNs, name: 'bench' },
      { propagationPolicy: 'Background' },
    );
    await waitPodsGone(csNs);
    // the Deployment's side runs without Regatta's processes, as a cluster without Regatta would
    await supervisor.stopAll();
    log('CloneSet deleted, its pods gone; watcher and cloneset controller stopped');

    // ---- Deployment, pods recreated ----
    supervisor.phase = 'Deployment';
    const dNs = 'bench-deployment';
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: dNs } });
    tracker = new PodTracker(dNs, n);
    const dFollower = new Follower<DeploymentObj>(client, DEPLOYMENTS, dNs, 'bench');
    let deployment: PhaseResult;
    const dIdle = rssNow(basePids());
    try {
      const s0 = nowMs();
      const created = await client.create({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'bench', namespace: dNs },
        spec: {
          replicas: n,
          selector: { matchLabels: { app: 'bench-deploy' } },
          strategy: {
            type: 'RollingUpdate',
            rollingUpdate: { maxUnavailable: MAX_UNAVAILABLE, maxSurge: 0 },
          },
          template: { metadata: { labels: { app: 'bench-deploy' } }, spec: podSpec(IMAGE_OLD) },
        },
      } as KubeObject);
      const ok = await dFollower.until((o) => {
        const s = o.status;
        return (
          s?.observedGeneration === created.metadata?.generation &&
          s?.availableReplicas === n &&
          s.updatedReplicas === n
        );
      }, 600_000);
      if (ok === undefined) throw new Error(`Deployment did not get ${n} available pods in 10 min`);
      const setupS = (ok - s0) / 1000;
      log(`Deployment: ${n} pods ready in ${setupS.toFixed(1)} s; settling 5 s`);
      await sleep(5000);
      deployment = await measurePhase(phaseEnv(), {
        name: 'Deployment',
        ns: dNs,
        follower: dFollower,
        pids: basePids(),
        setupS,
        idleRss: dIdle,
        patch: () =>
          setNewImage({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: dNs, name: 'bench' }),
        done: (o, gen) => {
          const s = o.status;
          return (
            (s?.observedGeneration ?? 0) >= gen &&
            s?.updatedReplicas === n &&
            s.readyReplicas === n &&
            s.availableReplicas === n &&
            s.replicas === n
          );
        },
        describe: (o) => {
          const s = o?.status;
          return s
            ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ` +
                `ready ${s.readyReplicas}, available ${s.availableReplicas}, updated ${s.updatedReplicas}`
            : 'no status';
        },
      });
    } finally {
      await dFollower.stop();
    }
    await release();

    await sleep(1000); // the audit log is written as responses complete; let the last lines land
    const records = await readAudit(ctx.auditLog);
    return {
      replicas: n,
      restartMs: t,
      batch,
      boundS,
      nodes,
      cloneSet,
      deployment,
      restarts: supervisor.restarts,
      writes: { cloneSet: tally(records, cloneSet.window), deployment: tally(records, deployment.window) },
    };
  } finally {
    // also on the way out of a failure, before the cluster stops: no program is started again
    await release();
  }
}
