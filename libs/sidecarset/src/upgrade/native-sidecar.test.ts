// Native sidecars (init containers with `restartPolicy: Always`) upgraded in place like the SidecarSet's containers
// (docs/adr/0090-native-sidecar-in-place-upgrade.md): every rule of the upgrade gives the same answer whether the
// sidecar is a container or a native sidecar — tables run both ways; the pod writes land in `spec.initContainers`.
import type { Pod } from '@regatta/lifecycle';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster } from '@regatta/workload';
import type { EventRecorder } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { SIDECARSET_HASH_KEY, SIDECARSET_INPLACE_UPDATE_STATE_KEY } from './keys.js';
import { getNextUpgradePods, sidecarSetUpgradable } from './next-upgrade.js';
import {
  isPodInHotUpgrading,
  isPodStateConsistent,
  isSidecarPodReady,
  podHasAllSidecars,
  sidecarContainersInPod,
} from './pod-state.js';
import { resetIdleTwins, upgradePodSidecars } from './pod-upgrade.js';
import { SidecarSetUpgradeReconciler } from './reconciler.js';
import { podContainer, sidecarStatus, sidecarsOf } from './sidecar-containers.js';
import { calculateStatus } from './status.js';
import {
  T0,
  asNativePod,
  asNativeSet,
  hotPod,
  hotSidecarSet,
  pod,
  pods,
  type PodOptions,
  restartChangedContainers,
  sidecarSet,
} from './testing/fixtures.js';
import type { SidecarSetView } from './types.js';

const initImages = (p: Pod) => (p.spec?.initContainers ?? []).map((c) => c.image);
const images = (p: Pod) => (p.spec?.containers ?? []).map((c) => c.image);

/** The kubelet's view after restarting the changed containers and native sidecars (restartCount + 1). */
function kubelet(p: Pod): Pod {
  const c = new MemoryCluster();
  c.add(p);
  restartChangedContainers(c);
  return c.all<Pod>('Pod')[0] as Pod;
}

describe('where native sidecars are found', () => {
  it('the SidecarSet: containers then native init containers; a plain init container is not a sidecar', () => {
    const set = sidecarSet({
      initContainers: [
        { name: 'setup', image: 'busybox:1' },
        { name: 'proxy', image: 'envoy:2', restartPolicy: 'Always' },
      ],
    });
    expect(sidecarsOf(set).map((c) => c.name)).toEqual(['cold-sidecar', 'proxy']);
    expect([...sidecarContainersInPod(set)]).toEqual(['cold-sidecar', 'proxy']);
    expect([...sidecarContainersInPod(asNativeSet(hotSidecarSet()))]).toEqual(['hot-1', 'hot-2']);
  });

  it('the pod: a native init container and its status; a plain init container of that name is not one', () => {
    const p = asNativePod(pod());
    expect(podContainer(p, 'cold-sidecar')).toMatchObject({
      image: 'cold-image:v1',
      restartPolicy: 'Always',
    });
    expect(sidecarStatus(p, 'cold-sidecar')).toMatchObject({ imageID: 'cold-image:v1-id' });
    expect(podContainer(p, 'setup')).toBeUndefined();
    expect(sidecarStatus(p, 'setup')).toBeUndefined();
    expect(podHasAllSidecars(asNativeSet(sidecarSet()), p)).toBe(true);
    // as upstream `IsPodConsistentWithSidecarSet`: only the SidecarSet's containers are required
    const bare = { ...pod(), spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } as Pod;
    expect(podHasAllSidecars(asNativeSet(sidecarSet()), bare)).toBe(true);
    expect(upgradePodSidecars(asNativeSet(sidecarSet()), bare, T0).changed).toEqual([]);
  });
});

