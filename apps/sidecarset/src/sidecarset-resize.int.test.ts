// In-place resize of injected sidecars (docs/adr/0087-in-place-resource-resize.md, docs/sidecarset.md "Resources
// resized in place") on simulated nodes: a SidecarSet whose only change is a sidecar's CPU limit resizes every
// injected pod through pods/resize (same UID, same sidecar container, no restart), the pods counted updated and then
// updated-ready once the node reports the new limit; a partition holds pods back; a resize the node cannot hold is
// told once as a `ResizeInfeasible` event on the SidecarSet and not retried. As the upgrade harness, the SidecarSet
// carries hand-made hash annotations (its webhook is not served here): each change gives both new values.
import { describe, expect, it } from 'vitest';
import { holds, type Pod } from '@regatta/testing';
import { UNTIL_STOPPED } from './testing/upgrade-fixtures.js';
import { SCS, type SidecarSetObject, useUpgradeScenarios } from './testing/upgrade-harness.js';

const h = useUpgradeScenarios();

type Resources = { requests: Record<string, string>; limits: Record<string, string> };
const base = (cpuLimit: string, cpuRequest = '50m'): Resources => ({
  requests: { cpu: cpuRequest, memory: '32Mi' },
  limits: { cpu: cpuLimit, memory: '64Mi' },
});

const sidecarOf = (p: Pod) => p.spec?.containers?.find((c) => c.name === 'sidecar');
const sidecarStatusOf = (p: Pod) =>
  p.status?.containerStatuses?.find((c) => c.name === 'sidecar') as
    | { containerID?: string; restartCount?: number; resources?: Resources }
    | undefined;

/** A SidecarSet `name` whose cold sidecar runs `resources` (hash annotations named after `version`). */
async function createSet(
  name: string,
  app: string,
  resources: Resources,
  strategy: Record<string, unknown> = {},
) {
  const set: SidecarSetObject = {
    ...SCS,
    metadata: {
      name,
      annotations: {
        'kruise.io/sidecarset-hash': 'h-v1',
        'kruise.io/sidecarset-hash-without-image': 'w-v1',
      },
    },
    spec: {
      selector: { matchLabels: { app, 'scsr-file': h.id } },
      containers: [
        {
          name: 'sidecar',
          image: 'busybox:1.36',
          resources,
          podInjectPolicy: 'AfterAppContainer',
          upgradeStrategy: { upgradeType: 'ColdUpgrade' },
        },
      ],
      updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1, ...strategy },
    },
  };
  await h.createRaw(set);
}

/** `kubectl edit` through the SidecarSet webhook: the sidecar's resources and both hashes. */
async function setResources(name: string, resources: Resources, version: string) {
  await h.client.patch(
    { ...SCS, name },
    [
      { op: 'replace', path: '/spec/containers/0/resources', value: resources },
      { op: 'replace', path: '/metadata/annotations/kruise.io~1sidecarset-hash', value: `h-${version}` },
      {
        op: 'replace',
        path: '/metadata/annotations/kruise.io~1sidecarset-hash-without-image',
        value: `w-${version}`,
      },
    ],
    { type: 'json' },
  );
}

