// Pod-level upgrade logic: OpenKruise `pkg/control/sidecarcontrol/sidecarset_control.go`
// (IsSidecarContainerUpdateCompleted, IsPodStateConsistent), `sidecarset_processor.go` (updatePodSidecarContainer,
// calculateStatus, updatePodSidecarSetUpgradableCondition) and `sidecarset_hotupgrade.go`.
import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import {
  SIDECARSET_HASH_KEY,
  SIDECARSET_INPLACE_UPDATE_STATE_KEY,
  WORKING_HOT_UPGRADE_CONTAINER_KEY,
} from './keys.js';
import {
  isPodInHotUpgrading,
  isPodStateConsistent,
  isSidecarContainerUpdateCompleted,
  isSidecarPodReady,
  sidecarContainersInPod,
  workingSidecarContainers,
} from './pod-state.js';
import { resetIdleTwins, upgradableCondition, upgradePodSidecars } from './pod-upgrade.js';
import { calculateStatus, matchingPods, statusChanged } from './status.js';
import { T0, hotPod, hotSidecarSet, pod, sidecarSet } from './testing/fixtures.js';

/** The kubelet's view after restarting the container with its spec image. */
function restarted(p: Pod, names: string[]): Pod {
  const image = new Map((p.spec?.containers ?? []).map((c) => [c.name, c.image]));
  return {
    ...p,
    status: {
      ...p.status,
      containerStatuses: (p.status?.containerStatuses ?? []).map((s) =>
        names.includes(s.name)
          ? {
              ...s,
              image: image.get(s.name) ?? '',
              imageID: `${image.get(s.name)}-id`,
              restartCount: (s.restartCount ?? 0) + 1,
            }
          : s,
      ),
    },
  };
}

const withState = (p: Pod, state: unknown): Pod => ({
  ...p,
  metadata: {
    ...p.metadata,
    annotations: { ...p.metadata?.annotations, [SIDECARSET_INPLACE_UPDATE_STATE_KEY]: JSON.stringify(state) },
  },
});

describe('isSidecarContainerUpdateCompleted', () => {
  const names = new Set(['cold-sidecar']);
  const set = ['test-sidecarset'];
  it('no state annotation: completed', () => {
    expect(isSidecarContainerUpdateCompleted(pod(), set, names)).toBe(true);
  });
  it('recorded imageID unchanged and status image differs from spec: not completed', () => {
    const p = pod();
    const upgraded = {
      ...p,
      spec: {
        ...p.spec,
        containers: [{ name: 'cold-sidecar', image: 'cold-image:v2' }, p.spec!.containers![1]!],
      },
    } as Pod;
    const s = withState(upgraded, {
      'test-sidecarset': {
        revision: 'h2',
        updateTimestamp: T0,
        lastContainerStatuses: { 'cold-sidecar': { imageID: 'cold-image:v1-id' } },
      },
    });
    expect(isSidecarContainerUpdateCompleted(s, set, names)).toBe(false);
    expect(isSidecarContainerUpdateCompleted(restarted(s, ['cold-sidecar']), set, names)).toBe(true);
  });
  it('an unreadable state: not completed', () => {
    const p = {
      ...pod(),
      metadata: { ...pod().metadata, annotations: { [SIDECARSET_INPLACE_UPDATE_STATE_KEY]: '{' } },
    } as Pod;
    expect(isSidecarContainerUpdateCompleted(p, set, names)).toBe(false);
  });
});

describe('sidecarContainersInPod', () => {
  it('computed once per SidecarSet containers list, and the working set is a copy of it', () => {
    const set = hotSidecarSet();
    const names = sidecarContainersInPod(set);
    expect([...names]).toEqual(['hot-1', 'hot-2']);
    expect(sidecarContainersInPod({ ...set, status: { matchedPods: 1 } })).toBe(names);
    const p = hotPod({ one: 'hot-image:v1', two: 'empty:1' });
    expect([...workingSidecarContainers(set, p)]).toEqual(['hot-1']);
    expect([...sidecarContainersInPod(set)]).toEqual(['hot-1', 'hot-2']);
    expect([...sidecarContainersInPod(sidecarSet())]).toEqual(['cold-sidecar']);
  });
});

