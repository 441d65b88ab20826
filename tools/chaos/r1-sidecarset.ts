// R1, chaos rollouts of SidecarSet sidecar upgrades (docs/reliability-checks.md, R1): per rollout, a SidecarSet of one or two
// ColdUpgrade sidecars, then a CloneSet whose pods it selects, injected by the SidecarSet program's pod webhook at
// creation; then the sidecars' image is changed (sidecar-rollouts.ts: at once, in partition steps, canaries first, or
// with a scale-up of the CloneSet made while the SidecarSet program is down, so its creates are refused by the webhook's
// fail-safe and retried by the CloneSet program until it is back). Meanwhile a seeded fault schedule kills -9 the
// SidecarSet program, the CloneSet program, the watcher and nats-server. The independent checker (checker.ts) holds
// each rollout, seeing pods as sidecarPodView does: maxUnavailable of the matched pods (a sidecar being upgraded
// counts), no pod created or deleted but the scale-up's, the partition, no pod ever without its sidecars; at the end
// every pod runs the new sidecar image and the SidecarSet's status counts them all.
// With API faults (r1-faults.ts), the SidecarSet program reaches the API server through a fault-injecting proxy of its
// own (the CloneSet program owning the pods does not: its faults are the CloneSet row's), the watcher through its own.
// After each rollout (each group of them), the SidecarSets and CloneSets still in place, and at the end, the watcher's
// mirror of pods, SidecarSets and CloneSets must come to agree with the API server (r1-mirror.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pod } from '@regatta/api';
import { KINDS } from '@regatta/api';
import { RegattaError } from '@regatta/errors';
import type { KubeObject } from '@regatta/kube';
import { fmt } from '../bench/common.js';
import { IMAGE_NEW, IMAGE_OLD } from '../bench/rollout-config.js';
import { Follower } from '../bench/rollout-watch.js';
import { describeSidecarSet, sidecarSetDone } from '../bench/sidecarset-figures.js';
import { SIDECARSETS } from '../bench/sidecarset-upgrade.js';
import { createReady, refOf } from './cloneset.js';
import { startFaultInjector } from './fault-injector.js';
import { apiFaultFigures, startProgramProxy, startRowApiFaults } from './r1-faults.js';
import { MirrorChecks, mirrorFigures, mirrorNote } from './r1-mirror.js';
import {
  InFlight,
  inGroups,
  parallelFigure,
  rolloutsLabel,
  runGroup,
  type R1Options,
} from './r1-parallel.js';
import { RolloutTally, type RolloutOutcome } from './rollout-tally.js';
import { removeWorkload, type Observer } from './observer.js';
import { killNats, type SupervisedProgram } from './programs.js';
import { countBy, type CheckResult } from './report.js';
import { faultSchedule, type FaultKind } from './schedule.js';
import {
  CANARY_LABEL,
  firstPartition,
  imageOps,
  notAtImage,
  sidecarBounds,
  sidecarNames,
  sidecarPlans,
  sidecarPodView,
  sidecarSetObject,
  sidecarStatus,
  sidecarStepDone,
  type SidecarPlan,
} from './sidecar-rollouts.js';
import { deleteConfigurations } from './webhook-configs.js';
import type { World } from './world.js';

const FAULTS: readonly FaultKind[] = ['kill-controller', 'kill-owner', 'kill-watcher', 'kill-nats'];
/** How long the SidecarSet program is down around a scale-up (its creates refused meanwhile). */
const SCALE_OUTAGE_MS = 3000;
const TIMEOUT_MS = 600_000;
const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;
/** What the watcher's mirror is compared in: the pods, the SidecarSets, the CloneSets owning the pods. */
const MIRROR_KINDS = [KINDS.pods, KINDS.sidecarsets, KINDS.clonesets];
/** The proxy of the SidecarSet program's own draws its faults from the run's seed + this (world.ts: + 0, + 1). */
const PROXY_SEED = 2;

/** `f` again every 0.5 s while it fails (a webhook whose program is down refuses), up to 2 min. */
async function retrying<T>(w: World, what: string, f: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (let tries = 1; ; tries++) {
    try {
      return await f();
    } catch (err) {
      if (Date.now() > deadline)
        throw new RegattaError('REGATTA_CHAOS_R1_SIDECAR', `${what}: failing for 2 min`, { cause: err });
      if (tries === 1) w.log(`R1: ${what} refused (${String(err).slice(0, 120)}); trying again`);
      await sleep(500);
    }
  }
}

