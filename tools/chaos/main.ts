// `npm run chaos [-- --only=R4,R6,R7,R1] [-- --rollouts=N] [-- --pods=MIN-MAX] [-- --r1-kinds=cloneset,asts]
// [-- --r1-parallel=N] [-- --keep]`:
// Regatta's reliability suite (docs/reliability.md, docs/adr/0043). Starts its own control plane and nats-server in a
// temp folder, the node simulator, and the watcher and the controller programs the checks need (CloneSet, R1's
// kinds) from their bundles; runs the checks one after
// the other against them, each in namespaces of its own, judged by an independent checker watching the API server;
// prints a table and stops everything, also on error or Ctrl-C. Exit code 1 when a check found a violation or a
// crash (or broke), 0 otherwise. Not part of `npm test`: its pure parts are (tools/chaos/*.test.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { KINDS } from '@regatta/api';
import { bucketName, registrationKey } from '@regatta/bus';
import { KUBERNETES_VERSION, LocalCluster, NATS_VERSION } from '@regatta/local-cluster';
import { codeVersion, nowMs, stopAllChildren } from '../bench/common.js';
import { ChaosArgsError, isWorkloadId, parseArgs, r2AppsOf, type ChaosArgs } from './args.js';
import { Observer } from './observer.js';
import { checkTheChecker } from './r0.js';
import { checkChaosRollouts } from './r1.js';
import { checkSidecarRollouts } from './r1-sidecarset.js';
import type { R1Options } from './r1-parallel.js';
import { checkFuzzedAdmission } from './r2.js';
import { R2_AGENT_NODES } from './r2-agent-verdicts.js';
import { checkBlastRadius } from './r3.js';
import { checkProgramBlastRadius } from './r3-kinds.js';
import { R3_PROGRAMS } from './r3-programs.js';
import { checkLeakedExpectation } from './r4.js';
import { checkLeastPrivilege } from './r5.js';
import { AUDIT_LOG, checkRestartMidRollout } from './r6.js';
import { checkBadBusValue } from './r7.js';
import { checkControlPlaneFaults } from './r8.js';
import { checkPausedLeader } from './r9.js';
import { passed, renderResults, type CheckResult } from './report.js';
import { buildBundles, startWorld, type World } from './world.js';
import { WORKLOADS } from './workloads/index.js';

let args: ChaosArgs;
try {
  args = parseArgs(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof ChaosArgsError)) throw err;
  console.error(err.message);
  process.exit(2);
}

const t0 = nowMs();
const now = () => nowMs() - t0;
const log = (line: string) => console.log(`  [${(now() / 1000).toFixed(0).padStart(4)} s] ${line}`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

console.log(
  `Regatta chaos suite (${args.only.join(', ')}): ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB, load ${load()}, Node ${process.version}, kube-apiserver ` +
    `${KUBERNETES_VERSION}, nats-server ${NATS_VERSION}; code ${codeVersion()}`,
);

const dir = await mkdtemp(join(tmpdir(), 'regatta-chaos-'));
let cluster: LocalCluster | undefined;
let world: World | undefined;
let observer: Observer | undefined;
let failed = false;
let cleaning: Promise<void> | undefined;
const cleanup = () =>
  (cleaning ??= (async () => {
    await observer?.stop().catch(() => undefined);
    await world?.stop().catch(() => undefined);
    await stopAllChildren().catch(() => undefined);
    await cluster?.stop().catch(() => undefined);
    if (failed || args.keep) console.log(`logs kept in ${dir} (logs/)`);
    else await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  })());
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    if (cleaning) return;
    console.error(`\n${sig}: stopping the cluster`);
    failed = true;
    void cleanup().finally(() => process.exit(130));
  });

