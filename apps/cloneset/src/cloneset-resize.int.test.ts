// In-place resource resize (docs/adr/0087-in-place-resource-resize.md, docs/cloneset.md "Resizing in place") on
// simulated nodes: a CloneSet whose only change is a CPU limit updates every pod through pods/resize (same UIDs, no
// pod created), counted done once the node reports the new resources; a resize the node cannot hold is reported on
// the CloneSet (event, PodResizeInfeasible condition) and not retried in a loop. The simulator's own Deferred and
// Infeasible answers are unit-tested (libs/node-simulator pod-resize.test.ts). The QoS class change that recreates is in
// cloneset-e2e; the real kubelet in cloneset-real-node.
import { describe, expect, it } from 'vitest';
import { specOf, useCloneSetScenarios } from './testing/scenario-harness.js';
import { REVISION, holds, nameOf, uidOf } from './testing/scenario-helpers.js';
import { templateOf } from './testing/e2e-helpers.js';

const h = useCloneSetScenarios();
const { namespace, pods, cloneSet, events, patch, settled } = h;

const resourcesOf = (p: { status?: { containerStatuses?: readonly object[] | null } | null }) =>
  (p.status?.containerStatuses?.[0] as { resources?: unknown } | undefined)?.resources;

describe('CloneSet in-place resize (pods/resize)', () => {
  it('a CPU limit change updates every pod in place: same UIDs, no pod created, new resources reported', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'cpu', (cs) => {
      cs.spec.replicas = 3;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
      templateOf(cs).spec.containers[0]!.resources = {
        requests: { cpu: '50m', memory: '64Mi' },
        limits: { cpu: '100m', memory: '128Mi' },
      };
    });
    const first = await settled(ns, 'cpu', 3);
    const before = await pods(ns);
    const c = templateOf(await cloneSet(ns, 'cpu')).spec.containers[0]!;
    await patch(ns, 'cpu', {
      spec: {
        template: {
          spec: {
            containers: [
              {
                ...c,
                resources: {
                  requests: { cpu: '50m', memory: '64Mi' },
                  limits: { cpu: '200m', memory: '128Mi' },
                },
              },
            ],
          },
        },
      },
    });
    const done = await settled(ns, 'cpu', 3);
    expect(done.status!.updateRevision).not.toBe(first.status!.updateRevision);
    expect(done.status).toMatchObject({ updatedReplicas: 3, updatedReadyReplicas: 3 });
    const after = await pods(ns);
    expect(after.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
    for (const p of after) {
      expect(p.metadata!.labels![REVISION]).toBe(done.status!.updateRevision);
      expect(specOf(p).containers[0]!.resources).toMatchObject({ limits: { cpu: '200m' } });
      expect(resourcesOf(p)).toMatchObject({ limits: { cpu: '200m' } });
      // the container was not restarted
      expect(p.status?.containerStatuses?.[0]?.restartCount).toBe(0);
      const old = before.find((b) => uidOf(b) === uidOf(p))!;
      expect(p.status?.containerStatuses?.[0]?.containerID).toBe(
        old.status?.containerStatuses?.[0]?.containerID,
      );
    }
    expect(await events(ns, 'SuccessfulCreate')).toHaveLength(3);
    expect(await events(ns, 'SuccessfulUpdatePodReCreate')).toHaveLength(0);
    expect((await events(ns, 'SuccessfulUpdatePodInPlace')).map((e) => e.message).sort()).toEqual(
      before
        .map((p) => `successfully update pod ${nameOf(p)} in-place(revision ${done.status!.updateRevision})`)
        .sort(),
    );
  });

  it('a resize the node cannot hold (more CPU than it allocates) is reported on the CloneSet, not retried', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'big', (cs) => {
      cs.spec.replicas = 1;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
      templateOf(cs).spec.containers[0]!.resources = { requests: { cpu: '50m' }, limits: { cpu: '100m' } };
    });
    await settled(ns, 'big', 1);
    const [pod] = await pods(ns);
    const c = templateOf(await cloneSet(ns, 'big')).spec.containers[0]!;
    // the simulated nodes allocate 8 CPUs: the API server refuses the pods/resize write (Kubernetes 1.35+ checks
    // the node's allocatable), as the kubelet would answer Infeasible
    await patch(ns, 'big', {
      spec: {
        template: {
          spec: { containers: [{ ...c, resources: { requests: { cpu: '64' }, limits: { cpu: '64' } } }] },
        },
      },
    });
    await expect
      .poll(
        async () =>
          (await cloneSet(ns, 'big')).status?.conditions?.find((x) => x.type === 'PodResizeInfeasible')
            ?.message ?? '',
        { timeout: 30_000 },
      )
      .toMatch(
        new RegExp(
          `^the node refused to resize pod in place \\(${nameOf(pod!)}: .*enough allocatable resources: cpu`,
        ),
      );
    await expect
      .poll(async () => (await events(ns, 'ResizeInfeasible')).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    // not retried in a loop: no FailedUpdatePodInPlace, the pod keeps its UID and its resources, never recreated
    await holds(
      3_000,
      async () => (await pods(ns))[0]!,
      (p) => {
        expect(uidOf(p)).toBe(uidOf(pod!));
        expect(resourcesOf(p)).toMatchObject({ limits: { cpu: '100m' } });
      },
    );
    expect(await events(ns, 'FailedUpdatePodInPlace')).toHaveLength(0);
    expect(await events(ns, 'SuccessfulUpdatePodReCreate')).toHaveLength(0);
    // back to a template that fits: the condition goes (it stayed while the status merge patch left an empty
    // `conditions` out, docs/adr/0087), the pod was never touched
    await patch(ns, 'big', {
      spec: {
        template: {
          spec: { containers: [{ ...c, resources: { requests: { cpu: '50m' }, limits: { cpu: '100m' } } }] },
        },
      },
    });
    await expect
      .poll(
        async () =>
          (await cloneSet(ns, 'big')).status?.conditions?.filter((x) => x.type === 'PodResizeInfeasible') ??
          [],
        { timeout: 30_000 },
      )
      .toEqual([]);
    const back = await settled(ns, 'big', 1);
    expect(back.status).toMatchObject({ updatedReplicas: 1, updatedReadyReplicas: 1 });
    const [kept] = await pods(ns);
    expect(uidOf(kept!)).toBe(uidOf(pod!));
    expect(kept!.status?.containerStatuses?.[0]?.restartCount).toBe(0);
    expect(resourcesOf(kept!)).toMatchObject({ limits: { cpu: '100m' } });
  });
});
