import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import {
  SIDECARSET_HASH_KEY,
  SIDECARSET_HASH_WITHOUT_IMAGE_KEY,
  SIDECARSET_INPLACE_UPDATE_STATE_KEY,
  SIDECARSET_NAME_LABEL,
} from './keys.js';
import { getNextUpgradePods } from './next-upgrade.js';
import { isPodStateConsistent, resizedSidecars } from './pod-state.js';
import { upgradePodSidecars } from './pod-upgrade.js';
import { planSidecarResize, podSidecarRevisionSpec } from './resize.js';
import { isSidecarResizeActuated } from './resize-actuation.js';
import { T0, pod, pods, sidecarSet } from './testing/fixtures.js';
import type { SidecarContainerView } from './types.js';

const res = (limitsCpu: string, requestsCpu = '100m', memory = '64Mi') => ({
  limits: { cpu: limitsCpu, memory },
  requests: { cpu: requestsCpu, memory },
});
const sidecar = (o: Partial<SidecarContainerView> = {}): SidecarContainerView => ({
  name: 'cold-sidecar',
  image: 'cold-image:v2',
  resources: res('500m'),
  ...o,
});
const setWith = (...containers: SidecarContainerView[]) => sidecarSet({ containers });
/** A pod whose sidecar runs `resources` (Burstable: requests below limits). */
const podWith = (resources = res('500m'), base: Pod = pod()): Pod => ({
  ...base,
  spec: {
    ...base.spec,
    containers: (base.spec?.containers ?? []).map((c) =>
      c.name === 'cold-sidecar' ? { ...c, resources } : c,
    ),
  },
});

describe('planSidecarResize', () => {
  const before = { containers: [sidecar({ image: 'cold-image:v1' })] };
  const cases: [
    string,
    SidecarContainerView,
    { ok: true; wanted: unknown } | { ok: false; match: RegExp },
  ][] = [
    [
      'cpu limit changed',
      sidecar({ resources: res('1') }),
      { ok: true, wanted: { 'cold-sidecar': { limits: { cpu: '1' } } } },
    ],
    [
      'cpu request and memory changed, with the image',
      sidecar({ image: 'cold-image:v3', resources: res('500m', '200m', '128Mi') }),
      {
        ok: true,
        wanted: {
          'cold-sidecar': { limits: { memory: '128Mi' }, requests: { cpu: '200m', memory: '128Mi' } },
        },
      },
    ],
    ['the same quantity spelled otherwise', sidecar({ resources: res('0.5') }), { ok: true, wanted: {} }],
    ['images only', sidecar({ image: 'cold-image:v9' }), { ok: true, wanted: {} }],
    [
      'a limit added',
      sidecar({
        resources: { ...res('500m'), limits: { cpu: '500m', memory: '64Mi', 'ephemeral-storage': '1Gi' } },
      }),
      { ok: false, match: /limits.ephemeral-storage added/ },
    ],
    [
      'a request removed',
      sidecar({ resources: { limits: { cpu: '500m', memory: '64Mi' }, requests: { memory: '64Mi' } } }),
      { ok: false, match: /requests.cpu removed/ },
    ],
    [
      'another resource changed',
      sidecar({
        resources: {
          limits: { cpu: '500m', memory: '64Mi', 'nvidia.com/gpu': '2' },
          requests: res('500m').requests,
        },
      }),
      { ok: false, match: /added|only cpu and memory/ },
    ],
    [
      'env changed too',
      sidecar({ resources: res('1'), env: [{ name: 'A', value: 'b' }] }),
      { ok: false, match: /beyond its image and resources/ },
    ],
    [
      'hot-upgrade sidecar',
      sidecar({
        resources: res('1'),
        upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e:1' },
      }),
      { ok: false, match: /changed beyond|hot-upgrade/ },
    ],
    [
      'resources computed by resourcesPolicy',
      {
        ...sidecar({ resources: res('1') }),
        resourcesPolicy: { targetContainerMode: 'sum' },
      } as SidecarContainerView,
      { ok: false, match: /changed beyond|resourcesPolicy/ },
    ],
  ];
  it.each(cases)('%s', (_name, now, want) => {
    const plan = planSidecarResize(before, setWith(now), podWith());
    if (want.ok) expect(plan).toEqual({ ok: true, wanted: want.wanted });
    else {
      expect(plan.ok).toBe(false);
      if (!plan.ok) expect(plan.reason).toMatch(want.match);
    }
  });

  it('a hot-upgrade or resourcesPolicy sidecar whose resources alone change is not resized', () => {
    const hot = { upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e:1' } };
    const plan = planSidecarResize(
      { containers: [sidecar(hot)] },
      setWith(sidecar({ ...hot, resources: res('1') })),
      podWith(),
    );
    expect(plan).toMatchObject({ ok: false, reason: expect.stringMatching(/hot-upgrade/) as unknown });
    const policy = { resourcesPolicy: { targetContainerMode: 'sum' } } as Partial<SidecarContainerView>;
    expect(
      planSidecarResize(
        { containers: [sidecar(policy)] },
        setWith(sidecar({ ...policy, resources: res('1') })),
        podWith(),
      ),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/resourcesPolicy/) as unknown });
  });

  it('containers added, renamed or native sidecars changed: no resize', () => {
    expect(planSidecarResize(before, setWith(sidecar(), sidecar({ name: 'b' })), podWith()).ok).toBe(false);
    expect(planSidecarResize(before, setWith(sidecar({ name: 'other' })), podWith()).ok).toBe(false);
    const native = { name: 'n', image: 'n:1', restartPolicy: 'Always', resources: res('1') };
    const set = { ...setWith(sidecar()), spec: { ...setWith(sidecar()).spec, initContainers: [native] } };
    expect(
      planSidecarResize({ ...before, initContainers: [{ ...native, resources: res('2') }] }, set, podWith()),
    ).toMatchObject({ ok: false });
    expect(
      planSidecarResize({ ...before, initContainers: [{ ...native, image: 'n:0' }] }, set, podWith()),
    ).toEqual({
      ok: true,
      wanted: {},
    });
  });

  it('a change that moves the QoS class is not tried (the API server refuses it)', () => {
    const guaranteed = { limits: { cpu: '500m', memory: '64Mi' }, requests: { cpu: '500m', memory: '64Mi' } };
    const only = pod();
    const g = {
      ...only,
      spec: { containers: (only.spec?.containers ?? []).map((c) => ({ ...c, resources: guaranteed })) },
    } as Pod;
    const set = setWith(sidecar({ resources: { ...guaranteed, limits: { cpu: '1', memory: '64Mi' } } }));
    const plan = planSidecarResize({ containers: [sidecar({ resources: guaranteed })] }, set, g);
    expect(plan).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/Guaranteed to Burstable/) as unknown,
    });
  });
});

