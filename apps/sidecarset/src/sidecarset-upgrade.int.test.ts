// SidecarSet in-place sidecar upgrades as a user sees them (OpenKruise test/e2e/apps/v1beta1/sidecarset.go
// "sidecarSet upgrade cold sidecar"): the sidecar image changes in the same pod (UIDs kept, the sidecar restarted once,
// the app container untouched), partition and maxUnavailable bound the rollout, paused holds it, and a controller killed
// with SIGKILL mid-upgrade is replaced and the upgrade completes without any pod recreated. A round's pods are written
// together (docs/adr/0055-sidecarset-pod-writes-concurrent.md): one pod whose UPDATE the API server refuses does not hold
// the others, and maxUnavailable still bounds the pods in flight.
import { describe, expect, it } from 'vitest';
import { holds, isReady, type Pod } from '@regatta/testing';
import { mainImage, restarts, sidecarImage, useUpgradeScenarios } from './testing/upgrade-harness.js';

const h = useUpgradeScenarios();
const uids = (pods: Pod[]) => pods.map((p) => p.metadata?.uid).sort();
const upgraded = (pods: Pod[], image: string) => pods.filter((p) => sidecarImage(p) === image);

async function settled(ns: string, name: string, image: string, n: number): Promise<Pod[]> {
  let pods: Pod[] = [];
  await expect
    .poll(
      async () => {
        pods = await h.pods(ns);
        const s = (await h.sidecarSet(name)).status;
        return [
          upgraded(pods, image).filter(isReady).length,
          s?.matchedPods,
          s?.updatedPods,
          s?.updatedReadyPods,
        ];
      },
      { timeout: 90_000, interval: 500 },
    )
    .toEqual([n, n, n, n]);
  return pods;
}

/**
 * Follows the pods upgraded to `image` until the ready ones (names, sorted) satisfy `done`; also returns the most of
 * them not ready at once (the upgrades in flight, which maxUnavailable bounds).
 */
async function upgradeUntil(
  ns: string,
  image: string,
  done: (ready: string[]) => boolean,
  timeoutMs: number,
): Promise<{ ready: string[]; mostInFlight: number }> {
  let ready: string[] = [];
  let mostInFlight = 0;
  await expect
    .poll(
      async () => {
        const now = upgraded(await h.pods(ns), image);
        mostInFlight = Math.max(mostInFlight, now.filter((p) => !isReady(p)).length);
        ready = now
          .filter(isReady)
          .map((p) => p.metadata?.name ?? '')
          .sort();
        return done(ready);
      },
      { timeout: timeoutMs, interval: 250 },
    )
    .toBe(true);
  return { ready, mostInFlight };
}

