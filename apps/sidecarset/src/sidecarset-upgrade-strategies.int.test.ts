// SidecarSet upgrade strategies as a user sees them (OpenKruise test/e2e/apps/v1beta1/sidecarset.go): hot upgrade
// (the idle twin takes the new image and works, then the old twin is reset to the empty image with
// ResetContainerSucceed), a change beyond the image (no pod updated, SidecarSetUpgradable=False and
// NotUpgradablePods), and a selector canary (only the selected pods updated).
import { describe, expect, it } from 'vitest';
import { isReady, type Pod } from '@regatta/testing';
import { containerImage, coldPod, hotUpgradePod } from './testing/upgrade-fixtures.js';
import { SCS, useUpgradeScenarios } from './testing/upgrade-harness.js';

const h = useUpgradeScenarios();
const EMPTY = 'registry.example/empty:1';

describe('SidecarSet upgrade strategies', () => {
  it('hot upgrade: the idle twin takes the new image, then the old one is reset to the empty image', async () => {
    const ns = await h.namespace();
    const name = `hot-${h.id}`;
    const labels = { app: 'hot', 'scsu-file': h.id };
    await h.createRaw({
      ...SCS,
      metadata: {
        name,
        annotations: { 'kruise.io/sidecarset-hash': 'h1', 'kruise.io/sidecarset-hash-without-image': 'w1' },
      },
      spec: {
        selector: { matchLabels: labels },
        containers: [
          {
            name: 'sidecar',
            image: 'busybox:1.36',
            upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: EMPTY },
          },
        ],
        updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
      },
    });
    const opts = { set: name, hash: 'h1', withoutImageHash: 'w1', labels };
    const before = await h.createReadyPods(ns, [hotUpgradePod('hot-0', 'busybox:1.36', EMPTY, opts)]);
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(1);

    await h.client.patch(
      { ...SCS, name },
      [
        { op: 'replace', path: '/spec/containers/0/image', value: 'busybox:1.37' },
        { op: 'replace', path: '/metadata/annotations/kruise.io~1sidecarset-hash', value: 'h2' },
      ],
      { type: 'json' },
    );
    let pod: Pod | undefined;
    await expect
      .poll(
        async () => {
          pod = (await h.pods(ns))[0];
          return [containerImage(pod!, 'sidecar-1'), containerImage(pod!, 'sidecar-2'), isReady(pod!)];
        },
        { timeout: 90_000, interval: 500 },
      )
      .toEqual([EMPTY, 'busybox:1.37', true]);
    const a = pod!.metadata?.annotations ?? {};
    expect(JSON.parse(a['kruise.io/sidecarset-working-hotupgrade-container'] ?? '{}')).toEqual({
      sidecar: 'sidecar-2',
    });
    expect([
      a['version.sidecarset.kruise.io/sidecar-1'],
      a['versionalt.sidecarset.kruise.io/sidecar-2'],
    ]).toEqual(['0', '0']);
    expect(pod!.metadata?.uid).toBe(before[0]!.metadata?.uid);
    await expect
      .poll(async () => (await h.events(ns, 'ResetContainerSucceed')).map((e) => e.message), {
        timeout: 30_000,
      })
      .toEqual(['reset sidecar container image empty successfully']);
    await expect
      .poll(async () => (await h.sidecarSet(name)).status, { timeout: 30_000 })
      .toMatchObject({ matchedPods: 1, updatedPods: 1, readyPods: 1, updatedReadyPods: 1 });
  });

  it('a change beyond the image: no pod updated, SidecarSetUpgradable=False, NotUpgradablePods', async () => {
    const ns = await h.namespace();
    const name = `immutable-${h.id}`;
    await h.createSidecarSet(name, 'immutable', 'busybox:1.36');
    await h.createInjectedPods(ns, name, 'immutable', 'busybox:1.36', 2);
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(2);
    // an env var added with the image, and the hashes the webhook computes for it: both change (the sidecars' spec
    // changes beyond images and resources too, so the in-place resize path cannot take it either: ADR 0087)
    await h.client.patch(
      { ...SCS, name },
      [
        { op: 'replace', path: '/spec/containers/0/image', value: 'busybox:1.37' },
        { op: 'add', path: '/spec/containers/0/env', value: [{ name: 'ADDED', value: '1' }] },
        { op: 'replace', path: '/metadata/annotations/kruise.io~1sidecarset-hash', value: 'h-other' },
        {
          op: 'replace',
          path: '/metadata/annotations/kruise.io~1sidecarset-hash-without-image',
          value: 'w-other',
        },
      ],
      { type: 'json' },
    );
    await expect
      .poll(
        async () =>
          (await h.pods(ns)).map((p) => {
            const c = p.status?.conditions?.find((x) => x.type === 'SidecarSetUpgradable');
            return [c?.status, c?.reason, c?.message];
          }),
        { timeout: 30_000 },
      )
      .toEqual(Array(2).fill(['False', 'UpdateImmutableField', JSON.stringify({ [name]: false })]));
    // the event is written after the pod conditions and not awaited by the reconciler: poll for it
    await expect
      .poll(async () => (await h.sidecarSetEvents(name, 'NotUpgradablePods'))[0]?.message)
      .toBe('SidecarSet in-place update detected 2 not upgradable pod(s) in this round, will skip them.');
    expect((await h.pods(ns)).map((p) => containerImage(p, 'sidecar'))).toEqual([
      'busybox:1.36',
      'busybox:1.36',
    ]);
  });

  it('selector canary: only the selected pods are updated', async () => {
    const ns = await h.namespace();
    const name = `canary-${h.id}`;
    await h.createSidecarSet(name, 'canary', 'busybox:1.36', {
      maxUnavailable: 4,
      selector: { matchLabels: { canary: 'true' } },
    });
    const opts = (canary: boolean) => ({
      set: name,
      hash: 'h-busybox136',
      withoutImageHash: 'h-without-image',
      labels: { app: 'canary', 'scsu-file': h.id, ...(canary ? { canary: 'true' } : {}) },
    });
    await h.createReadyPods(
      ns,
      [0, 1, 2, 3].map((i) => coldPod(`canary-${i}`, 'busybox:1.36', opts(i < 2))),
    );
    await expect
      .poll(async () => (await h.sidecarSet(name)).status?.matchedPods, { timeout: 30_000 })
      .toBe(4);
    await h.setSidecarImage(name, 'busybox:1.37');
    await expect
      .poll(
        async () =>
          (await h.pods(ns))
            .filter((p) => isReady(p) && containerImage(p, 'sidecar') === 'busybox:1.37')
            .map((p) => p.metadata?.name)
            .sort(),
        { timeout: 60_000, interval: 500 },
      )
      .toEqual(['canary-0', 'canary-1']);
    await expect
      .poll(async () => (await h.sidecarSet(name)).status, { timeout: 30_000 })
      .toMatchObject({ matchedPods: 4, updatedPods: 2, updatedReadyPods: 2 });
  });
});
