// The `KruisePodReady` readiness gate as a user sees it on a CloneSet (docs/cloneset.md "Lifecycle hooks",
// docs/adr/0082-kruise-pod-ready-gate.md): every new pod carries the gate, once, and turns Ready with the condition True
// (OpenKruise's pod webhook `pkg/webhook/pod/mutating/pod_readiness.go` and `pkg/controller/podreadiness`); with an
// inPlaceUpdate hook that has `markPodNotReady`, the pod goes not ready before its in-place update and ready after.
// On simulated nodes (their kubelet honours readiness gates); cloneset-real-node-lifecycle.int.test.ts shows the
// same on a real kubelet.
import { describe, expect, it } from 'vitest';
import { POD, useCloneSetScenarios, type CloneSet } from './testing/scenario-harness.js';
import { conditionOf, containerStatus, holds, nameOf, stateOf, uidOf } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();

const templateOf = (cs: CloneSet) =>
  cs.spec['template'] as { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> };
const gatesOf = (p: { spec?: { readinessGates?: { conditionType: string }[] | null } }) =>
  (p.spec?.readinessGates ?? []).map((g) => g.conditionType);

describe('CloneSet pods and the KruisePodReady readiness gate', () => {
  it('each pod has the gate once (also when the template lists it) and is Ready with KruisePodReady True', async () => {
    const [ns, listedNs] = [await h.namespace(), await h.namespace()];
    await h.createDemo(ns, 'plain', (cs) => {
      cs.spec.replicas = 2;
    });
    await h.createDemo(listedNs, 'listed', (cs) => {
      cs.spec.replicas = 1;
      templateOf(cs).spec['readinessGates'] = [{ conditionType: 'KruisePodReady' }];
    });
    await h.settled(ns, 'plain', 2);
    await h.settled(listedNs, 'listed', 1);
    const pods = [...(await h.pods(ns)), ...(await h.pods(listedNs))];
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      const listed = p.metadata?.namespace === listedNs;
      expect(gatesOf(p)).toEqual(
        listed ? ['KruisePodReady', 'InPlaceUpdateReady'] : ['InPlaceUpdateReady', 'KruisePodReady'],
      );
      expect(conditionOf(p, 'KruisePodReady')).toMatchObject({ status: 'True' });
      expect(conditionOf(p, 'Ready')?.status).toBe('True');
    }
  });

  it('markPodNotReady: the pod goes not ready (KruisePodReady False) before its in-place update, ready after', async () => {
    const ns = await h.namespace();
    const HOOK = 'example.io/unready-blocker';
    await h.createDemo(ns, 'hooked', (cs) => {
      cs.spec.replicas = 1;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible' };
      cs.spec['lifecycle'] = { inPlaceUpdate: { labelsHandler: { [HOOK]: 'true' }, markPodNotReady: true } };
      templateOf(cs).metadata.labels[HOOK] = 'true';
    });
    await h.settled(ns, 'hooked', 1);
    const [before] = await h.pods(ns);
    expect(conditionOf(before!, 'KruisePodReady')?.status).toBe('True');
    const oldImage = containerStatus(before!, 'nginx')?.image;

    await h.setImage(ns, 'hooked', 'nginx:mainline');
    await expect.poll(async () => stateOf((await h.pods(ns))[0]!), { timeout: 30_000 }).toBe('PreparingUpdate');
    await expect
      .poll(async () => conditionOf((await h.pods(ns))[0]!, 'Ready'), { timeout: 30_000 })
      .toMatchObject({ status: 'False', reason: 'ReadinessGatesNotReady' });
    // held by the hook: not ready, the container untouched at the old image, the key names the hook
    await holds(
      2_000,
      async () => (await h.pods(ns))[0]!,
      (p) => {
        expect(conditionOf(p, 'KruisePodReady')).toMatchObject({
          status: 'False',
          message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]',
        });
        expect(conditionOf(p, 'Ready')?.status).toBe('False');
        expect(containerStatus(p, 'nginx')?.image).toBe(oldImage);
        expect(stateOf(p)).toBe('PreparingUpdate');
      },
    );

    // the hook lets go: updated in place, KruisePodReady True again, Ready
    await h.client.patch(
      { ...POD, namespace: ns, name: nameOf(before!) },
      { metadata: { labels: { [HOOK]: null } } },
      { type: 'merge' },
    );
    await h.settled(ns, 'hooked', 1);
    const [after] = await h.pods(ns);
    expect(uidOf(after!)).toBe(uidOf(before!));
    expect(containerStatus(after!, 'nginx')?.image).toMatch(/nginx:mainline$/);
    expect(conditionOf(after!, 'KruisePodReady')).toMatchObject({ status: 'True', message: '[]' });
    expect(conditionOf(after!, 'Ready')?.status).toBe('True');
  }, 120_000);

  it('markPodNotReady on preDelete: a pod held at scale-in is not ready, and is deleted once the hook lets go', async () => {
    const ns = await h.namespace();
    const HOOK = 'example.io/delete-blocker';
    await h.createDemo(ns, 'scalein', (cs) => {
      cs.spec.replicas = 1;
      cs.spec['lifecycle'] = { preDelete: { labelsHandler: { [HOOK]: 'true' }, markPodNotReady: true } };
      templateOf(cs).metadata.labels[HOOK] = 'true';
    });
    await h.settled(ns, 'scalein', 1);
    const [pod] = await h.pods(ns);
    await h.patch(ns, 'scalein', { spec: { replicas: 0 } });
    await expect.poll(async () => stateOf((await h.pods(ns))[0]!), { timeout: 30_000 }).toBe('PreparingDelete');
    await expect
      .poll(async () => conditionOf((await h.pods(ns))[0]!, 'Ready'), { timeout: 30_000 })
      .toMatchObject({ status: 'False', reason: 'ReadinessGatesNotReady' });
    expect(conditionOf((await h.pods(ns))[0]!, 'KruisePodReady')).toMatchObject({
      status: 'False',
      message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
    });
    await h.client.patch(
      { ...POD, namespace: ns, name: nameOf(pod!) },
      { metadata: { labels: { [HOOK]: null } } },
      { type: 'merge' },
    );
    await expect.poll(async () => (await h.pods(ns)).length, { timeout: 30_000 }).toBe(0);
  }, 120_000);
});
