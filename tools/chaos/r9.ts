// R9, a paused ("zombie") leader (issue 47, "programs as they ship"): the CloneSet program runs as two replicas, as
// the chart ships it. During an in-place image rollout over N pods (maxUnavailable 20 %), when a third are updated
// the leader is SIGSTOPped for 20 s, past its 8 s lease: the standby must take over and carry the rollout on. Then the
// old leader is SIGCONTed: it must learn it lost the lease and stop before writing anything (judged from the API
// server's audit log by its user agent, r9-zombie.ts), and is started again as a kubelet would (a standby from then
// on). The independent checker holds the rollout to: no pod created or deleted, never fewer available than allowed,
// the rollout completes, status agrees with the pods. At the end the second replica is stopped (its lease released),
// so the checks after this one find one replica again.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fmt } from '../bench/common.js';
import { readAudit } from '../bench/rollout-audit.js';
import { removeCloneSet } from './cloneset.js';
import { startInPlaceCheck } from './inplace-rollout.js';
import type { Observer } from './observer.js';
import { AUDIT_LOG } from './r6.js';
import { writesAfterResume, zombieViolation } from './r9-zombie.js';
import type { CheckResult } from './report.js';
import type { World } from './world.js';

/** How long the leader is paused: well past its lease (8 s, libs/kit bootstrap.ts) and a standby's retry. */
const PAUSE_MS = 20_000;

export async function checkPausedLeader(w: World, obs: Observer, o: { pods: number }): Promise<CheckResult> {
  const leader = w.controllers.get('cloneset')!;
  const standby = w.replica('cloneset');
  await standby.start();
  const programs = [w.watcher, leader, standby];
  const exitsBefore = programs.map((p) => p.crashes.length);
  const rollout = await startInPlaceCheck(w, obs, { id: 'R9', ns: 'chaos-r9', pods: o.pods, note: '; two replicas' });
  const { ns, name, n, budget, checker, t0 } = rollout;
  const third = Math.ceil(n / 3);
  const mid = await rollout.untilUpdated(third);
  let zombie: { at: number; what: string }[] = [];
  let takeoverMs: number | undefined;
  let updatedAtPause = 0;
  if (mid === undefined) {
    rollout.incomplete(`${third} pods not updated in 10 min`);
  } else {
    updatedAtPause = mid;
    leader.pause();
    const pausedAt = Date.now();
    w.log(`R9: leader SIGSTOPped with ${updatedAtPause}/${n} updated`);
    const moved = await obs.until(ns, name, (c) => (c.status?.updatedReplicas ?? 0) > updatedAtPause, PAUSE_MS * 3);
    if (moved !== undefined) takeoverMs = Date.now() - pausedAt;
    await sleep(Math.max(0, pausedAt + PAUSE_MS - Date.now()));
    const exits = leader.crashes.length;
    leader.resume();
    const resumedAt = Date.now();
    w.log(`R9: leader SIGCONTed after ${fmt((resumedAt - pausedAt) / 1000)} s`);
    // it stops on the lost lease (and is started again 1 s later): its writes are judged until then
    const deadline = resumedAt + 60_000;
    while (leader.crashes.length === exits && Date.now() < deadline) await sleep(100);
    zombie = writesAfterResume(await readAudit(join(w.cluster.dir, AUDIT_LOG)), {
      identity: 'chaos-cloneset',
      fromMs: resumedAt,
      toMs: Date.now(),
    });
  }

  const { done } = await rollout.finish();
  const zombieFound = zombieViolation(zombie, w.now() - t0);
  await removeCloneSet(w.client, ns, name);
  // back to one replica: the second releases its lease on stop, the first (a standby since its restart) leads again
  await standby.stop();
  const exited = programs.flatMap((p, i) => p.crashes.slice(exitsBefore[i]));
  const leaseLost = exited.filter((c) => c.leaseLost);
  return {
    id: 'R9',
    title: 'paused (zombie) leader',
    figures: [
      ['pods (in place), replicas', `${n}, 2`],
      ['updated at the pause', `${updatedAtPause}/${n}`],
      ['pause → the standby’s first pod update', takeoverMs === undefined ? 'none' : `${fmt(takeoverMs / 1000)} s`],
      ['the paused leader’s writes after its resume', String(zombie.length)],
      ['rollout (patch → done)', done === undefined ? 'did not finish' : `${fmt((done - t0) / 1000)} s`],
      ['pods created / deleted', `${checker.creates} / ${checker.deletes}`],
      ['fewest available seen (required)', `${checker.minAvailableSeen} (${n - budget})`],
      ['programs stopped on a lost lease (started again)', leaseLost.map((c) => c.name).join(', ') || '0'],
    ],
    violations: [...checker.violations, ...(zombieFound ? [zombieFound] : [])],
    crashes: exited.length - leaseLost.length,
    notes: takeoverMs === undefined ? ['the standby never moved the rollout on while the leader was paused'] : [],
  };
}