/** One kill at a time: the schedule's and the scale-ups' own never overlap on one program. */
function serial() {
  let chain: Promise<unknown> = Promise.resolve();
  return <T>(f: () => Promise<T>): Promise<T> => {
    const run = chain.then(f);
    chain = run.catch(() => undefined);
    return run;
  };
}

export async function checkSidecarRollouts(
  w: World,
  obs: Observer,
  /** `parallel`: each rollout its own SidecarSet, CloneSet, namespace and pods. */
  o: R1Options & { apiFaults: number },
): Promise<CheckResult> {
  const plans = sidecarPlans(o.seed, o.rollouts, o.pods);
  const faults = faultSchedule(o.seed, {
    horizonMs: 6 * 3600_000,
    gapMs: o.gapMs,
    downMs: [500, 3000],
    kinds: FAULTS,
  });
  const owner = w.controllers.get('cloneset');
  if (!owner) throw new RegattaError('REGATTA_CHAOS_R1_SIDECAR', 'R1 SidecarSet needs the CloneSet program');
  // with --api-faults (the world's proxies started), a proxy in front of the SidecarSet program alone
  const proxy = w.apiProxy ? await startProgramProxy(w, 'sidecarset', o.seed + PROXY_SEED) : undefined;
  const scs = w.program('sidecarset', {
    webhook: true,
    ...(proxy ? { env: { KUBECONFIG: proxy.kubeconfig } } : {}),
  });
  // the proxy is the check's own (the world does not close it): an open server would keep the suite from exiting
  await scs.start().catch(async (err: unknown) => {
    await proxy?.close();
    throw err;
  });
  const crashesBefore = owner.crashes.length + w.watcher.crashes.length;
  const exclusive = serial();
  const inFlight = new InFlight();
  const injector = startFaultInjector(
    w,
    faults,
    (kind, downMs) =>
      exclusive(() =>
        kind === 'kill-controller'
          ? scs.kill9(downMs)
          : kind === 'kill-owner'
            ? owner.kill9(downMs)
            : kind === 'kill-watcher'
              ? w.watcher.kill9(downMs)
              : killNats(w.cluster.dir, downMs, w.now),
      ),
    () => inFlight.now(),
  );
  w.log(
    `R1: ${plans.length} SidecarSet rollouts, ${o.pods[0]}–${o.pods[1]} pods, seed ${o.seed}, a fault every ${o.gapMs[0] / 1000}–${o.gapMs[1] / 1000} s${o.parallel > 1 ? `, ${o.parallel} at once` : ''}`,
  );
  const tally = new RolloutTally();
  const refused: number[] = [];
  const apiFaults = startRowApiFaults(proxy, w.watcherProxy, o.apiFaults);
  const mirror = new MirrorChecks(w, MIRROR_KINDS, tally.violations);
  let selfTest: string;
  try {
    for (const group of inGroups(plans, o.parallel)) {
      const rs = await runGroup(group, (plan) =>
        oneRollout(w, obs, plan, scs, exclusive, (i) => inFlight.enter(i)),
      );
      const indices = group.map((p) => p.index);
      await mirror.check(`after ${rolloutsLabel(indices)}`);
      for (const plan of group) await removeRollout(w, plan);
      inFlight.leave(indices);
      for (const { plan, r } of rs) {
        if (r.refused !== undefined) refused.push(r.refused);
        tally.add(
          plan.index,
          `${plan.change}, ${plan.replicas} pods, ${plan.sidecars} sidecar(s)`,
          r,
          injector.injected,
        );
      }
    }
    apiFaults.stop();
    await injector.stop();
    // with the SidecarSet program still up (the watcher mirrors SidecarSets for it)
    selfTest = await mirror.selfTest('sidecarset');
    await mirror.check('at the end (faults stopped, SidecarSets and CloneSets removed)');
  } finally {
    apiFaults.stop();
    await injector.stop();
    await scs.stop();
    await proxy?.close();
    // its pod webhook entries (failurePolicy Fail) must not outlive it
    await deleteConfigurations(w, 'sidecarset');
  }
  const injected = injector.injected;
  return {
    id: 'R1',
    title: 'chaos rollouts (SidecarSet sidecar upgrades)',
    figures: [
      tally.completedFigure(plans.length),
      ['kinds', countBy(plans.map((p) => `${p.change} (${p.sidecars} sidecar${p.sidecars > 1 ? 's' : ''})`))],
      ['pods per rollout', `${o.pods[0]}–${o.pods[1]} (seed ${o.seed})`],
      ...parallelFigure(o.parallel),
      RolloutTally.faultsFigure(injected),
      ['faults by kind', countBy(injected.map((f) => f.kind))],
      ...apiFaultFigures('sidecarset program only', apiFaults.counts()),
      ...mirrorFigures(MIRROR_KINDS, mirror.checks, selfTest),
      [
        'scale-ups with the SidecarSet program down: creates refused (FailedCreate events)',
        refused.length ? refused.join(', ') : 'none',
      ],
      ...tally.timeFigures(),
    ],
    violations: tally.violations,
    crashes: scs.crashes.length + owner.crashes.length + w.watcher.crashes.length - crashesBefore,
    notes: [
      'kill-controller: the SidecarSet program (its webhooks too); kill-owner: the CloneSet program owning the pods',
      'available: Ready, not being deleted, every sidecar ready at the image its spec names (a sidecar being upgraded is unavailable)',
      `a scale-up is made with the SidecarSet program killed for ${SCALE_OUTAGE_MS / 1000} s: its creates are refused (FailedCreate), the CloneSet program retries, and no pod may be created without its sidecars`,
      mirrorNote(MIRROR_KINDS, o.parallel),
    ],
  };
}

