// R6, restart mid-rollout: an in-place image rollout over N pods; when a third of them are updated the CloneSet
// program is killed -9 and started again 2 s later. The independent checker (API watches, not the bus) holds the
// rollout to: no pod created or deleted (uids stable), never fewer available than replicas − maxUnavailable, the
// rollout completes, one trace id for the rollout (the regatta.dev/rollout-trace record, docs/adr/0007), and no
// extra pod writes after the restart: the API server's audit log shows at most the in-place protocol's writes per pod
// (docs/adr/0049) from the CloneSet program (r6-writes.ts).
import { join } from 'node:path';
import { fmt } from '../bench/common.js';
import { removeCloneSet } from './cloneset.js';
import { startInPlaceCheck } from './inplace-rollout.js';
import type { Observer } from './observer.js';
import type { CheckResult } from './report.js';
import type { World } from './world.js';
import { IN_PLACE_WRITES_PER_POD, podWritesViolation, podWritesOf } from './r6-writes.js';

/** The audit log's file in the suite's cluster folder (writes at Metadata level). */
export const AUDIT_LOG = 'audit.log';

export async function checkRestartMidRollout(
  w: World,
  obs: Observer,
  o: { pods: number },
): Promise<CheckResult> {
  const program = w.controllers.get('cloneset')!;
  const crashesBefore = program.crashes.length + w.watcher.crashes.length;
  const rollout = await startInPlaceCheck(w, obs, { id: 'R6', ns: 'chaos-r6', pods: o.pods });
  const { ns, name, n, budget, checker, t0, patchedMs: fromMs } = rollout;
  const third = Math.ceil(n / 3);
  const updatedAtKill = await rollout.untilUpdated(third);
  if (updatedAtKill === undefined)
    throw new Error(`R6: ${third} pods not updated in 10 min: ${rollout.status()}`);
  const killMs = Date.now(); // the audit log's clock
  const outage = await program.kill9(2000);
  w.log(
    `R6: cloneset killed -9 with ${updatedAtKill}/${n} updated; back after ${fmt((outage.backAt - outage.at) / 1000)} s`,
  );

  let traces: string[] = [];
  const { done } = await rollout.finish((revision) => {
    traces = obs.tracesOf(ns, name, revision);
    if (traces.length !== 1)
      checker.report(
        'trace',
        w.now() - t0,
        `${traces.length} trace records for revision ${revision}: ${traces.join(', ') || 'none'}`,
      );
  });
  const writes = await podWritesOf(join(w.cluster.dir, AUDIT_LOG), { fromMs, toMs: Date.now(), killMs });
  const extra = podWritesViolation(writes, w.now() - t0);
  const recoverAfter = checker.actions.find((a) => a >= outage.backAt);
  await removeCloneSet(w.client, ns, name);
  return {
    id: 'R6',
    title: 'restart mid-rollout',
    figures: [
      ['pods (in place)', String(n)],
      ['updated at the kill', `${updatedAtKill}/${n}`],
      ['controller down → ready', `${fmt((outage.backAt - outage.at) / 1000)} s`],
      [
        'kill → next pod update',
        recoverAfter === undefined ? 'n/a' : `${fmt((recoverAfter - outage.at) / 1000)} s`,
      ],
      ['rollout (patch → done)', done === undefined ? 'did not finish' : `${fmt((done - t0) / 1000)} s`],
      ['pods created / deleted', `${checker.creates} / ${checker.deletes}`],
      ['fewest available (required)', `${checker.minAvailableSeen} (${n - budget})`],
      ['trace ids for the rollout', String(traces.length)],
      [
        'CloneSet program pod writes (failed) / most on one pod / pods with a write cut by the kill',
        `${writes.writes} (${writes.failed}) / ${writes.maxPerPod} (protocol ${IN_PLACE_WRITES_PER_POD}) / ${writes.inFlightAtKill}`,
      ],
    ],
    violations: [...checker.violations, ...(extra ? [extra] : [])],
    crashes: program.crashes.length + w.watcher.crashes.length - crashesBefore,
    notes: [],
  };
}