describe('cold in-place upgrade of a native sidecar', () => {
  const set = asNativeSet(sidecarSet());
  const before = asNativePod(pod());

  it('sets the init container image only; the hash entry, the state (imageID before) and sidecarList written', () => {
    const { pod: after, changed } = upgradePodSidecars(set, before, T0);
    expect(changed).toEqual(['cold-sidecar']);
    expect(initImages(after)).toEqual(['busybox:1', 'cold-image:v2']);
    expect(images(after)).toEqual(['nginx:1']);
    const a = after.metadata?.annotations ?? {};
    expect(JSON.parse(a[SIDECARSET_HASH_KEY] ?? '{}')['test-sidecarset']).toMatchObject({
      hash: 'h2',
      sidecarList: ['cold-sidecar'],
    });
    expect(JSON.parse(a[SIDECARSET_INPLACE_UPDATE_STATE_KEY] ?? '{}')['test-sidecarset']).toMatchObject({
      lastContainerStatuses: { 'cold-sidecar': { imageID: 'cold-image:v1-id' } },
    });
    expect(upgradePodSidecars(set, after, T0).changed).toEqual([]);
  });

  it('is consistent once the kubelet restarted the native sidecar on the new image (restartCount + 1)', () => {
    const after = upgradePodSidecars(set, before, T0).pod;
    expect(isPodStateConsistent(set, after)).toBe(false);
    const restarted = kubelet(after);
    expect(sidecarStatus(restarted, 'cold-sidecar')).toMatchObject({
      image: 'cold-image:v2',
      restartCount: 1,
    });
    expect(restarted.status?.containerStatuses?.[0]).toMatchObject({ name: 'app', restartCount: 0 });
    expect(isPodStateConsistent(set, restarted)).toBe(true);
    expect(isSidecarPodReady(set, restarted)).toBe(true);
  });

  it('a ready native sidecar mid-upgrade is waited for; an image-only change is upgradable, another is not', () => {
    const mid = upgradePodSidecars(set, before, T0).pod;
    const stale = {
      ...mid,
      metadata: { ...mid.metadata, annotations: { ...mid.metadata?.annotations } },
    } as Pod;
    stale.metadata!.annotations![SIDECARSET_HASH_KEY] = before.metadata!.annotations![SIDECARSET_HASH_KEY]!;
    expect(sidecarSetUpgradable(set, stale)).toEqual({ canUpgrade: true, consistent: false });
    expect(sidecarSetUpgradable(set, before)).toEqual({ canUpgrade: true, consistent: true });
    const other = asNativeSet(sidecarSet());
    other.metadata!.annotations!['kruise.io/sidecarset-hash-without-image'] = 'without-2';
    expect(sidecarSetUpgradable(other, before)).toEqual({ canUpgrade: false, consistent: false });
  });
});

describe('the same rollout rules as for containers', () => {
  const rows: {
    name: string;
    strategy: NonNullable<SidecarSetView['spec']>['updateStrategy'];
    pods: Pod[];
  }[] = [
    { name: 'maxUnavailable 1', strategy: { maxUnavailable: 1 }, pods: pods(6, 0, 0) },
    {
      name: 'maxUnavailable 50%, 2 updated of which 1 not ready',
      strategy: { maxUnavailable: '50%' },
      pods: pods(6, 2, 1),
    },
    { name: 'partition 4 of 6', strategy: { maxUnavailable: 6, partition: 4 }, pods: pods(6, 0, 0) },
    { name: 'partition 50%', strategy: { maxUnavailable: 6, partition: '50%' }, pods: pods(6, 1, 0) },
    {
      name: 'update selector canary',
      strategy: { maxUnavailable: 6, selector: { matchLabels: { canary: 'true' } } },
      pods: pods(6, 0, 0, (i): PodOptions => ({ labels: i % 2 ? { canary: 'true' } : {} })),
    },
    {
      name: 'priority by label weight',
      strategy: {
        maxUnavailable: 2,
        priorityStrategy: {
          weightPriority: [{ weight: 10, matchSelector: { matchLabels: { tier: 'low' } } }],
        },
      },
      pods: pods(6, 0, 0, (i): PodOptions => ({ labels: i >= 3 ? { tier: 'low' } : {} })),
    },
  ];
  it.each(rows)('$name: the same pods chosen, the same status', (r) => {
    const set = sidecarSet({ updateStrategy: { type: 'RollingUpdate', ...r.strategy } });
    const native = asNativeSet(set);
    const nativePods = r.pods.map((p) => asNativePod(p));
    const names = (ps: Pod[]) => ps.map((p) => p.metadata?.name);
    const plain = getNextUpgradePods(set, r.pods);
    expect(plain.upgrade.length).toBeGreaterThan(0);
    expect(names(getNextUpgradePods(native, nativePods).upgrade)).toEqual(names(plain.upgrade));
    expect(calculateStatus(native, nativePods, 'rev', 0)).toEqual(calculateStatus(set, r.pods, 'rev', 0));
  });

  it('status: a native sidecar restarted on the new image counts updated and ready; one still on the old image not ready', () => {
    const set = asNativeSet(sidecarSet());
    const upgraded = upgradePodSidecars(set, asNativePod(pod({ name: 'a' })), T0).pod;
    const done = kubelet(upgraded);
    expect(calculateStatus(set, [upgraded, done, asNativePod(pod({ name: 'c' }))], 'rev', 0)).toMatchObject({
      matchedPods: 3,
      updatedPods: 2,
      readyPods: 2,
      updatedReadyPods: 1,
    });
  });
});