describe('isPodStateConsistent', () => {
  it('digest images: the status imageID must carry the digest', () => {
    const set = sidecarSet({ containers: [{ name: 'cold-sidecar', image: 'repo/img@sha256:aaa' }] });
    const p = pod({ sidecarImage: 'repo/img@sha256:aaa' });
    const ok = {
      ...p,
      status: {
        ...p.status,
        containerStatuses: p.status!.containerStatuses!.map((s) =>
          s.name === 'cold-sidecar' ? { ...s, imageID: 'docker-pullable://repo/img@sha256:aaa' } : s,
        ),
      },
    } as Pod;
    expect(isPodStateConsistent(set, ok)).toBe(true);
    const old = {
      ...ok,
      status: {
        ...ok.status,
        containerStatuses: ok.status!.containerStatuses!.map((s) =>
          s.name === 'cold-sidecar' ? { ...s, imageID: 'repo/img@sha256:bbb' } : s,
        ),
      },
    } as Pod;
    expect(isPodStateConsistent(set, old)).toBe(false);
  });
  it('a container status missing: not consistent', () => {
    const p = pod();
    expect(
      isPodStateConsistent(sidecarSet(), {
        ...p,
        status: { ...p.status, containerStatuses: [p.status!.containerStatuses![0]!] },
      } as Pod),
    ).toBe(false);
  });
});

describe('cold upgrade of one pod', () => {
  const set = { ...sidecarSet(), status: { latestRevision: 'test-sidecarset-abc' } };
  const before = pod();
  const { pod: after, changed } = upgradePodSidecars(set, before, T0);

  it('sets only the sidecar image, keeps the app container', () => {
    expect(changed).toEqual(['cold-sidecar']);
    expect(after.spec?.containers?.map((c) => c.image)).toEqual(['cold-image:v2', 'nginx:1']);
    expect(after.metadata?.uid).toBe(before.metadata?.uid);
  });
  it('writes the hash entry with controllerRevision and the in-place state with the old imageID', () => {
    const hash = JSON.parse(after.metadata?.annotations?.[SIDECARSET_HASH_KEY] ?? '{}');
    expect(hash['test-sidecarset']).toEqual({
      updateTimestamp: '2026-12-03T08:00:00Z',
      hash: 'h2',
      sidecarSetName: 'test-sidecarset',
      sidecarList: ['cold-sidecar'],
      controllerRevision: 'test-sidecarset-abc',
    });
    expect(JSON.parse(after.metadata?.annotations?.[SIDECARSET_INPLACE_UPDATE_STATE_KEY] ?? '{}')).toEqual({
      'test-sidecarset': {
        revision: 'h2',
        updateTimestamp: '2026-12-03T08:00:00Z',
        lastContainerStatuses: { 'cold-sidecar': { imageID: 'cold-image:v1-id' } },
      },
    });
  });
  it('is inconsistent until the kubelet restarted the sidecar, then consistent and ready', () => {
    expect(isPodStateConsistent(set, after)).toBe(false);
    expect(isPodStateConsistent(set, restarted(after, ['cold-sidecar']))).toBe(true);
  });
  it('patchPodMetadata is applied (Retain keeps, Overwrite sets, MergePatchJson merges)', () => {
    const p = {
      ...before,
      metadata: {
        ...before.metadata,
        annotations: { ...before.metadata?.annotations, keep: 'old', json: '{"log-agent":1}' },
      },
    } as Pod;
    const s2 = sidecarSet({
      patchPodMetadata: [
        { annotations: { keep: 'new', fresh: 'v' } },
        { annotations: { over: 'x' }, patchPolicy: 'Overwrite' },
        { annotations: { json: '{"envoy":2}' }, patchPolicy: 'MergePatchJson' },
      ],
    });
    const a = upgradePodSidecars(s2, p, T0).pod.metadata?.annotations ?? {};
    expect([a['keep'], a['fresh'], a['over'], JSON.parse(a['json'] ?? '{}')]).toEqual([
      'old',
      'v',
      'x',
      { 'log-agent': 1, envoy: 2 },
    ]);
  });
});

