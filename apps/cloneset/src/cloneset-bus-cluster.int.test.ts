// CloneSet rollouts on a clustered bus (docs/operations.md "A clustered bus", docs/adr/0086): the watcher and the
// cloneset program of this file run on a three-server JetStream cluster of their own, every bucket replicated on all
// three, against the shared control plane. Each fault comes mid-rollout, and the rollout completes with every pod
// updated (no update lost): a server killed, one paused (SIGSTOP, a partition) and resumed, one whose store is wiped,
// all three restarted; and the pods bucket deleted, which the watcher makes again and the program's cache resyncs from.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketName, connectBus, type Bus } from '@regatta/bus';
import { KIND_TABLE } from '@regatta/kube';
import { startNatsBus, type NatsBus } from '@regatta/local-cluster';
import { seed, specOf, useCloneSetScenarios } from './testing/scenario-harness.js';

let nats: NatsBus;
let probe: Bus | undefined;
// started before the harness's beforeAll (hooks run in the order registered): its programs connect to this bus
beforeAll(async () => {
  nats = await startNatsBus(await mkdtemp(join(tmpdir(), 'regatta-cs-bus-')), 3);
}, 120_000);

const h = useCloneSetScenarios({ layerEnv: () => ({ NATS_URL: nats.url }) });
const { namespace, pods, setImage, settled } = h;

afterAll(async () => {
  await probe?.close().catch(() => undefined);
  await nats?.stop();
});

/** The index of the server leading the stream of this file's pods mirror. */
async function podsLeader(): Promise<number> {
  probe ??= await connectBus({ servers: nats.url, name: 'test-probe' });
  const stream = `KV_${h.bus.prefix}${bucketName(KIND_TABLE.pods)}`;
  // asked again while the cluster elects (after the previous fault, "JetStream system temporarily unavailable")
  for (let attempt = 1; ; attempt++) {
    try {
      const jsm = await jetstreamManager(probe.nc);
      const info = await jsm.streams.info(stream);
      expect(info.config.num_replicas).toBe(3);
      const leader = nats.servers.findIndex((s) => s.name === info.cluster?.leader);
      if (leader >= 0 || attempt >= 30) return leader;
    } catch (err) {
      if (attempt >= 30) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** A CloneSet of 6 that rolls in place, settled; its name. */
async function demo(ns: string): Promise<string> {
  const cs = seed('s1-2-cs-demo.yaml');
  cs.metadata = { name: 'bus', namespace: ns };
  cs.spec['replicas'] = 6;
  cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
  await h.client.create(cs);
  await settled(ns, 'bus', 6, 120_000);
  return 'bus';
}

/** Rolls the CloneSet to `image` with `fault` striking once the rollout is under way; every pod ends on `image`. */
async function rollThrough(ns: string, image: string, fault: () => Promise<void>): Promise<void> {
  await setImage(ns, 'bus', image);
  await expect
    .poll(async () => (await pods(ns)).some((p) => specOf(p).containers[0]!.image === image), { timeout: 30_000 })
    .toBe(true);
  await fault();
  await settled(ns, 'bus', 6, 180_000);
  expect((await pods(ns)).map((p) => specOf(p).containers[0]!.image)).toEqual(Array(6).fill(image));
}

describe('CloneSet on a three-server bus', () => {
  it('a rollout completes through a server killed, one paused, one with its store wiped, and all restarted', async () => {
    const ns = await namespace();
    await demo(ns);

    // the pods stream's leader killed (SIGKILL) mid-rollout, started again afterwards
    const killed = await podsLeader();
    await rollThrough(ns, 'nginx:mainline', async () => nats.process(killed).killNow());
    await nats.restart(killed);

    // the leader paused (SIGSTOP: cut off, as in a partition) for 10 s mid-rollout, then resumed
    const paused = await podsLeader();
    const pid = nats.process(paused).pid;
    await rollThrough(ns, 'nginx:alpine', async () => {
      process.kill(pid, 'SIGSTOP');
      await new Promise((r) => setTimeout(r, 10_000));
      process.kill(pid, 'SIGCONT');
    });

    // a server's store wiped (a lost disk) and the server started again mid-rollout
    const wiped = ((await podsLeader()) + 1) % 3;
    await rollThrough(ns, 'nginx:mainline', async () => {
      await nats.process(wiped).stop();
      await rm(nats.servers[wiped]!.storeDir, { recursive: true, force: true });
      await nats.restart(wiped);
    });

    // all three stopped and started again mid-rollout
    await rollThrough(ns, 'nginx:alpine', async () => {
      for (let i = 0; i < 3; i++) await nats.process(i).stop();
      await Promise.all([0, 1, 2].map((i) => nats.restart(i)));
    });
    h.controller.assertRunning();
  }, 900_000);

  it('the pods bucket lost mid-rollout (as a one-server bus loses it with its store): the watcher makes it again, the rollout completes', async () => {
    const ns = await namespace();
    await demo(ns);
    const stream = `KV_${h.bus.prefix}${bucketName(KIND_TABLE.pods)}`;
    const jsm = await jetstreamManager(probe!.nc);
    const before = (await jsm.streams.info(stream)).created;
    await rollThrough(ns, 'nginx:mainline', async () => {
      await jsm.streams.delete(stream);
    });
    // made again (another creation time) and refilled: the program's cache resynced from it to finish the rollout
    const info = await jsm.streams.info(stream);
    expect(info.created).not.toBe(before);
    expect(info.config.num_replicas).toBe(3);
    expect(info.state.messages).toBeGreaterThanOrEqual(6);
    h.controller.assertRunning();
  }, 600_000);
});