/** `n` pods as injection leaves them with the SidecarSet at v1. */
async function injectedPods(ns: string, setName: string, app: string, n: number, resources: Resources) {
  const entry = (hash: string) =>
    JSON.stringify({ [setName]: { hash, sidecarSetName: setName, sidecarList: ['sidecar'] } });
  const pods: Pod[] = Array.from({ length: n }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${app}-${i}`,
      labels: { app, 'scsr-file': h.id },
      annotations: {
        'kruise.io/sidecarset-hash': entry('h-v1'),
        'kruise.io/sidecarset-hash-without-image': entry('w-v1'),
        'kruise.io/sidecarset-injected-list': setName,
      },
    },
    spec: {
      containers: [
        // Kubernetes accepts a resize only of a pod whose first running container reports its resources (the
        // version-skew rule of ValidatePodResize); the simulated node reports them for containers that ask for some
        { name: 'main', image: 'nginx:1.27', resources: { requests: { cpu: '10m', memory: '16Mi' } } },
        {
          name: 'sidecar',
          image: 'busybox:1.36',
          command: UNTIL_STOPPED,
          env: [{ name: 'IS_INJECTED', value: 'true' }],
          resources,
        },
      ],
    },
  }));
  return h.createReadyPods(ns, pods);
}

const resizedTo = (cpu: string) => (p: Pod) =>
  sidecarOf(p)?.resources?.limits?.['cpu'] === cpu && sidecarStatusOf(p)?.resources?.limits?.cpu === cpu;

describe('SidecarSet in-place resize (pods/resize)', () => {
  it('a sidecar CPU limit change resizes every injected pod in place: same UID and container, no restart', async () => {
    const ns = await h.namespace();
    const name = `resize-${h.id}`;
    await createSet(name, 'resize', base('100m'), { maxUnavailable: 2 });
    const before = await injectedPods(ns, name, 'resize', 3, base('100m'));
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(3);

    await setResources(name, base('200m'), 'v2');
    await expect
      .poll(
        async () => {
          const s = (await h.sidecarSet(name)).status;
          const pods = await h.pods(ns);
          return [pods.filter(resizedTo('200m')).length, s?.matchedPods, s?.updatedPods, s?.updatedReadyPods];
        },
        { timeout: 90_000, interval: 500 },
      )
      .toEqual([3, 3, 3, 3]);
    const after = await h.pods(ns);
    expect(after.map((p) => p.metadata?.uid).sort()).toEqual(before.map((p) => p.metadata?.uid).sort());
    for (const p of after) {
      const old = before.find((b) => b.metadata?.uid === p.metadata?.uid);
      expect(sidecarStatusOf(p)?.containerID).toBe(old && sidecarStatusOf(old)?.containerID);
      expect(sidecarStatusOf(p)?.restartCount).toBe(0);
      expect(sidecarOf(p)?.resources).toMatchObject({ limits: { cpu: '200m' }, requests: { cpu: '50m' } });
      const hashes = JSON.parse(p.metadata?.annotations?.['kruise.io/sidecarset-hash-without-image'] ?? '{}');
      expect(hashes[name]?.hash).toBe('w-v2');
    }
    expect(await h.sidecarSetEvents(name, 'NotUpgradablePods')).toHaveLength(0);
  });

  it('a partition holds that many pods on their old resources', async () => {
    const ns = await h.namespace();
    const name = `part-${h.id}`;
    await createSet(name, 'part', base('100m'), { partition: 2, maxUnavailable: 1 });
    await injectedPods(ns, name, 'part', 4, base('100m'));
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(4);

    await setResources(name, base('200m'), 'v2');
    await expect
      .poll(async () => (await h.pods(ns)).filter(resizedTo('200m')).length, {
        timeout: 60_000,
        interval: 500,
      })
      .toBe(2);
    await holds(
      5_000,
      () => h.pods(ns),
      (pods) =>
        expect(pods.filter((p) => sidecarOf(p)?.resources?.limits?.['cpu'] === '200m')).toHaveLength(2),
    );
    expect((await h.sidecarSet(name)).status).toMatchObject({ matchedPods: 4, updatedPods: 2 });
    await h.patchStrategy(name, { partition: 0 });
    await expect
      .poll(
        async () => {
          const s = (await h.sidecarSet(name)).status;
          return [(await h.pods(ns)).filter(resizedTo('200m')).length, s?.updatedPods, s?.updatedReadyPods];
        },
        { timeout: 60_000, interval: 500 },
      )
      .toEqual([4, 4, 4]);
  });

  it('a resize the node cannot hold is told once on the SidecarSet and not retried', async () => {
    const ns = await h.namespace();
    const name = `big-${h.id}`;
    await createSet(name, 'big', base('100m'));
    await injectedPods(ns, name, 'big', 1, base('100m'));
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(1);
    // more CPU than a node allocates: the API server refuses the resize (the kubelet would answer Infeasible)
    await setResources(name, base('64', '64'), 'v2');
    await expect
      .poll(async () => (await h.sidecarSetEvents(name, 'ResizeInfeasible')).length, { timeout: 30_000 })
      .toBe(1);
    const [event] = await h.sidecarSetEvents(name, 'ResizeInfeasible');
    expect(event?.message).toMatch(/cannot be resized in place: .*cpu/);
    await holds(
      5_000,
      async () => ({ pods: await h.pods(ns), events: await h.sidecarSetEvents(name, 'ResizeInfeasible') }),
      ({ pods, events }) => {
        expect(pods.map((p) => sidecarOf(p)?.resources?.limits?.['cpu'])).toEqual(['100m']);
        expect(events.map((e) => e.count ?? 1)).toEqual([1]);
      },
    );
    expect((await h.sidecarSet(name)).status).toMatchObject({ matchedPods: 1, updatedPods: 0 });
  });
});