describe('hot upgrade of a native sidecar', () => {
  const set = asNativeSet(hotSidecarSet('hot-image:v2'));
  const before = asNativePod(hotPod({ one: 'hot-image:v1', two: 'empty:1' }));

  it('the idle twin init container takes the new image, then the old one goes back to the empty image', () => {
    const { pod: switched, changed } = upgradePodSidecars(set, before, T0);
    expect(changed).toEqual(['hot-2']);
    expect(initImages(switched)).toEqual(['busybox:1', 'hot-image:v1', 'hot-image:v2']);
    expect(isPodInHotUpgrading(set, switched)).toBe(true);
    expect(isSidecarPodReady(set, switched)).toBe(false);
    const { pod: reset, changed: idle } = resetIdleTwins(set, kubelet(switched), T0);
    expect(idle).toEqual(['hot-1']);
    expect(initImages(reset)).toEqual(['busybox:1', 'empty:1', 'hot-image:v2']);
    expect(images(reset)).toEqual(['nginx:1']);
    const done = kubelet(reset);
    expect(isPodInHotUpgrading(set, done)).toBe(false);
    expect(isSidecarPodReady(set, done)).toBe(true);
  });
});

describe('the reconciler on native sidecars', () => {
  const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };
  it('one pod per round under maxUnavailable 1, each restarted in place; the status counts them', async () => {
    const c = new MemoryCluster();
    c.add(
      asNativeSet(sidecarSet()),
      asNativePod(pod({ name: 'pod-0' })),
      asNativePod(pod({ name: 'pod-1', createdAt: 1 })),
    );
    const recorder = {
      normal: () => Promise.resolve(),
      warning: () => Promise.resolve(),
    } as unknown as EventRecorder;
    const round = () =>
      new SidecarSetUpgradeReconciler({
        client: c.writer,
        sidecarsets: c.reader('SidecarSet'),
        pods: c.reader('Pod'),
        revisions: c.reader('ControllerRevision'),
        controllerNamespace: 'kruise-system',
        expectations: new Expectations(),
        recorder,
        now: () => T0,
      }).reconcile({ name: 'test-sidecarset' }, ctx);
    const podsNow = () => c.all<Pod>('Pod').sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
    await round();
    // newest first (upstream ActivePods order)
    expect(podsNow().map(initImages)).toEqual([
      ['busybox:1', 'cold-image:v1'],
      ['busybox:1', 'cold-image:v2'],
    ]);
    restartChangedContainers(c);
    await round();
    restartChangedContainers(c);
    await round();
    expect(podsNow().map(initImages)).toEqual([
      ['busybox:1', 'cold-image:v2'],
      ['busybox:1', 'cold-image:v2'],
    ]);
    expect(podsNow().map((p) => sidecarStatus(p, 'cold-sidecar')?.restartCount)).toEqual([1, 1]);
    expect(podsNow().map(images)).toEqual([['nginx:1'], ['nginx:1']]);
    const set = c.get('SidecarSet', undefined, 'test-sidecarset') as SidecarSetView;
    expect(set.status).toMatchObject({ matchedPods: 2, updatedPods: 2, readyPods: 2, updatedReadyPods: 2 });
  });
});
