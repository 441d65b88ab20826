// R1, chaos rollouts (reduced): rollouts of one workload kind (workloads/*.ts: CloneSet, Advanced StatefulSet, Advanced
// DaemonSet, UnitedDeployment) — in place, recreate, partition steps, scale changes, in turn (schedule.ts
// rolloutPlans) — one after the other, or --r1-parallel of them at once (r1-parallel.ts), while a seeded fault
// schedule kills -9 the watcher, the kind's program (and for a UnitedDeployment its subsets' program too) and
// nats-server, each started again after its down time as a
// supervisor would. Each rollout is held by the independent checker (checker.ts) from its change to its
// end: maxUnavailable, replicas + maxSurge, no recreate where in-place is expected, no pod updated the partition
// keeps, no two live pods with one identity (instance id, ordinal), completion, status converged to the pods; for a
// UnitedDeployment each subset within its own workload's bounds, every pod on its subset's nodes, and the subsets'
// replicas as the allocation says once done.
// With API faults, the kind's program and the watcher each reach the API server through a fault-injecting proxy
// (api-proxy.ts, r1-faults.ts). After each rollout (each group of them) and at the end, with or without them, the
// watcher's mirror on the bus must come to agree with the API server (r1-mirror.ts). SidecarSet sidecar upgrades are
// R1's sibling, r1-sidecarset.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { IMAGE_NEW } from '../bench/rollout-config.js';
import { KINDS } from '@regatta/api';
import { type KindRef } from '@regatta/bus';
import { RegattaError } from '@regatta/errors';
import { createWorkloadReady, removeWorkload, type Observer } from './observer.js';
import { startFaultInjector } from './fault-injector.js';
import {
  InFlight,
  inGroups,
  parallelFigure,
  rolloutsLabel,
  runGroup,
  type R1Options,
} from './r1-parallel.js';
import { PER_NODE_SERIAL } from './args.js';
import { RolloutTally, type RolloutOutcome } from './rollout-tally.js';
import { killNats } from './programs.js';
import { apiFaultFigures, startRowApiFaults } from './r1-faults.js';
import { MirrorChecks, mirrorFigures, mirrorNote } from './r1-mirror.js';
import { countBy, type CheckResult } from './report.js';
import { FAULT_KINDS, faultSchedule, OWNER_FAULT_KINDS, rolloutPlans, type RolloutPlan } from './schedule.js';
import { changeOps, shapeOf, type Workload } from './workloads/index.js';
import type { NodeLabels } from './workloads/kind.js';
import type { World } from './world.js';

