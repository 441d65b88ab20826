// In-place resource resize for Advanced DaemonSet (docs/adr/0087-in-place-resource-resize.md, docs/ads.md) on
// simulated nodes: a DaemonSet whose only change is a CPU limit updates the pod of every node through pods/resize —
// same pod UIDs, the container not restarted, the node reporting the new resources, the status at the new revision;
// a resize no node can hold is reported with events (a DaemonSet's status has no conditions), the pods kept as they
// are, and going back to a template that fits completes the rollout without touching them.
import { describe, expect, it } from 'vitest';
import { holds } from '@regatta/testing';
import {
  nginxDaemonSet,
  useDaemonSetScenarios,
  type DaemonSet,
  type Pod,
} from './testing/scenario-harness.js';

const h = useDaemonSetScenarios();
const { namespace, pods, settled } = h;

const uidOf = (p: Pod) => p.metadata!.uid!;
const container = (p: Pod) => p.spec!.containers![0] as { resources?: { limits?: Record<string, string> } };
const statusOf = (p: Pod) =>
  p.status?.containerStatuses?.[0] as
    | { restartCount?: number; containerID?: string; resources?: { limits?: Record<string, string> } }
    | undefined;

const resources = (cpuLimit: string) => ({
  requests: { cpu: '50m', memory: '64Mi' },
  limits: { cpu: cpuLimit, memory: '128Mi' },
});

/** InPlaceIfPossible, two nodes at a time, nginx with cpu/memory requests and limits (Burstable). */
function resizable(ns: string, name: string): DaemonSet {
  return nginxDaemonSet(ns, name, (ds) => {
    ds.spec['updateStrategy'] = {
      type: 'RollingUpdate',
      rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 2 },
    };
    (ds.spec.template.spec.containers[0] as Record<string, unknown>)['resources'] = resources('100m');
  });
}

/** Replaces the template's container with one whose resources are `r` (the rest as the DaemonSet has it). */
async function setResources(ns: string, name: string, r: Record<string, unknown>): Promise<void> {
  const [c] = (await h.daemonSet(ns, name)).spec.template.spec.containers;
  await h.patch(ns, name, { spec: { template: { spec: { containers: [{ ...c, resources: r }] } } } });
}

describe('Advanced DaemonSet in-place resize (pods/resize)', () => {
  it('a CPU limit change resizes every node’s pod in place: same UIDs, no restart, new resources reported', async () => {
    const ns = await namespace();
    await h.create(resizable(ns, 'cpu'));
    const first = await settled(ns, 'cpu', h.nodes.length);
    const before = await pods(ns);
    expect(before).toHaveLength(h.nodes.length);

    await setResources(ns, 'cpu', resources('200m'));
    await expect
      .poll(
        async () => (await pods(ns)).filter((p) => statusOf(p)?.resources?.limits?.['cpu'] === '200m').length,
        { timeout: 90_000 },
      )
      .toBe(h.nodes.length);
    const done = await settled(ns, 'cpu', h.nodes.length);
    expect(done.status!.updateRevision).not.toBe(first.status!.updateRevision);
    expect(done.status).toMatchObject({
      updatedNumberScheduled: h.nodes.length,
      numberReady: h.nodes.length,
      numberAvailable: h.nodes.length,
    });

    const after = await pods(ns);
    expect(after.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
    for (const p of after) {
      const old = before.find((b) => uidOf(b) === uidOf(p))!;
      expect(p.metadata!.labels!['controller-revision-hash']).toBe(done.status!.updateRevision);
      expect(container(p).resources).toMatchObject({ limits: { cpu: '200m', memory: '128Mi' } });
      expect(statusOf(p)?.resources).toMatchObject({ limits: { cpu: '200m' } });
      // the container was resized, not restarted
      expect(statusOf(p)?.restartCount).toBe(0);
      expect(statusOf(p)?.containerID).toBe(statusOf(old)?.containerID);
    }
    await expect
      .poll(async () => (await h.events(ns, 'SuccessfulUpdatePodInPlace')).length, { timeout: 20_000 })
      .toBe(h.nodes.length);
    expect(await h.events(ns, 'SuccessfulDelete')).toEqual([]);
    expect(await h.events(ns, 'QoSClassChangeRecreate')).toEqual([]);
  });

  it('a resize no node can hold is reported with events, the pods kept; reverting completes the rollout', async () => {
    const ns = await namespace();
    await h.create(resizable(ns, 'big'));
    const first = await settled(ns, 'big', h.nodes.length);
    const before = await pods(ns);

    // the simulated nodes allocate 8 CPUs: the API server refuses each pods/resize write (Kubernetes 1.35+)
    await setResources(ns, 'big', {
      requests: { cpu: '64', memory: '64Mi' },
      limits: { cpu: '64', memory: '128Mi' },
    });
    await expect
      .poll(async () => (await h.events(ns, 'ResizeInfeasible')).map((e) => e.message), { timeout: 30_000 })
      .toContainEqual(expect.stringMatching(/^pod \S+ cannot be resized in place: .*allocatable.*cpu/));
    // not retried into a recreate or a failure: every pod keeps its UID and its resources
    await holds(
      3_000,
      () => pods(ns),
      (list) => {
        expect(list.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
        for (const p of list) expect(statusOf(p)?.resources).toMatchObject({ limits: { cpu: '100m' } });
      },
    );
    expect(await h.events(ns, 'FailedUpdatePodInPlace')).toEqual([]);
    expect(await h.events(ns, 'SuccessfulDelete')).toEqual([]);
    expect((await h.daemonSet(ns, 'big')).status?.updatedNumberScheduled).toBe(0);

    await setResources(ns, 'big', resources('100m'));
    const back = await settled(ns, 'big', h.nodes.length);
    expect(back.status!.updateRevision).toBe(first.status!.updateRevision);
    const kept = await pods(ns);
    expect(kept.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
    for (const p of kept) expect(statusOf(p)?.restartCount).toBe(0);
  });
});