describe('SidecarSet upgrade', () => {
  it('cold upgrade of the sidecar image in place: same pods, sidecar restarted once, app untouched', async () => {
    const ns = await h.namespace();
    const name = `cold-${h.id}`;
    await h.createSidecarSet(name, 'cold', 'busybox:1.36');
    const before = await h.createInjectedPods(ns, name, 'cold', 'busybox:1.36', 3);
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(3);

    await h.setSidecarImage(name, 'busybox:1.37');
    const after = await settled(ns, name, 'busybox:1.37', 3);
    expect(uids(after)).toEqual(uids(before));
    for (const p of after) {
      expect([mainImage(p), restarts(p, 'main'), restarts(p, 'sidecar')]).toEqual(['nginx:1.27', 0, 1]);
    }
    expect((await h.sidecarSet(name)).status).toMatchObject({
      matchedPods: 3,
      updatedPods: 3,
      readyPods: 3,
      updatedReadyPods: 3,
    });
  });

  it('partition keeps that many pods on the old sidecar, maxUnavailable bounds the pods in flight', async () => {
    const ns = await h.namespace();
    const name = `part-${h.id}`;
    await h.createSidecarSet(name, 'part', 'busybox:1.36', { partition: 2, maxUnavailable: 1 });
    await h.createInjectedPods(ns, name, 'part', 'busybox:1.36', 4);
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(4);

    await h.setSidecarImage(name, 'busybox:1.37');
    const { mostInFlight } = await upgradeUntil(ns, 'busybox:1.37', (ready) => ready.length === 2, 60_000);
    expect(mostInFlight).toBeLessThanOrEqual(1);
    // held at 4 - partition
    await holds(
      5_000,
      () => h.pods(ns),
      (pods) => expect(upgraded(pods, 'busybox:1.37')).toHaveLength(2),
    );
    await h.patchStrategy(name, { partition: 0 });
    await settled(ns, name, 'busybox:1.37', 4);
  });

  it('paused: no pod is upgraded until resumed', async () => {
    const ns = await h.namespace();
    const name = `paused-${h.id}`;
    await h.createSidecarSet(name, 'paused', 'busybox:1.36', { paused: true, maxUnavailable: 2 });
    await h.createInjectedPods(ns, name, 'paused', 'busybox:1.36', 2);
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(2);
    await h.setSidecarImage(name, 'busybox:1.37');
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.observedGeneration, { timeout: 30_000 })
      .toBe(2);
    await holds(
      6_000,
      () => h.pods(ns),
      (pods) => expect(upgraded(pods, 'busybox:1.37')).toHaveLength(0),
    );
    expect((await h.sidecarSet(name)).status).toMatchObject({ matchedPods: 2, updatedPods: 0 });
    await h.patchStrategy(name, { paused: false });
    await settled(ns, name, 'busybox:1.37', 2);
  });

  it('a sidecar that ignores SIGTERM holds the rollout for the grace period; paused then, one pod is upgraded', async () => {
    // OpenKruise's "sidecarSet upgrade cold sidecar container image, and paused": its sidecar runs `tail -f
    // /dev/null`, PID 1 without a SIGTERM handler, which the kubelet stops only with SIGKILL when the grace ends
    const ns = await h.namespace();
    const name = `sigterm-${h.id}`;
    await h.createSidecarSet(name, 'sigterm', 'busybox:1.36', { maxUnavailable: 1 });
    await h.createInjectedPods(ns, name, 'sigterm', 'busybox:1.36', 2, {
      command: ['tail', '-f', '/dev/null'],
      grace: 6,
    });
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(2);
    await h.setSidecarImage(name, 'busybox:1.37');
    // the first pod's old sidecar runs on (its status still shows the old image) until the grace period ends
    await expect
      .poll(async () => upgraded(await h.pods(ns), 'busybox:1.37').length, { timeout: 30_000, interval: 200 })
      .toBe(1);
    await h.patchStrategy(name, { paused: true });
    await holds(
      4_000,
      () => h.pods(ns),
      (pods) => expect(upgraded(pods, 'busybox:1.37')).toHaveLength(1),
    );
    await expect
      .poll(async () => (await h.sidecarSet(name)).status, { timeout: 30_000, interval: 500 })
      .toMatchObject({ matchedPods: 2, updatedPods: 1, updatedReadyPods: 1, readyPods: 2 });
    const first = upgraded(await h.pods(ns), 'busybox:1.37')[0];
    const last = first?.status?.containerStatuses?.find((c) => c.name === 'sidecar')?.lastState?.terminated;
    expect(last).toMatchObject({ exitCode: 137, reason: 'Error' });
    await h.patchStrategy(name, { paused: false });
    await settled(ns, name, 'busybox:1.37', 2);
  });

  it('kill -9 mid-upgrade: a new instance completes it, maxUnavailable held, no pod recreated', async () => {
    const ns = await h.namespace();
    const name = `kill-${h.id}`;
    await h.createSidecarSet(name, 'kill', 'busybox:1.36', { maxUnavailable: 1 });
    const before = await h.createInjectedPods(ns, name, 'kill', 'busybox:1.36', 4);
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(4);

    await h.setSidecarImage(name, 'busybox:1.37');
    let inFlight = 0;
    const sample = async () => {
      const pods = await h.pods(ns);
      inFlight = Math.max(inFlight, upgraded(pods, 'busybox:1.37').filter((p) => !isReady(p)).length);
      return upgraded(pods, 'busybox:1.37').length;
    };
    await expect.poll(sample, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(1);
    h.controller.killNow();
    await h.startController('b');
    await expect
      .poll(async () => (await sample()) === 4 && (await h.pods(ns)).every(isReady), {
        timeout: 90_000,
        interval: 300,
      })
      .toBe(true);
    const after = await settled(ns, name, 'busybox:1.37', 4);
    expect(inFlight).toBeLessThanOrEqual(1);
    expect(uids(after)).toEqual(uids(before));
    expect(after.map((p) => restarts(p, 'sidecar'))).toEqual([1, 1, 1, 1]);
  });

  it('one pod whose UPDATE is refused does not hold the others; maxUnavailable still bounds the pods in flight', async () => {
    const ns = await h.namespace();
    const name = `refused-${h.id}`;
    await h.createSidecarSet(name, 'refused', 'busybox:1.36', { maxUnavailable: 3 });
    await h.createInjectedPods(ns, name, 'refused', 'busybox:1.36', 6);
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(6);
    // the API server refuses every UPDATE of refused-5 (the newest pod: in the first round) until the policy goes
    const policy = `scsu-refuse-${h.id}`;
    await h.client.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: policy },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['pods'] },
          ],
        },
        validations: [
          { expression: "object.metadata.name != 'refused-5'", message: 'refused by the scenario' },
        ],
      },
    });
    await h.client.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: policy },
      spec: {
        policyName: policy,
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } } },
      },
    });
    let probes = 0;
    const probe = () =>
      h.client
        .patch(
          { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'refused-5' },
          { metadata: { annotations: { 'scenario-probe': String(++probes) } } },
          { type: 'merge' },
        )
        .then(
          () => 'allowed',
          () => 'refused',
        );
    const removePolicy = async () => {
      for (const kind of ['ValidatingAdmissionPolicyBinding', 'ValidatingAdmissionPolicy'])
        await h.client
          .delete({ apiVersion: 'admissionregistration.k8s.io/v1', kind, name: policy })
          .catch(() => undefined);
    };
    try {
      // in effect once an update of refused-5 is refused (the API server loads policies asynchronously)
      await expect.poll(probe, { timeout: 30_000, interval: 300 }).toBe('refused');

      await h.setSidecarImage(name, 'busybox:1.37');
      const progress = await upgradeUntil(ns, 'busybox:1.37', (ready) => ready.length >= 5, 90_000);
      expect(progress.ready).toEqual(['refused-0', 'refused-1', 'refused-2', 'refused-3', 'refused-4']);
      expect(progress.mostInFlight).toBeLessThanOrEqual(3);
      expect(sidecarImage((await h.pods(ns)).find((p) => p.metadata?.name === 'refused-5')!)).toBe(
        'busybox:1.36',
      );
    } finally {
      await removePolicy();
    }
    // the failed reconciles were retried with per-item exponential back-off (5 ms doubling, as client-go's), which
    // may be minutes by now (after some 18 failures, more than this test waits). The probe's annotation does not
    // concern the SidecarSet (its pod event handler, as upstream's, passes only readiness, consistency, deletion and
    // selector labels); a change of the SidecarSet itself brings the next reconcile at once, and the pod is upgraded
    await expect.poll(probe, { timeout: 30_000, interval: 300 }).toBe('allowed');
    await h.client.patch(
      { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', name },
      { metadata: { annotations: { 'scenario-nudge': 'policy removed' } } },
      { type: 'merge' },
    );
    const after = await settled(ns, name, 'busybox:1.37', 6);
    expect(after.map((p) => restarts(p, 'sidecar'))).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