export async function checkChaosRollouts(
  w: World,
  obs: Observer,
  kind: Workload,
  o: R1Options & { apiFaults: number },
): Promise<CheckResult> {
  const plans = rolloutPlans(o.seed, o.rollouts, o.pods, {
    ...(kind.changes ? { changes: kind.changes } : {}),
    ...(kind.perNode ? { replicas: w.nodes } : {}),
  }).map((p) => kind.plan?.(p) ?? p);
  const podsFigure = kind.perNode ? `${w.nodes} (one per node)` : `${o.pods[0]}–${o.pods[1]}`;
  const program = w.controllers.get(kind.app)!;
  // the program owning the pods when that is another one (a UnitedDeployment's: its subsets' CloneSet program)
  const owner = kind.subsets ? w.controllers.get(kind.subsets.app) : undefined;
  if (o.parallel > 1 && kind.perNode)
    throw new RegattaError('REGATTA_CHAOS_R1', `R1 ${kind.id}: ${PER_NODE_SERIAL}`);
  if (kind.subsets && !owner)
    throw new RegattaError(
      'REGATTA_CHAOS_R1',
      `R1 ${kind.id}: the ${kind.subsets.app} program is not running`,
    );
  const faults = faultSchedule(o.seed, {
    horizonMs: 6 * 3600_000,
    gapMs: o.gapMs,
    downMs: [500, 3000],
    kinds: owner ? OWNER_FAULT_KINDS : FAULT_KINDS,
  });
  const crashCount = () => program.crashes.length + w.watcher.crashes.length + (owner?.crashes.length ?? 0);
  const crashesBefore = crashCount();
  const nodes = await nodeLabels(w);
  const inFlight = new InFlight();
  const apiFaults = startRowApiFaults(w.apiProxy, w.watcherProxy, o.apiFaults);
  const mirrorKinds: KindRef[] = [
    KINDS.pods,
    ...(kind.mirrorKinds ?? [{ ...kind.resource, namespaced: true }]),
  ];
  const tally = new RolloutTally();
  const violations = tally.violations;
  const mirror = new MirrorChecks(w, mirrorKinds, violations);
  w.log(
    `R1: ${plans.length} rollouts of ${kind.title}s, ${podsFigure} pods, seed ${o.seed}, a fault every ${o.gapMs[0] / 1000}–${o.gapMs[1] / 1000} s${o.parallel > 1 ? `, ${o.parallel} at once` : ''}`,
  );

  const injector = startFaultInjector(
    w,
    faults,
    (kind, downMs) =>
      kind === 'kill-watcher'
        ? w.watcher.kill9(downMs)
        : kind === 'kill-nats'
          ? killNats(w.cluster.dir, downMs, w.now)
          : kind === 'kill-owner' && owner
            ? owner.kill9(downMs)
            : program.kill9(downMs), // kill-controller (kill-owner is drawn only when there is an owner)
    () => inFlight.now(),
  );
  const injected = injector.injected;

  try {
    for (const group of inGroups(plans, o.parallel)) {
      // the group's rollouts at once, each its own namespace (its checker's), workload and pods
      const rs = await runGroup(group, (plan) =>
        oneRollout(w, obs, kind, plan, nodes, (i) => inFlight.enter(i)),
      );
      const indices = group.map((p) => p.index);
      await mirror.check(`after ${rolloutsLabel(indices)}`);
      for (const plan of group)
        await removeWorkload(w.client, kind.ref(rolloutNamespace(kind, plan), R1_NAME));
      inFlight.leave(indices);
      for (const { plan, r } of rs)
        tally.add(plan.index, `${plan.change}, ${plan.replicas} pods`, r, injected);
    }
  } finally {
    apiFaults.stop();
    await injector.stop();
  }
  const selfTest = await mirror.selfTest(kind.id);
  await mirror.check('at the end (faults stopped, workloads removed)');
  return {
    id: 'R1',
    title: `chaos rollouts (${kind.title})`,
    figures: [
      tally.completedFigure(plans.length),
      ['kinds', countBy(plans.map((p) => p.change))],
      ['pods per rollout', `${podsFigure} (seed ${o.seed})`],
      ...parallelFigure(o.parallel),
      RolloutTally.faultsFigure(injected),
      ['faults by kind', countBy(injected.map((f) => f.kind))],
      ...apiFaultFigures(
        kind.subsets ? `${kind.app} and ${kind.subsets.app} programs` : `${kind.app} program only`,
        apiFaults.counts(),
      ),
      ...mirrorFigures(mirrorKinds, mirror.checks, selfTest),
      ...tally.timeFigures(),
    ],
    violations,
    crashes: crashCount() - crashesBefore,
    notes: [
      `time to recover: from a kill during a rollout to the first pod the ${kind.subsets?.app ?? kind.app} program acted on after the killed process was back (or the rollout end)`,
      'available above the minimum: the fewest available pods seen minus replicas − maxUnavailable, over all rollouts (0: a rollout used its whole budget)',
      mirrorNote(mirrorKinds, o.parallel),
    ],
  };
}

/** A rollout's namespace, its own: its checker's, its workload's (and a UnitedDeployment's subsets'), its pods'. */
const rolloutNamespace = (kind: Workload, plan: RolloutPlan) => `chaos-r1-${kind.id}-${plan.index}`;
const R1_NAME = 'r1';

