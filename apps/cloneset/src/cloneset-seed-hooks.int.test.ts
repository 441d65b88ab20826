// The seed articles' lifecycle hooks (libs/api/src/fixtures, S1 §2.3) applied as written, with the user's
// controller played by the test: what a user observes (pod states, UIDs, restarts) on the shared local cluster.
import { describe, expect, it } from 'vitest';
import {
  type CloneSet,
  type Pod,
  isReady,
  seed,
  specOf,
  useCloneSetScenarios,
} from './testing/scenario-harness.js';
import { uidOf, nameOf, stateOf, containerStatus, holds, recordPods } from './testing/scenario-helpers.js';
import { article, demoWith, templateOf, useE2eHelpers } from './testing/e2e-helpers.js';

const h = useCloneSetScenarios();
const { namespace, pods, events, patch, setImage, settled } = h;
const { userController } = useE2eHelpers(h);

describe("the seed articles' CloneSets (S1), applied as written", () => {
  describe("S1 §2.3 lifecycle hooks (the two alternatives of the article), with the user's controller played by the test", () => {
    const [byFinalizer, byLabel] = article('s1-2.3-lifecycle-hooks.yaml') as [CloneSet, CloneSet];

    it('inPlaceUpdate by label: not hooked → Updating → Updated until the user hooks it → Normal; hooked → PreparingUpdate first', async () => {
      const ns = await namespace();
      const HOOK = 'example.io/block-unready';
      // the hook acts on in-place updates
      await h.client.create(
        demoWith(ns, byLabel, (cs) => {
          cs.spec.replicas = 2;
          cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
        }),
      );
      await settled(ns, 'cs-demo', 2);
      const list = await pods(ns);
      const rec = await recordPods(h.client, ns);
      // the user's controller: releases PreparingUpdate pods, hooks Updated pods again
      userController(ns, (p) => {
        const hooked = p.metadata!.labels?.[HOOK] === 'true';
        if (stateOf(p) === 'PreparingUpdate' && hooked) return { metadata: { labels: { [HOOK]: null } } };
        if (stateOf(p) === 'Updated' && !hooked) return { metadata: { labels: { [HOOK]: 'true' } } };
        return undefined;
      });
      // first update: the pods do not carry the hook label yet
      await setImage(ns, 'cs-demo', 'nginx:mainline');
      await settled(ns, 'cs-demo', 2, 40_000);
      await expect
        .poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 })
        .toEqual(['Normal', 'Normal']);
      for (const p of list) expect(rec.states(uidOf(p))).toEqual(['Normal', 'Updating', 'Updated', 'Normal']);
      // second update: now they do
      await setImage(ns, 'cs-demo', 'nginx:stable');
      await settled(ns, 'cs-demo', 2, 40_000);
      await expect
        .poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 })
        .toEqual(['Normal', 'Normal']);
      for (const p of list)
        expect(rec.states(uidOf(p))).toEqual([
          'Normal',
          'Updating',
          'Updated',
          'Normal',
          'PreparingUpdate',
          'Updating',
          'Updated',
          'Normal',
        ]);
      const now = await pods(ns);
      expect(now.map(uidOf).sort()).toEqual(list.map(uidOf).sort());
      for (const p of now) {
        expect(p.metadata!.labels![HOOK]).toBe('true');
        expect(containerStatus(p, 'nginx')).toMatchObject({ image: 'nginx:stable', restartCount: 2 });
      }
    });

    it('preDelete + inPlaceUpdate by finalizer: an update waits in PreparingUpdate, a scale-in in PreparingDelete, until the user removes the finalizer', async () => {
      const ns = await namespace();
      const HOOK = 'example.io/unready-blocker';
      await h.client.create(
        demoWith(ns, byFinalizer, (cs) => {
          cs.spec.replicas = 2;
          cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
        }),
      );
      await settled(ns, 'cs-demo', 2);
      const list = await pods(ns);
      // the user's service registration: each pod gets the finalizer (it is "online")
      for (const p of list) await h.patchPod(ns, nameOf(p), { metadata: { finalizers: [HOOK] } }, 'merge');
      const rec = await recordPods(h.client, ns);
      // a hooked pod waits: nothing releases it yet
      await setImage(ns, 'cs-demo', 'nginx:mainline');
      let waiting: Pod | undefined;
      await expect
        .poll(
          async () => {
            waiting = (await pods(ns)).find((p) => stateOf(p) === 'PreparingUpdate');
            return waiting !== undefined;
          },
          { timeout: 20_000 },
        )
        .toBe(true);
      await holds(
        2_000,
        () => pods(ns),
        (now) => {
          expect(now.filter((p) => stateOf(p) === 'PreparingUpdate').map(uidOf)).toEqual([uidOf(waiting!)]);
          expect(now.every((p) => specOf(p).containers[0]!.image === 'nginx:alpine')).toBe(true);
        },
      );
      // the user's controller: takes pods offline (finalizer off) when they prepare, back online when Updated
      userController(ns, (p) => {
        const has = p.metadata!.finalizers?.includes(HOOK) ?? false;
        const st = stateOf(p);
        if ((st === 'PreparingUpdate' || st === 'PreparingDelete') && has)
          return { metadata: { finalizers: (p.metadata!.finalizers ?? []).filter((f) => f !== HOOK) } };
        if (st === 'Updated' && !has)
          return { metadata: { finalizers: [...(p.metadata!.finalizers ?? []), HOOK] } };
        return undefined;
      });
      await settled(ns, 'cs-demo', 2, 40_000);
      await expect
        .poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 })
        .toEqual(['Normal', 'Normal']);
      for (const p of list)
        expect(rec.states(uidOf(p))).toEqual(['Normal', 'PreparingUpdate', 'Updating', 'Updated', 'Normal']);
      // scale in: the pod goes through PreparingDelete, and is deleted once the user removed the finalizer
      await patch(ns, 'cs-demo', { spec: { replicas: 1 } });
      await settled(ns, 'cs-demo', 1);
      const left = (await pods(ns)).map(uidOf);
      const deleted = list.filter((p) => !left.includes(uidOf(p)));
      expect(deleted).toHaveLength(1);
      expect(rec.states(uidOf(deleted[0]!)).slice(-1)).toEqual(['PreparingDelete']);
      await expect
        .poll(async () => (await events(ns, 'SuccessfulDelete')).map((e) => e.message), { timeout: 10_000 })
        .toEqual([`succeed to delete pod ${nameOf(deleted[0]!)}`]);
    });
  });

  it("S1 §2.3.3 template finalizer + initialing annotation, with the article's user controller: recreate, in-place update and scale-in all pass the hooks", async () => {
    const ns = await namespace();
    const HOOK = 'example.io/unready-blocker';
    const INIT = 'example.io/initialing';
    const [fragment] = article('s1-2.3.3-template-finalizers.yaml');
    await h.client.create(demoWith(ns, fragment!, (cs) => (cs.spec.replicas = 2)));
    const rec = await recordPods(h.client, ns);
    // the article's user controller, rule by rule
    userController(ns, (p) => {
      const st = stateOf(p);
      const fins = p.metadata!.finalizers ?? [];
      if (st === 'Normal' && p.metadata!.annotations?.[INIT] === 'true' && isReady(p))
        return { metadata: { annotations: { [INIT]: null } } };
      if ((st === 'PreparingDelete' || st === 'PreparingUpdate') && fins.includes(HOOK))
        return { metadata: { finalizers: fins.filter((f) => f !== HOOK) } };
      if (st === 'Updated' && !fins.includes(HOOK)) return { metadata: { finalizers: [...fins, HOOK] } };
      return undefined;
    });
    const online = (p: Pod) =>
      stateOf(p) === 'Normal' &&
      isReady(p) &&
      !p.metadata!.annotations?.[INIT] &&
      (p.metadata!.finalizers ?? []).includes(HOOK);
    const allOnline = (n: number) =>
      expect
        .poll(
          async () => {
            const now = await pods(ns);
            return now.length === n && now.every(online);
          },
          { timeout: 40_000, interval: 300 },
        )
        .toBe(true);
    await settled(ns, 'cs-demo', 2);
    await allOnline(2);
    const first = await pods(ns);

    // an image change with the default ReCreate: each old pod is held in PreparingDelete until the user lets it go
    await setImage(ns, 'cs-demo', 'nginx:mainline');
    await settled(ns, 'cs-demo', 2, 60_000);
    await allOnline(2);
    const second = await pods(ns);
    for (const p of second) expect(first.map(uidOf)).not.toContain(uidOf(p));
    for (const p of first) expect(rec.states(uidOf(p))).toContain('PreparingDelete');

    // in place: PreparingUpdate → Updating → Updated → Normal, same pods
    await patch(ns, 'cs-demo', {
      spec: {
        updateStrategy: { type: 'InPlaceIfPossible' },
        template: {
          spec: {
            containers: [
              { ...templateOf(seed('s1-2-cs-demo.yaml')).spec.containers[0]!, image: 'nginx:stable' },
            ],
          },
        },
      },
    });
    await settled(ns, 'cs-demo', 2, 60_000);
    await allOnline(2);
    const third = await pods(ns);
    expect(third.map(uidOf).sort()).toEqual(second.map(uidOf).sort());
    for (const p of second) {
      const states = rec.states(uidOf(p));
      expect(states.slice(states.indexOf('PreparingUpdate'))).toEqual([
        'PreparingUpdate',
        'Updating',
        'Updated',
        'Normal',
      ]);
    }
    for (const p of third)
      expect(containerStatus(p, 'nginx')).toMatchObject({ image: 'nginx:stable', restartCount: 1 });

    // scale to 0: both pods pass PreparingDelete and are gone
    await patch(ns, 'cs-demo', { spec: { replicas: 0 } });
    await expect.poll(async () => (await pods(ns)).length, { timeout: 30_000 }).toBe(0);
    for (const p of third) expect(rec.states(uidOf(p))).toContain('PreparingDelete');
  });
});
