// R8, the control plane fails mid-rollout (issue 47, "the faults real clusters have"): an in-place image rollout over
// N pods (maxUnavailable 20 %); when a third of them are updated kube-apiserver is killed -9 and started again 5 s
// later, and when two thirds are, etcd is (the API server stays up, answering errors and hanging requests until its
// store is back). Every program loses its API connection — the watcher its watches, the controllers their writes —
// and must come back: a program that loses its leader lease meanwhile stops, as kube-controller-manager does, and is
// started again as a kubelet would (counted apart; any other exit is a crash). The independent checker (its
// own watches, resumed after each outage) holds the rollout to: no pod created or deleted, never fewer available than
// replicas − maxUnavailable while it can see, the rollout completes, status agrees with the pods.
import { fmt } from '../bench/common.js';
import { removeCloneSet } from './cloneset.js';
import { startInPlaceCheck } from './inplace-rollout.js';
import type { Observer } from './observer.js';
import { killClusterProcess, type Outage } from './programs.js';
import type { CheckResult } from './report.js';
import type { World } from './world.js';

/** How long each control-plane process stays down. */
const DOWN_MS = 5000;

export async function checkControlPlaneFaults(w: World, obs: Observer, o: { pods: number }): Promise<CheckResult> {
  const programs = [w.watcher, ...w.controllers.values()];
  const exits = () => programs.flatMap((p) => p.crashes);
  const before = exits().length;
  const rollout = await startInPlaceCheck(w, obs, { id: 'R8', ns: 'chaos-r8', pods: o.pods });
  const { ns, name, n, budget, checker, t0 } = rollout;
  const outages: { process: string; updated: number; outage: Outage }[] = [];
  for (const [process, share] of [
    ['kube-apiserver', 1 / 3],
    ['etcd', 2 / 3],
  ] as const) {
    const at = Math.ceil(n * share);
    const updated = await rollout.untilUpdated(at);
    if (updated === undefined) {
      rollout.incomplete(`${at} pods not updated in 10 min`);
      break;
    }
    const outage = await killClusterProcess(w.cluster.dir, process, DOWN_MS, w.now);
    w.log(`R8: ${process} killed -9 with ${updated}/${n} updated; ready again after ${fmt((outage.backAt - outage.at) / 1000)} s`);
    outages.push({ process, updated, outage });
  }

  const { done } = await rollout.finish();
  const exited = exits().slice(before);
  const leaseLost = exited.filter((c) => c.leaseLost);
  const last = outages.at(-1)?.outage;
  const recoverAfter = last === undefined ? undefined : checker.actions.find((a) => a >= last.backAt);
  await removeCloneSet(w.client, ns, name);
  return {
    id: 'R8',
    title: 'control plane killed mid-rollout',
    figures: [
      ['pods (in place)', String(n)],
      ...outages.map(
        ({ process, updated, outage }): [string, string] => [
          `${process} killed -9 (down ${DOWN_MS / 1000} s)`,
          `at ${updated}/${n} updated; ready again after ${fmt((outage.backAt - outage.at) / 1000)} s`,
        ],
      ),
      [
        'etcd back → next pod update',
        recoverAfter === undefined || last === undefined ? 'n/a' : `${fmt((recoverAfter - last.backAt) / 1000)} s`,
      ],
      ['rollout (patch → done)', done === undefined ? 'did not finish' : `${fmt((done - t0) / 1000)} s`],
      ['pods created / deleted', `${checker.creates} / ${checker.deletes}`],
      ['fewest available seen (required)', `${checker.minAvailableSeen} (${n - budget})`],
      [
        'programs stopped on a lost lease (started again)',
        leaseLost.length === 0 ? '0' : `${leaseLost.length}: ${leaseLost.map((c) => c.name).join(', ')}`,
      ],
    ],
    violations: checker.violations,
    crashes: exited.length - leaseLost.length,
    notes: [],
  };
}