/** One rollout, checked from its change to its end; the caller compares the mirror, then removes the workload. */
async function oneRollout(
  w: World,
  obs: Observer,
  kind: Workload,
  plan: RolloutPlan,
  nodes: NodeLabels,
  setChecking: (i: number) => void,
): Promise<RolloutOutcome> {
  const ns = rolloutNamespace(kind, plan);
  const name = R1_NAME;
  const ref = kind.ref(ns, name);
  const { replicas: n, scaleTo: n2 } = plan;
  const shape = shapeOf(kind, plan, ns, name);
  await createWorkloadReady(w.client, obs, {
    ns,
    object: kind.object(shape),
    replicas: n,
    reading: {
      identity: kind.identity,
      ...(kind.subsets ? { group: kind.subsets.group, revisionLabel: kind.subsets.revisionLabel } : {}),
    },
    done: kind.done,
    describe: kind.describe,
  });
  await sleep(1000);
  const checker = obs.checker(ns);
  // the workloads as they are now: a UnitedDeployment's subsets may hold the remainder anywhere (workloads/ud.ts)
  const held = obs.workloadsIn(ns);
  const bounds = kind.bounds(plan, shape.partition, nodes, held);
  setChecking(plan.index);
  const changeAt = w.now();
  checker.begin(bounds, changeAt);
  let gen =
    (await w.client.patch(ref, changeOps(plan, IMAGE_NEW, kind.podTemplatePath), { type: 'json' })).metadata
      ?.generation ?? Infinity;
  const timeoutMs = 900_000;
  for (const p of plan.partitions) {
    // each step: the status shows replicas − partition updated and ready, then the next partition; the checker
    // takes the lower partition's bounds just before the patch (a few ms looser, never a false violation)
    const want = n - p;
    if (p !== n) {
      checker.setBounds(kind.bounds(plan, p, nodes, held), w.now());
      gen =
        (await w.client.patch(ref, kind.partitionPatch(p, plan), { type: 'merge' })).metadata?.generation ??
        Infinity;
    }
    const g = gen;
    const step = await obs.until(ns, name, (c) => kind.stepDone(c, g, want, n), timeoutMs);
    if (step === undefined) break;
  }
  const doneAt = await obs.until(ns, name, (c) => kind.done(c, gen, n2), timeoutMs);
  await sleep(2000); // late pod events still count
  checker.end();
  if (doneAt === undefined)
    checker.report(
      'incomplete',
      w.now(),
      `not rolled out in ${timeoutMs / 60_000} min: ${kind.describe(obs.workload(ns, name))}`,
    );
  else {
    const revision = kind.updateRevision(obs.workload(ns, name));
    const active = checker.active();
    const stale = active.filter((p) => p.revision !== revision || !p.available);
    const traces = obs.tracesOf(ns, name, revision, kind.tracePerGeneration ? gen : undefined);
    if (traces.length !== 1)
      checker.report(
        'trace',
        w.now(),
        `${traces.length} rollout-trace ids for revision ${revision}${kind.tracePerGeneration ? `, generation ${gen}` : ''}`,
      );
    for (const problem of kind.settledProblems?.(obs.workload(ns, name), obs.workloadsIn(ns), plan) ?? [])
      checker.report('allocation', w.now(), problem);
    if (active.length !== n2 || stale.length > 0)
      checker.report(
        'status',
        w.now(),
        `status says done, the pods say ${active.length} pods (want ${n2}), ${stale.length} not ready at ${revision}`,
      );
  }
  const margin = checker.minAvailableSeen - bounds.minAvailable;
  return { violations: checker.violations, actions: checker.actions, changeAt, doneAt, margin };
}

/** The cluster's nodes and their labels. */
async function nodeLabels(w: World): Promise<NodeLabels> {
  const list = await w.client.listAll({ apiVersion: 'v1', kind: 'Node' });
  return Object.fromEntries(list.items.map((n) => [n.metadata?.name ?? '', n.metadata?.labels ?? {}]));
}
