// How soon a new CloneSet's status shows its pods (issue 50 item 5, docs/adr/0070-prompt-status-changes.md).
// OpenKruise's own e2e specs (test/e2e/apps/v1alpha1/cloneset.go, "pods should be ready when paused=true", "in-place
// update images with the same imageID", …) create a CloneSet with `minReadySeconds` and give `status.replicas` 3 s
// (polled each second) to reach `spec.replicas`. With `minReadySeconds` the pods are ready long before they are
// available, so the status is not settled, and ADR 0050's cadence held the pod count for the rest of the 2 s
// interval started by the status's first write: 2.3–2.4 s on a sandbox. A change of replicas, readiness or
// availability outside a rollout is now written within ADR 0070's prompt interval (500 ms). The issue's goal is 1 s
// (measured: 0.6 s, logged here); the test asserts the structural difference instead of that figure, so that a loaded
// CI machine cannot fail it: under 1.8 s, which the old cadence could never reach (its second write came 2 s after the
// first), with 1.2 s to spare for load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubeObject, ListWatcher } from '@regatta/kube';
import { type CloneSet, useCloneSetScenarios } from './testing/scenario-harness.js';
import { sleep } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();
const { namespace, settled } = h;

const REPLICAS = 3;
const MIN_READY_SECONDS = 5;
/** `status.replicas` equals `spec.replicas` sooner than ADR 0050's merged interval (2 s) could write it. */
const REPLICAS_WITHIN_MS = 1_800;

/** When (ms since the epoch) each CloneSet's status first showed a count, from a watch on CloneSets. */
type Count = 'replicas' | 'readyReplicas' | 'availableReplicas';
const firstSeen = new Map<string, Partial<Record<Count, number>>>();
let watch: ListWatcher | undefined;

function seen(o: KubeObject): void {
  const status = (o as CloneSet).status;
  if (!status) return;
  const key = `${o.metadata?.namespace}/${o.metadata?.name}`;
  const at = firstSeen.get(key) ?? {};
  for (const k of ['replicas', 'readyReplicas', 'availableReplicas'] as const)
    if (status[k] === REPLICAS && at[k] === undefined) at[k] = Date.now();
  firstSeen.set(key, at);
}

beforeAll(async () => {
  watch = new ListWatcher(
    h.client,
    { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet', plural: 'clonesets' },
    {
      onList: async (objs) => objs.forEach(seen),
      onUpsert: async (o) => seen(o),
      onDelete: async () => undefined,
    },
  );
  watch.start();
  await sleep(1_000); // the watch is established
});
afterAll(() => watch?.stop());

/** Creates a CloneSet of REPLICAS pods; returns how long after the create call each count reached REPLICAS. */
async function createAndTime(name: string, minReadySeconds: number | undefined) {
  const ns = await namespace();
  const start = Date.now();
  await h.createDemo(ns, name, (cs) => {
    cs.spec.replicas = REPLICAS;
    if (minReadySeconds !== undefined) cs.spec['minReadySeconds'] = minReadySeconds;
  });
  const key = `${ns}/${name}`;
  await expect.poll(() => firstSeen.get(key)?.readyReplicas, { timeout: 30_000, interval: 50 }).toBeDefined();
  const at = firstSeen.get(key) ?? {};
  const after = (t: number | undefined) => (t === undefined ? undefined : t - start);
  return { ns, replicasMs: after(at.replicas), readyMs: after(at.readyReplicas), at };
}

describe('CloneSet status latency (issue 50)', () => {
  it(`with minReadySeconds: status.replicas = spec.replicas within ${REPLICAS_WITHIN_MS} ms of the create; readiness follows, availability after minReadySeconds`, async () => {
    const runs = [];
    for (const i of [1, 2]) runs.push(await createAndTime(`mrs-${i}`, MIN_READY_SECONDS));
    console.log(
      `with minReadySeconds: status.replicas after ${runs.map((r) => r.replicasMs).join(', ')} ms, ` +
        `readyReplicas after ${runs.map((r) => r.readyMs).join(', ')} ms`,
    );
    for (const r of runs) {
      expect(r.replicasMs).toBeDefined();
      expect(r.replicasMs).toBeLessThanOrEqual(REPLICAS_WITHIN_MS);
    }
    // the pods turn available once they have been ready for minReadySeconds: the status says so and settles
    const last = runs.at(-1)!;
    const key = `${last.ns}/mrs-2`;
    await expect
      .poll(() => firstSeen.get(key)?.availableReplicas, { timeout: 30_000, interval: 100 })
      .toBeDefined();
    console.log(
      `with minReadySeconds = ${MIN_READY_SECONDS}: availableReplicas ${
        firstSeen.get(key)!.availableReplicas! - last.at.readyReplicas!
      } ms after readyReplicas`,
    );
    await settled(last.ns, 'mrs-2', REPLICAS, 30_000);
  });

  it(`without minReadySeconds: status.replicas = spec.replicas within ${REPLICAS_WITHIN_MS} ms of the create`, async () => {
    const runs = [];
    for (const i of [1, 2]) runs.push(await createAndTime(`plain-${i}`, undefined));
    console.log(
      `without minReadySeconds: status.replicas after ${runs.map((r) => r.replicasMs).join(', ')} ms, ` +
        `readyReplicas after ${runs.map((r) => r.readyMs).join(', ')} ms`,
    );
    for (const r of runs) {
      expect(r.replicasMs).toBeDefined();
      expect(r.replicasMs).toBeLessThanOrEqual(REPLICAS_WITHIN_MS);
    }
  });
});
