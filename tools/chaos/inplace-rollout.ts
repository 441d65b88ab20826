// The in-place rollout the fault checks R6, R8 and R9 disturb: a CloneSet of N pods (InPlaceIfPossible, maxUnavailable
// 20 %, maxSurge 0) made ready, then its image patched under the independent checker (no pod created or deleted,
// never fewer available than replicas − maxUnavailable); the check injects its fault once enough pods are updated,
// then waits for the rollout to finish and holds status to the pods.
import { setTimeout as sleep } from 'node:timers/promises';
import { IMAGE_NEW } from '../bench/rollout-config.js';
import { createReady, startInPlaceRollout } from './cloneset.js';
import { describeStatus, rolledOut, type Observer } from './observer.js';
import { absolute } from './schedule.js';
import type { World } from './world.js';

const MAX_UNAVAILABLE = '20%';

export interface InPlaceRollout {
  ns: string;
  name: string;
  n: number;
  /** maxUnavailable as a number of pods. */
  budget: number;
  checker: ReturnType<Observer['checker']>;
  /** The patch's generation. */
  gen: number;
  /** When the patch was sent (the suite's clock); `patchedMs` on the wall clock (the audit log's), just before. */
  t0: number;
  patchedMs: number;
  /** The CloneSet's status in words. */
  status(): string;
  /** Waits (10 min at most) until `at` pods are updated: how many are then, undefined if they were not. */
  untilUpdated(at: number): Promise<number | undefined>;
  /** Reports the rollout incomplete: `what`, then its status. */
  incomplete(what: string): void;
  /**
   * Waits (15 min at most) for the rollout to finish and ends the checker; reports it incomplete if it did not, then
   * `check`'s findings on the update revision, then pods not at it while status says done.
   */
  finish(check?: (revision: string) => void): Promise<{ done: number | undefined; revision: string }>;
}

/** `id` names the check in the log, `note` ends its first line. */
export async function startInPlaceCheck(
  w: World,
  obs: Observer,
  o: { id: string; ns: string; pods: number; note?: string },
): Promise<InPlaceRollout> {
  const { ns } = o;
  const name = 'cs';
  const n = o.pods;
  const budget = absolute(MAX_UNAVAILABLE, n, true); // maxSurge 0: percentages round up
  w.log(
    `${o.id}: CloneSet of ${n} pods (InPlaceIfPossible, maxUnavailable ${MAX_UNAVAILABLE} = ${budget})${o.note ?? ''}`,
  );
  await createReady(w.client, obs, {
    ns,
    name,
    replicas: n,
    type: 'InPlaceIfPossible',
    maxUnavailable: MAX_UNAVAILABLE,
    maxSurge: 0,
  });
  await sleep(2000);

  const patchedMs = Date.now();
  const { checker, gen, t0 } = await startInPlaceRollout(w, obs, { ns, name, n, minAvailable: n - budget });
  const status = () => describeStatus(obs.workload(ns, name));
  const incomplete = (what: string) => checker.report('incomplete', w.now() - t0, `${what}: ${status()}`);
  return {
    ns,
    name,
    n,
    budget,
    checker,
    gen,
    t0,
    patchedMs,
    status,
    incomplete,
    async untilUpdated(at) {
      const reached = await obs.until(
        ns,
        name,
        (c) => (c.status?.observedGeneration ?? 0) >= gen && (c.status?.updatedReplicas ?? 0) >= at,
        600_000,
      );
      return reached === undefined ? undefined : (obs.workload(ns, name)?.status?.updatedReplicas ?? 0);
    },
    async finish(check) {
      const done = await obs.until(ns, name, (c) => rolledOut(c, gen, n), 900_000);
      await sleep(2000); // late pod events still count
      checker.end();
      if (done === undefined) incomplete('not rolled out in 15 min');
      const revision = obs.workload(ns, name)?.status?.updateRevision ?? '';
      check?.(revision);
      const stale = checker.active().filter((p) => p.image !== IMAGE_NEW || p.revision !== revision);
      if (done !== undefined && stale.length > 0)
        checker.report(
          'status',
          w.now() - t0,
          `status says done but ${stale.length} pods are not at ${revision}`,
        );
      return { done, revision };
    },
  };
}