describe('hot upgrade', () => {
  const set = hotSidecarSet('hot-image:v2');
  it('the idle twin on the empty image takes the new image and becomes working', () => {
    const p = hotPod({ one: 'hot-image:v1', two: 'empty:1' });
    const { pod: after, changed } = upgradePodSidecars(set, p, T0);
    expect(changed).toEqual(['hot-2']);
    expect(after.spec?.containers?.map((c) => c.image)).toEqual(['hot-image:v1', 'hot-image:v2', 'nginx:1']);
    const a = after.metadata?.annotations ?? {};
    expect(JSON.parse(a[WORKING_HOT_UPGRADE_CONTAINER_KEY] ?? '{}')).toEqual({ hot: 'hot-2' });
    expect([
      a['version.sidecarset.kruise.io/hot-2'],
      a['versionalt.sidecarset.kruise.io/hot-2'],
      a['versionalt.sidecarset.kruise.io/hot-1'],
    ]).toEqual(['22', '1', '22']);
    expect(isPodInHotUpgrading(set, after)).toBe(true);
    expect(isSidecarPodReady(set, after)).toBe(false);
  });
  it('then the old twin is reset to the empty image with versions 0', () => {
    const switched = restarted(
      upgradePodSidecars(set, hotPod({ one: 'hot-image:v1', two: 'empty:1' }), T0).pod,
      ['hot-2'],
    );
    const { pod: reset, changed } = resetIdleTwins(set, switched, T0);
    expect(changed).toEqual(['hot-1']);
    expect(reset.spec?.containers?.map((c) => c.image)).toEqual(['empty:1', 'hot-image:v2', 'nginx:1']);
    expect(reset.metadata?.annotations?.['version.sidecarset.kruise.io/hot-1']).toBe('0');
    expect(reset.metadata?.annotations?.['versionalt.sidecarset.kruise.io/hot-2']).toBe('0');
    const done = restarted(reset, ['hot-1']);
    expect(isPodInHotUpgrading(set, done)).toBe(false);
    expect(isSidecarPodReady(set, done)).toBe(true);
  });
  it('without an empty twin, the not-ready twin is upgraded', () => {
    const p = hotPod({ one: 'hot-image:v1', two: 'hot-image:v0' });
    const notReady = {
      ...p,
      status: {
        ...p.status,
        containerStatuses: p.status!.containerStatuses!.map((s) =>
          s.name === 'hot-1' ? { ...s, ready: false } : s,
        ),
      },
    } as Pod;
    expect(upgradePodSidecars(set, notReady, T0).changed).toEqual(['hot-1']);
  });
});

describe('SidecarSetUpgradable condition', () => {
  it('a map per SidecarSet; False with UpdateImmutableField while any is false; unchanged → no write', () => {
    const c1 = upgradableCondition(sidecarSet(), pod(), false, T0);
    expect(c1).toMatchObject({
      status: 'False',
      reason: 'UpdateImmutableField',
      message: '{"test-sidecarset":false}',
    });
    const p = { ...pod(), status: { ...pod().status, conditions: [c1!] } } as Pod;
    expect(upgradableCondition(sidecarSet(), p, false, T0)).toBeUndefined();
    expect(upgradableCondition(sidecarSet(), p, true, T0)).toMatchObject({
      status: 'True',
      reason: 'AllSidecarsetUpgradable',
    });
  });
});

describe('matching pods and status', () => {
  it('counts active, injected pods holding every sidecar', () => {
    const set = sidecarSet();
    const injectedElsewhere = pod({ name: 'other' });
    injectedElsewhere.metadata!.annotations!['kruise.io/sidecarset-injected-list'] = 'another';
    const deleted = {
      ...pod({ name: 'gone' }),
      metadata: { ...pod({ name: 'gone' }).metadata, deletionTimestamp: T0.toISOString() },
    } as Pod;
    const noSidecar = {
      ...pod({ name: 'bare' }),
      spec: { containers: [{ name: 'app', image: 'nginx:1' }] },
    } as Pod;
    const matched = matchingPods(
      set,
      [pod({ name: 'a' }), injectedElsewhere, deleted, noSidecar, pod({ name: 'b', labels: { app: 'x' } })],
      () => true,
    );
    expect(matched.map((p) => p.metadata?.name)).toEqual(['a']);
  });
  it('a selector that cannot be used (stored without the webhook) matches no pod; one outside a covered namespace neither', () => {
    const broken = sidecarSet({
      selector: { matchExpressions: [{ key: 'app', operator: 'Bogus' as 'In' }] },
    });
    expect(matchingPods(broken, [pod({ name: 'a' })], () => true)).toEqual([]);
    expect(matchingPods(sidecarSet(), [pod({ name: 'a' })], () => false)).toEqual([]);
  });
  it('matched/updated/ready/updatedReady and the change check', () => {
    const all = [
      pod({ name: 'a', updated: true }),
      pod({ name: 'b', updated: true, ready: false }),
      pod({ name: 'c' }),
    ];
    const status = calculateStatus(sidecarSet(), all, 'rev-1', 0);
    expect(status).toEqual({
      observedGeneration: 2,
      matchedPods: 3,
      updatedPods: 2,
      readyPods: 2,
      updatedReadyPods: 1,
      latestRevision: 'rev-1',
      collisionCount: 0,
    });
    expect(statusChanged(status, status)).toBe(false);
    expect(statusChanged({ ...status, readyPods: 1 }, status)).toBe(true);
  });
});