const R5_AGENT_NODES = ['chaos-r5-a', 'chaos-r5-b'] as const;
const ADS_NODES = 10;
const results: CheckResult[] = [];
try {
  const r1Kinds = args.only.includes('R1')
    ? args.r1Kinds.filter(isWorkloadId).map((id) => WORKLOADS[id])
    : [];
  // R1's programs: each kind's, and the program of its subset workloads (a UnitedDeployment's CloneSets)
  const r1Apps = r1Kinds.flatMap((k) => [k.app, ...(k.subsets ? [k.subsets.app] : [])]);
  // R1's SidecarSet upgrades: of a CloneSet's pods, the SidecarSet program started by the check (its webhooks)
  const r1Sidecar = args.only.includes('R1') && args.r1Kinds.includes('sidecarset');
  // every check but R3 rolls out CloneSets (R1 only when its kinds include them or SidecarSet upgrades)
  const withCloneSet = args.only.some(
    (c) => c !== 'R3' && (c !== 'R1' || args.r1Kinds.includes('cloneset') || r1Sidecar),
  );
  const apps = [
    ...new Set([
      'watcher',
      ...(withCloneSet ? ['cloneset'] : []),
      ...r1Apps,
      ...(r1Sidecar ? ['sidecarset'] : []),
      ...(args.only.includes('R3') ? ['sidecarset', ...R3_PROGRAMS.map((p) => p.app)] : []),
      ...(args.only.includes('R2') ? r2AppsOf(args.r2Kinds).filter((a) => a !== 'cloneset') : []),
      // R2's agent nodes (r2-agents.ts): an image pull agent each
      ...(args.only.includes('R2') && r2AppsOf(args.r2Kinds).includes('imagepull')
        ? ['imagepull-agent']
        : []),
    ]),
  ];
  log(`building the bundles of ${apps.join(', ')}`);
  const bundles = buildBundles(dir, apps);
  // the bus with its users, as the sandbox and the chart run it (a watcher, a reader, one per controller), two node
  // agents' users R5 tries (docs/adr/0032), and those of R2's agent nodes
  cluster = await LocalCluster.start({
    dir,
    jaeger: false,
    log,
    // writes only (Metadata level): R6 counts the CloneSet program's pod writes from it
    auditLogPath: join(dir, AUDIT_LOG),
    natsAuth: true,
    natsNodeAgents: {
      nodes: [...R5_AGENT_NODES, ...R2_AGENT_NODES],
      bucket: bucketName(KINDS.nodeimages),
      registration: (node) => registrationKey('imagepull', `agent-${node}`),
    },
  });
  const maxPods = Math.max(args.pods[1], args.r6Pods, args.r4Pods);
  world = await startWorld({
    cluster,
    dir,
    bundles,
    controllers: [...new Set([...(withCloneSet ? ['cloneset'] : []), ...r1Apps])],
    ...(args.apiFaults > 0 && args.only.includes('R1') ? { apiProxy: { seed: args.seed } } : {}),
    // R1's DaemonSets: one pod per node, ten nodes
    nodes: Math.max(3, Math.ceil((2 * maxPods) / 110) + 1, r1Kinds.some((k) => k.perNode) ? ADS_NODES : 0),
    restartMs: 1000,
    now,
    log,
  });
  observer = new Observer(world.client, now, [
    ...new Set(
      [...(withCloneSet ? [WORKLOADS.cloneset] : []), ...r1Kinds].flatMap((k) => [
        k.resource,
        ...(k.subsets ? [k.subsets.resource] : []),
      ]),
    ),
  ]);
  await observer.start();
  const [w, obs, natsAuth, natsUrl] = [world, observer, cluster.endpoints.natsAuth!, cluster.endpoints.nats!];
  const check = async (id: (typeof args.only)[number]): Promise<CheckResult> =>
    id === 'R0'
      ? await checkTheChecker(w, obs)
      : id === 'R4'
        ? await checkLeakedExpectation(w, obs, { pods: args.r4Pods })
        : id === 'R6'
          ? await checkRestartMidRollout(w, obs, { pods: args.r6Pods })
          : id === 'R7'
            ? await checkBadBusValue(w, obs, { pods: args.r6Pods, natsUrl, watcherUser: natsAuth.watcher })
            : id === 'R8'
              ? await checkControlPlaneFaults(w, obs, { pods: args.r6Pods })
              : id === 'R9'
                ? await checkPausedLeader(w, obs, { pods: args.r6Pods })
            : id === 'R3'
              ? await checkBlastRadius(w, { pods: args.r3Pods })
              : id === 'R2'
                ? await checkFuzzedAdmission(w, {
                    perKind: args.fuzz,
                    seed: args.seed,
                    dir,
                    kinds: args.r2Kinds,
                    concurrency: args.r2Concurrency,
                  })
                : await checkLeastPrivilege(w, {
                    auth: natsAuth,
                    natsUrl: natsUrl,
                    agentNodes: [...R5_AGENT_NODES],
                  });
  for (const id of args.only) {
    console.log(`\n== ${id} (load average ${load()})`);
    const before = results.length;
    if (id === 'R3') {
      // the SidecarSet program (its pod webhook), then each program with kind webhooks: a row each
      results.push(await check(id));
      for (const p of R3_PROGRAMS) results.push(await checkProgramBlastRadius(w, p, { writes: args.r3Pods }));
    } else if (id !== 'R1') results.push(await check(id));
    // R1: each kind's rollouts in turn (--r1-parallel of them at once), the same seed's plans and faults, the kind's
    // program the one killed
    else {
      const r1: R1Options = {
        rollouts: args.rollouts,
        pods: args.pods,
        seed: args.seed,
        gapMs: [args.gapS[0] * 1000, args.gapS[1] * 1000],
        parallel: args.r1Parallel,
      };
      for (const kind of r1Kinds)
        results.push(await checkChaosRollouts(w, obs, kind, { ...r1, apiFaults: args.apiFaults }));
      if (r1Sidecar) results.push(await checkSidecarRollouts(w, obs, { ...r1, apiFaults: args.apiFaults }));
    }
    log(`${id}: ${results.slice(before).every(passed) ? 'pass' : 'FAIL'}`);
  }
  console.log(`\n== results (${(now() / 1000).toFixed(0)} s, load average ${load()})\n`);
  console.log(renderResults(results));
  if (!results.every(passed)) {
    failed = true;
    process.exitCode = 1;
  }
} catch (err) {
  if (!cleaning) {
    failed = true;
    if (results.length > 0) console.log(`\n${renderResults(results)}\n`);
    console.error('\nchaos suite broke:', err);
    process.exitCode = 1;
  }
} finally {
  await cleanup();
}
