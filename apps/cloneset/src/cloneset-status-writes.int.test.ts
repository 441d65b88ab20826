// How often the CloneSet's status is written (issue 17, docs/adr/0050-workload-status-write-cadence.md): a change
// only in counters waits for the status write interval, so an in-place rollout of N pods writes the status about
// once per interval (2 s) plus the changes users wait on, not once per pod event; a scale's pod count, readiness and
// availability wait for the prompt interval at most (500 ms, docs/adr/0070-prompt-status-changes.md); and the final
// status is written, correct, and stays. The writes are counted from a watch on the CloneSet: each event whose
// status differs from the one before is one status write.
import { afterAll, describe, expect, it } from 'vitest';
import { type KubeObject, ListWatcher } from '@regatta/kube';
import { PROMPT_STATUS_WRITE_INTERVAL_MS, STATUS_WRITE_INTERVAL_MS } from '@regatta/workload';
import { type CloneSet, specOf, useCloneSetScenarios } from './testing/scenario-harness.js';
import { sleep } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();
const { namespace, pods, cloneSet, setImage, settled } = h;

const N = 20;
/**
 * Status writes a scale or rollout may make at once, besides the paced counters: the generation and revisions
 * observed, the Progressing condition's changes, the settled status (with the current revision).
 */
const URGENT = 5;

/** The CloneSet's status as each watch event shows it, when it differs from the one before. */
function recordStatusWrites(ns: string, name: string) {
  const writes: { at: number; status: string }[] = [];
  let last = 'null';
  const seen = (o: KubeObject) => {
    if (o.metadata?.namespace !== ns || o.metadata.name !== name) return;
    const status = JSON.stringify((o as CloneSet).status ?? null);
    if (status === last) return;
    last = status;
    writes.push({ at: Date.now(), status });
  };
  const lw = new ListWatcher(
    h.client,
    { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet', plural: 'clonesets' },
    {
      onList: async (objs) => objs.forEach(seen),
      onUpsert: async (o) => seen(o),
      onDelete: async () => undefined,
    },
  );
  lw.start();
  return {
    stop: () => lw.stop(),
    /** Writes seen in [from, to]. */
    between: (from: number, to: number) => writes.filter((w) => w.at >= from && w.at <= to),
    last: () => writes.at(-1),
  };
}

/** Counter writes are paced by the interval; the rest is bounded by URGENT. */
const bound = (ms: number) => URGENT + Math.ceil(ms / STATUS_WRITE_INTERVAL_MS) + 1;
/** A scale's counts are prompt (ADR 0070): paced by the prompt interval. */
const scaleBound = (ms: number) => URGENT + Math.ceil(ms / PROMPT_STATUS_WRITE_INTERVAL_MS) + 1;
/** A rollout's tail (the last pod updated, not yet ready) is no longer a rollout: one prompt write more. */
const rolloutBound = (ms: number) => bound(ms) + 1;

let stopWatch: (() => void) | undefined;
afterAll(() => stopWatch?.());

describe('CloneSet status writes (issue 17)', () => {
  it(`a scale to ${N} pods and an in-place rollout of them write the status on the cadence, and end with the right status`, async () => {
    const ns = await namespace();
    const rec = recordStatusWrites(ns, 'paced');
    stopWatch = rec.stop;
    await sleep(1_000); // the watch is established

    // scale 0 → N
    const created = Date.now();
    await h.createDemo(ns, 'paced', (cs) => {
      cs.spec.replicas = N;
      // one pod at a time: the rollout's counter changes are spread over many seconds
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
    });
    await settled(ns, 'paced', N, 120_000);
    const scaled = Date.now();
    await sleep(2 * STATUS_WRITE_INTERVAL_MS);
    const scaleWrites = rec.between(created, Date.now()).length;
    expect(scaleWrites).toBeGreaterThan(0);
    expect(scaleWrites).toBeLessThanOrEqual(scaleBound(scaled - created));

    // in-place rollout of the N pods
    const patched = Date.now();
    await setImage(ns, 'paced', 'nginx:mainline');
    const done = await settled(ns, 'paced', N, 120_000);
    const rolled = Date.now();
    // no write was left pending: the status seen at done is the last one, some intervals later
    await sleep(3 * STATUS_WRITE_INTERVAL_MS);
    const rolloutWrites = rec.between(patched, Date.now());
    expect(rolloutWrites.length).toBeGreaterThan(1);
    expect(rolloutWrites.length).toBeLessThanOrEqual(rolloutBound(rolled - patched));

    const final = await cloneSet(ns, 'paced');
    expect(final.status).toEqual(done.status);
    expect(JSON.stringify(final.status)).toBe(rec.last()?.status);
    expect(final.status).toMatchObject({
      observedGeneration: final.metadata?.generation,
      replicas: N,
      readyReplicas: N,
      availableReplicas: N,
      updatedReplicas: N,
      updatedReadyReplicas: N,
      expectedUpdatedReplicas: N,
      currentRevision: final.status?.updateRevision,
    });
    const live = await pods(ns);
    expect(live).toHaveLength(N);
    expect(live.every((p) => specOf(p).containers[0]!.image === 'nginx:mainline')).toBe(true);
    console.log(
      `status writes: scale 0→${N} ${scaleWrites} in ${scaled - created} ms, ` +
        `rollout ${rolloutWrites.length} in ${rolled - patched} ms`,
    );
  });
});