/** A rollout's namespace (its checker's, its CloneSet's and pods'), its CloneSet and its SidecarSet. */
function namesOf(plan: SidecarPlan) {
  return {
    ns: `chaos-r1-sidecarset-${plan.index}`,
    name: `r1-scs-${plan.index}`,
    setName: `chaos-r1-${plan.index}`,
  };
}

const setRefOf = (name: string) => ({ ...SCS, name });

/** The rollout's CloneSet (and its pods), then its SidecarSet (its webhook refuses while its program is down). */
async function removeRollout(w: World, plan: SidecarPlan): Promise<void> {
  const { ns, name, setName } = namesOf(plan);
  await removeWorkload(w.client, refOf(ns, name));
  await retrying(w, `deleting ${setName}`, () => w.client.delete(setRefOf(setName)));
}

/** One rollout, checked from its change to its end; the caller compares the mirror, then removes it. */
async function oneRollout(
  w: World,
  obs: Observer,
  plan: SidecarPlan,
  scs: SupervisedProgram,
  exclusive: <T>(f: () => Promise<T>) => Promise<T>,
  setChecking: (i: number) => void,
): Promise<
  RolloutOutcome & {
    /** A scale-up's FailedCreate events. */
    refused: number | undefined;
  }
> {
  const { ns, name, setName } = namesOf(plan);
  const { replicas: n, scaleTo: n2 } = plan;
  const sidecars = sidecarNames(plan);
  const setRef = setRefOf(setName);
  const checker = obs.checker(ns, undefined, sidecarPodView(setName, sidecars));
  const created = await retrying(w, `creating SidecarSet ${setName}`, () =>
    w.client.create(sidecarSetObject(plan, setName, name, IMAGE_OLD)),
  );
  const follower = new Follower<KubeObject>(w.client, SIDECARSETS, '', setName);
  try {
    // observed: its pod webhook entry holds its selector (docs/sidecarset.md)
    const gen0 = created.metadata?.generation ?? 1;
    const observed = (s: KubeObject) => (sidecarStatus(s).observedGeneration ?? 0) >= gen0;
    if ((await follower.until(observed, TIMEOUT_MS)) === undefined)
      throw new RegattaError(
        'REGATTA_CHAOS_R1_SIDECAR',
        `${setName} not observed: ${describeSidecarSet(follower.latest)}`,
      );
    await createReady(w.client, obs, {
      ns,
      name,
      replicas: n,
      type: 'InPlaceIfPossible',
      maxUnavailable: 1,
      maxSurge: 0,
    });
    if ((await follower.until((s) => sidecarSetDone(n)(s, gen0), TIMEOUT_MS)) === undefined)
      throw new RegattaError(
        'REGATTA_CHAOS_R1_SIDECAR',
        `${setName}: ${n} pods not matched: ${describeSidecarSet(follower.latest)}`,
      );
    if (plan.canary > 0) await labelCanaries(w, ns, plan.canary);
    await sleep(1000);
    const bounds = sidecarBounds(plan, firstPartition(plan));
    setChecking(plan.index);
    const changeAt = w.now();
    checker.begin(bounds, changeAt);
    const patchSet = async (what: string, ops: unknown, type: 'json' | 'merge') =>
      (await retrying(w, `${setName}: ${what}`, () => w.client.patch(setRef, ops, { type }))).metadata
        ?.generation ?? Infinity;
    let gen = await patchSet('the sidecar image', imageOps(plan, IMAGE_NEW), 'json');
    let refused: number | undefined;
    if (plan.change === 'scale') {
      // the scale-up while the SidecarSet program is down: the CloneSet's creates meet the fail-safe
      await exclusive(async () => {
        await scs.kill();
        await w.client.patch(refOf(ns, name), { spec: { replicas: n2 } }, { type: 'merge' });
        await sleep(SCALE_OUTAGE_MS);
        await scs.start();
      });
    }
    for (const p of plan.partitions) {
      if (p !== n) {
        checker.setBounds(sidecarBounds(plan, p), w.now());
        gen = await patchSet(`partition ${p}`, { spec: { updateStrategy: { partition: p } } }, 'merge');
      }
      const g = gen;
      if ((await follower.until((s) => sidecarStepDone(s, g, n - p, n), TIMEOUT_MS)) === undefined) break;
    }
    if (plan.canary > 0) {
      // the canaries first (at most they updated), then the selector removed: all
      const g = gen;
      if ((await follower.until((s) => sidecarStepDone(s, g, plan.canary, n), TIMEOUT_MS)) !== undefined) {
        checker.setBounds(sidecarBounds(plan, undefined), w.now());
        const release = [{ op: 'remove', path: '/spec/updateStrategy/selector' }];
        gen = await patchSet('the canary selector removed', release, 'json');
      }
    }
    const g = gen;
    const done = await follower.until((s) => sidecarSetDone(n2)(s, g), TIMEOUT_MS);
    const doneAt = done === undefined ? undefined : w.now();
    await sleep(2000); // late pod events still count
    checker.end();
    if (doneAt === undefined)
      checker.report(
        'incomplete',
        w.now(),
        `not rolled out in ${TIMEOUT_MS / 60_000} min: ${describeSidecarSet(follower.latest)}`,
      );
    else {
      const active = checker.active();
      const stale = notAtImage(active, sidecars.length, IMAGE_NEW);
      if (active.length !== n2 || stale.length > 0)
        checker.report(
          'status',
          w.now(),
          `status says done (${describeSidecarSet(follower.latest)}), the pods say ${active.length} (want ${n2}), not at ${IMAGE_NEW} and ready: ${stale.join(', ') || 'none'}`,
        );
    }
    if (plan.change === 'scale') refused = await failedCreates(w, ns);
    w.log(
      `R1: rollout ${plan.index} (${plan.change}) ${doneAt === undefined ? 'NOT DONE' : `done in ${fmt((doneAt - changeAt) / 1000)} s`}${refused === undefined ? '' : `, ${refused} creates refused`}`,
    );
    return {
      violations: checker.violations,
      actions: checker.actions,
      changeAt,
      doneAt,
      margin: checker.minAvailableSeen - bounds.minAvailable,
      refused,
    };
  } finally {
    await follower.stop();
  }
}

/** The canary label on the first `k` pods of `ns` by name (before the rollout; no controller acts on it). */
async function labelCanaries(w: World, ns: string, k: number): Promise<void> {
  const pods = await w.client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: ns });
  const names = pods.items.map((p) => p.metadata?.name ?? '').sort();
  for (const name of names.slice(0, k))
    await w.client.patch(
      { apiVersion: 'v1', kind: 'Pod', namespace: ns, name },
      { metadata: { labels: { [CANARY_LABEL]: 'true' } } },
      { type: 'merge' },
    );
}

/** The CloneSet's FailedCreate events in `ns` (their counts summed). */
async function failedCreates(w: World, ns: string): Promise<number> {
  const events = await w.client.list<KubeObject & { reason?: string; count?: number }>({
    apiVersion: 'v1',
    kind: 'Event',
    namespace: ns,
  });
  return events.items.filter((e) => e.reason === 'FailedCreate').reduce((s, e) => s + (e.count ?? 1), 0);
}
