// Issue 47's critical defect, end to end: two bytes of garbage in the pods' mirror bucket (what a corrupt store or a
// newer watcher's format leaves) used to blind the cloneset program to every later pod change. A CloneSet created
// afterwards got its pods but showed 0 of them, an in-place update never started, and at the expectation timeout the
// blind controller created more pods, without bound. Now the entry is set aside and counted, and the CloneSet is
// served as usual (docs/adr/0068-a-bad-bus-entry-is-set-aside.md).
import { KINDS } from '@regatta/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketName, connectBus, type Bus } from '@regatta/bus';
import { specOf, useCloneSetScenarios } from './testing/scenario-harness.js';
import { uidOf } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();
let bus: Bus | undefined;
beforeAll(async () => {
  bus = await connectBus({ servers: h.bus.servers, name: 'cloneset-poison-test', prefix: h.bus.prefix });
});
afterAll(async () => {
  await bus?.close();
});

describe('CloneSet with an unreadable value in the pods bucket', () => {
  it('is served as usual: its pods counted, an in-place update done, no pod beyond its replicas', async () => {
    const ns = await h.namespace();
    const pods = await bus!.kvm.open(bus!.prefix + bucketName(KINDS.pods));
    await pods.put(`${ns}.zz-poison-1`, new Uint8Array([0xde, 0xad]));

    await h.createDemo(ns, 'after-poison', (cs) => (cs.spec.updateStrategy = { type: 'InPlaceIfPossible' }));
    const before = await h.settled(ns, 'after-poison', 3);
    expect(before.status?.replicas).toBe(3);
    const uids = (await h.pods(ns)).map(uidOf).sort();

    await h.setImage(ns, 'after-poison', 'nginx:1.25-alpine');
    await h.settled(ns, 'after-poison', 3);
    const after = await h.pods(ns);
    expect(after.map(uidOf).sort()).toEqual(uids); // in place: the same pods
    expect(after.map((p) => specOf(p).containers[0]?.image)).toEqual(Array(3).fill('nginx:1.25-alpine'));
    expect(await h.events(ns, 'SuccessfulCreate')).toHaveLength(3);

    const metrics = await h.metrics();
    expect(metrics).toMatch(/regatta_cache_entries_set_aside_total\{cache="pods",reason="envelope"\} 1\b/);
    expect(metrics).toMatch(/regatta_cache_in_sync\{cache="pods"\} 1\b/);
    // reported once, however many times the cache read the bucket
    expect(h.controllerLog().match(/a bus entry cannot be read and is set aside/g)).toHaveLength(1);
  });
});