describe('podSidecarRevisionSpec', () => {
  const revision = (name: string, setName: string, without: string, containers: unknown[]) => ({
    metadata: {
      name,
      labels: { [SIDECARSET_NAME_LABEL]: setName },
      annotations: { [SIDECARSET_HASH_WITHOUT_IMAGE_KEY]: without },
    },
    data: { spec: { $patch: 'replace', containers, initContainers: null } },
  });
  it("finds the revision of the pod's without-image hash, of this SidecarSet only", () => {
    const revisions = [
      revision('other-1', 'other', 'without-1', [{ name: 'x' }]),
      revision('r-2', 'test-sidecarset', 'without-2', [{ name: 'new' }]),
      revision('r-1', 'test-sidecarset', 'without-1', [{ name: 'old' }]),
    ];
    expect(podSidecarRevisionSpec(sidecarSet(), pod(), revisions)).toEqual({
      containers: [{ name: 'old' }],
      initContainers: [],
    });
    expect(podSidecarRevisionSpec(sidecarSet(), pod({ withoutImage: 'gone' }), revisions)).toBeUndefined();
  });
});

describe('isSidecarResizeActuated', () => {
  const withStatus = (p: Pod, status: unknown, conditions: unknown[] = []): Pod => ({
    ...p,
    status: {
      ...p.status,
      conditions: [...(p.status?.conditions ?? []), ...(conditions as never[])],
      containerStatuses: (p.status?.containerStatuses ?? []).map((s) =>
        s.name === 'cold-sidecar' ? ({ ...s, resources: status } as typeof s) : s,
      ),
    },
  });
  const p = podWith(res('1'));
  it.each([
    ['reported as asked (1 = 1000m)', withStatus(p, res('1000m')), true],
    ['the old limit still reported', withStatus(p, res('500m')), false],
    ['not reported', p, false],
    [
      'pending (Infeasible)',
      withStatus(p, res('1'), [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible' }]),
      false,
    ],
    ['in progress', withStatus(p, res('1'), [{ type: 'PodResizeInProgress', status: 'True' }]), false],
  ])('%s', (_name, subject, want) => {
    expect(isSidecarResizeActuated(subject, ['cold-sidecar'])).toBe(want);
  });
  it('nothing resized: actuated', () => expect(isSidecarResizeActuated(p, [])).toBe(true));
});

describe('the upgrade with a resize', () => {
  const now = sidecarSet({ containers: [sidecar({ resources: res('1') })] }, 'h2');
  now.metadata!.annotations![SIDECARSET_HASH_WITHOUT_IMAGE_KEY] = 'without-2';

  it('writes both hash entries and the resized sidecars; resources left to pods/resize', () => {
    const before = podWith(res('500m'), pod({ sidecarImage: 'cold-image:v2' }));
    const up = upgradePodSidecars(now, before, T0, undefined, { resized: ['cold-sidecar'] });
    const a = up.pod.metadata?.annotations ?? {};
    expect(JSON.parse(a[SIDECARSET_HASH_KEY] ?? '{}')['test-sidecarset'].hash).toBe('h2');
    expect(JSON.parse(a[SIDECARSET_HASH_WITHOUT_IMAGE_KEY] ?? '{}')['test-sidecarset'].hash).toBe(
      'without-2',
    );
    expect(
      JSON.parse(a[SIDECARSET_INPLACE_UPDATE_STATE_KEY] ?? '{}')['test-sidecarset'].resizedContainers,
    ).toEqual(['cold-sidecar']);
    expect(up.pod.spec?.containers?.[0]?.resources).toEqual(res('500m'));
    expect(up.changed).toEqual([]);
    expect(resizedSidecars(now, up.pod)).toEqual(['cold-sidecar']);
    // consistent only once the kubelet reports the new limit
    const written = { ...up.pod, spec: podWith(res('1'), up.pod).spec } as Pod;
    expect(isPodStateConsistent(now, written)).toBe(false);
  });

  it('resizable pods are chosen under partition and maxUnavailable; others stay not upgradable', () => {
    const all = pods(4, 0, 0, () => ({ sidecarImage: 'cold-image:v2' }));
    const set = { ...now, spec: { ...now.spec, updateStrategy: { partition: 1, maxUnavailable: 2 } } };
    expect(getNextUpgradePods(set, all).upgrade).toHaveLength(0);
    const next = getNextUpgradePods(set, all, (p) => p.metadata?.name !== 'pod-0');
    expect(next.notUpgradable.map((p) => p.metadata?.name)).toEqual(['pod-0']);
    expect(next.upgrade).toHaveLength(2);
  });
});
