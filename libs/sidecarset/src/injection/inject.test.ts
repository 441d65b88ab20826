// OpenKruise pkg/webhook/pod/mutating/sidecarset_test.go and sidecarset_hotupgrade_test.go, as tables over the pure
// injection: what a created pod looks like after the pod webhook.
import { describe, expect, it } from 'vitest';
import { injectSidecars, type InjectionInput } from './inject.js';
import type { AnySidecarSet, Pod, SidecarSetRevision } from './types.js';

const NOW = '2026-12-03T07:00:00Z';

function sidecarSet(
  name: string,
  spec: Partial<AnySidecarSet['spec']> = {},
  extra: Partial<AnySidecarSet> = {},
): AnySidecarSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    ...extra,
    metadata: {
      name,
      annotations: {
        'kruise.io/sidecarset-hash': `${name}-hash`,
        'kruise.io/sidecarset-hash-without-image': `${name}-hwi`,
      },
      ...extra.metadata,
    },
    spec: {
      selector: { matchLabels: { app: 'nginx' } },
      containers: [{ name: 'dns-f', image: 'dns-f-image:1.0', podInjectPolicy: 'BeforeAppContainer' }],
      ...spec,
    },
  };
}

function pod(extra: Partial<Pod['spec']> = {}, labels: Record<string, string> = { app: 'nginx' }): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'test-pod', namespace: 'default', labels, annotations: {} },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.15.1' }], ...extra },
  };
}

const run = (p: Pod, sets: AnySidecarSet[], more: Partial<InjectionInput> = {}) =>
  injectSidecars({
    pod: p,
    sidecarSets: sets,
    namespaceLabels: { 'kubernetes.io/metadata.name': 'default' },
    revisions: [],
    now: NOW,
    ...more,
  });
const names = (p: Pod | undefined) => (p?.spec?.containers ?? []).map((c) => c.name);
const envOf = (p: Pod | undefined, c: string) => p?.spec?.containers?.find((x) => x.name === c)?.env;

describe('injectSidecars: matching', () => {
  it('no matched SidecarSet → pod unchanged', () => {
    expect(run(pod({}, { app: 'other' }), [sidecarSet('s1')])).toBeUndefined();
  });
  it('injectionStrategy.paused → not injected', () => {
    expect(run(pod(), [sidecarSet('s1', { injectionStrategy: { paused: true } })])).toBeUndefined();
  });
  it('an empty selector selects nothing', () => {
    expect(run(pod(), [sidecarSet('s1', { selector: {} })])).toBeUndefined();
  });
  it('namespaceSelector matches the namespace labels; v1alpha1 spec.namespace too', () => {
    const byLabel = sidecarSet('s1', { namespaceSelector: { matchLabels: { team: 'a' } } });
    expect(run(pod(), [byLabel], { namespaceLabels: { team: 'b' } })).toBeUndefined();
    expect(names(run(pod(), [byLabel], { namespaceLabels: { team: 'a' } }))).toEqual(['dns-f', 'nginx']);
    const byName = sidecarSet('s2', { namespace: 'other' } as Partial<AnySidecarSet['spec']>);
    expect(run(pod(), [byName])).toBeUndefined();
    expect(run(pod(), [byName], { namespaceLabels: undefined })).toBeUndefined();
  });
  it('a terminating pod is not injected', () => {
    const p = pod();
    p.metadata!.deletionTimestamp = NOW;
    expect(run(p, [sidecarSet('s1')])).toBeUndefined();
  });
  it('canary SidecarSet injected instead of its base', () => {
    const base = sidecarSet('base');
    const canary = sidecarSet(
      'canary',
      { containers: [{ name: 'dns-f', image: 'dns-f-image:2.0', podInjectPolicy: 'BeforeAppContainer' }] },
      {
        metadata: {
          name: 'canary',
          annotations: {
            'apps.kruise.io/sidecarset-canary': 'true',
            'apps.kruise.io/sidecarset-base': 'base',
          },
        },
      },
    );
    const out = run(pod(), [base, canary]);
    expect(out?.spec?.containers?.[0]?.image).toBe('dns-f-image:2.0');
    expect(out?.metadata?.annotations?.['kruise.io/sidecarset-injected-list']).toBe('canary');
  });
});

describe('injectSidecars: containers', () => {
  it('IS_INJECTED appended after the sidecar env; annotations written (hash, without-image, injected-list)', () => {
    const out = run(pod(), [
      sidecarSet(
        's1',
        { containers: [{ name: 'dns-f', image: 'd:1', env: [{ name: 'A', value: '1' }] }] },
        { status: { matchedPods: 0, updatedPods: 0, readyPods: 0, latestRevision: 's1-rev' } },
      ),
    ]);
    expect(names(out)).toEqual(['nginx', 'dns-f']); // no podInjectPolicy → after
    expect(envOf(out, 'dns-f')).toEqual([
      { name: 'A', value: '1' },
      { name: 'IS_INJECTED', value: 'true' },
    ]);
    const a = out!.metadata!.annotations!;
    expect(a['kruise.io/sidecarset-hash']).toBe(
      `{"s1":{"updateTimestamp":"${NOW}","hash":"s1-hash","sidecarSetName":"s1","sidecarList":["dns-f"],"controllerRevision":"s1-rev"}}`,
    );
    expect(a['kruise.io/sidecarset-hash-without-image']).toBe(
      `{"s1":{"updateTimestamp":"${NOW}","hash":"s1-hwi","sidecarSetName":"s1","sidecarList":["dns-f"]}}`,
    );
    expect(a['kruise.io/sidecarset-injected-list']).toBe('s1');
  });
  it('old map[string]string hash annotation still parsed and kept; injected-list merged', () => {
    const p = pod();
    p.metadata!.annotations = {
      'kruise.io/sidecarset-hash': '{"old":"abc"}',
      'kruise.io/sidecarset-injected-list': 'old',
    };
    const out = run(p, [sidecarSet('s1')]);
    const hash = JSON.parse(out!.metadata!.annotations!['kruise.io/sidecarset-hash']!) as Record<
      string,
      { hash: string }
    >;
    expect(hash['old']).toMatchObject({ hash: 'abc', sidecarSetName: 'old' });
    expect(out!.metadata!.annotations!['kruise.io/sidecarset-injected-list']).toBe('old,s1');
  });
  it('volumes appended from spec.volumes (pod volumes of the same name win), imagePullSecrets merged', () => {
    const s = sidecarSet('s1', {
      containers: [
        {
          name: 'log',
          image: 'l:1',
          volumeMounts: [
            { name: 'logs', mountPath: '/var/log' },
            { name: 'cfg', mountPath: '/etc/c' },
          ],
        },
      ],
      volumes: [
        { name: 'logs', emptyDir: {} },
        { name: 'cfg', configMap: { name: 'from-sidecarset' } },
        { name: 'unused', emptyDir: {} },
      ],
      imagePullSecrets: [{ name: 'a' }, { name: 'b' }],
    });
    const out = run(
      pod({ volumes: [{ name: 'cfg', configMap: { name: 'from-pod' } }], imagePullSecrets: [{ name: 'b' }] }),
      [s],
    );
    expect(out?.spec?.volumes).toEqual([
      { name: 'cfg', configMap: { name: 'from-pod' } },
      { name: 'logs', emptyDir: {} },
    ]);
    expect(out?.spec?.['imagePullSecrets']).toEqual([{ name: 'b' }, { name: 'a' }]);
  });
  it('shareVolumePolicy enabled: app mounts shared (path conflicts skipped), subPathExpr env copied', () => {
    const p = pod({
      containers: [
        {
          name: 'nginx',
          image: 'nginx',
          env: [
            { name: 'POD_NAME', value: 'x' },
            { name: 'OTHER', value: 'y' },
          ],
          volumeMounts: [
            { name: 'data', mountPath: '/data', subPathExpr: 'foo/$(POD_NAME)' },
            { name: 'logs', mountPath: '/var/log' },
          ],
        },
      ],
    });
    const s = sidecarSet('s1', {
      containers: [
        {
          name: 'agent',
          image: 'a:1',
          shareVolumePolicy: { type: 'enabled' },
          volumeMounts: [{ name: 'own', mountPath: '/var/log' }],
        },
      ],
    });
    const agent = run(p, [s])?.spec?.containers?.find((c) => c.name === 'agent');
    expect(agent?.volumeMounts).toEqual([
      { name: 'own', mountPath: '/var/log' },
      { name: 'data', mountPath: '/data', subPathExpr: 'foo/$(POD_NAME)' },
    ]);
    expect(agent?.env).toEqual([
      { name: 'IS_INJECTED', value: 'true' },
      { name: 'POD_NAME', value: 'x' },
    ]);
  });
  it('transferEnv by name and by label fieldRef; first occurrence wins', () => {
    const p = pod(
      {
        containers: [
          {
            name: 'main',
            image: 'm',
            env: [
              { name: 'TZ', value: 'UTC' },
              { name: 'ID', value: '7' },
            ],
          },
        ],
      },
      { app: 'nginx', source: 'main' },
    );
    const s = sidecarSet('s1', {
      containers: [
        {
          name: 'agent',
          image: 'a:1',
          env: [{ name: 'TZ', value: 'own' }],
          transferEnv: [
            { sourceContainerName: 'main', envName: 'TZ' },
            {
              sourceContainerNameFrom: {
                fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['source']" },
              },
              envNames: ['ID'],
            },
          ],
        },
      ],
    });
    expect(envOf(run(p, [s]), 'agent')).toEqual([
      { name: 'TZ', value: 'own' },
      { name: 'IS_INJECTED', value: 'true' },
      { name: 'ID', value: '7' },
    ]);
  });
  it('volumeDevices shared when shareVolumeDevicePolicy is enabled', () => {
    const p = pod({
      containers: [{ name: 'main', image: 'm', volumeDevices: [{ name: 'blk', devicePath: '/dev/xvda' }] }],
    });
    const s = sidecarSet('s1', {
      containers: [{ name: 'agent', image: 'a', shareVolumeDevicePolicy: { type: 'enabled' } }],
    });
    expect(run(p, [s])?.spec?.containers?.find((c) => c.name === 'agent')?.['volumeDevices']).toEqual([
      { name: 'blk', devicePath: '/dev/xvda' },
    ]);
  });
  it('init containers sorted by name after the pod ones; only native sidecars in sidecarList', () => {
    const s = sidecarSet('s1', {
      initContainers: [
        { name: 'z-init', image: 'z' },
        { name: 'a-native', image: 'a', restartPolicy: 'Always' },
      ],
    });
    const out = run(pod({ initContainers: [{ name: 'pod-init', image: 'p' }] }), [s]);
    expect(out?.spec?.initContainers?.map((c) => c.name)).toEqual(['pod-init', 'a-native', 'z-init']);
    const hash = JSON.parse(out!.metadata!.annotations!['kruise.io/sidecarset-hash']!) as Record<
      string,
      { sidecarList: string[] }
    >;
    expect(hash['s1']!.sidecarList).toEqual(['a-native', 'dns-f']);
  });
  it('patchPodMetadata applied', () => {
    const s = sidecarSet('s1', { patchPodMetadata: [{ annotations: { 'oom-score': '1' } }] });
    expect(run(pod(), [s])?.metadata?.annotations?.['oom-score']).toBe('1');
  });
  it('calling it again on its output changes nothing but the timestamps', () => {
    const s = sidecarSet('s1', {
      containers: [{ name: 'agent', image: 'a', shareVolumePolicy: { type: 'enabled' } }],
    });
    const once = run(pod(), [s])!;
    expect(run(once, [s])).toEqual(once);
  });
});

describe('injectSidecars: hot upgrade (TestInjectHotUpgradeSidecar)', () => {
  it('<n>-1 runs the image, <n>-2 the empty image, with version env and annotations 1/0/0/1', () => {
    const s = sidecarSet('hot', {
      containers: [
        {
          name: 'sidecar',
          image: 'sidecar:v1',
          podInjectPolicy: 'BeforeAppContainer',
          upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1.0' },
        },
      ],
    });
    const out = run(pod(), [s]);
    expect(names(out)).toEqual(['sidecar-1', 'sidecar-2', 'nginx']);
    expect(out?.spec?.containers?.map((c) => c.image)).toEqual(['sidecar:v1', 'empty:1.0', 'nginx:1.15.1']);
    expect(envOf(out, 'sidecar-2')).toEqual([
      { name: 'IS_INJECTED', value: 'true' },
      {
        name: 'SIDECARSET_VERSION',
        valueFrom: {
          fieldRef: {
            apiVersion: 'v1',
            fieldPath: "metadata.annotations['version.sidecarset.kruise.io/sidecar-2']",
          },
        },
      },
      {
        name: 'SIDECARSET_VERSION_ALT',
        valueFrom: {
          fieldRef: {
            apiVersion: 'v1',
            fieldPath: "metadata.annotations['versionalt.sidecarset.kruise.io/sidecar-2']",
          },
        },
      },
    ]);
    expect(out?.metadata?.annotations).toMatchObject({
      'version.sidecarset.kruise.io/sidecar-1': '1',
      'versionalt.sidecarset.kruise.io/sidecar-1': '0',
      'version.sidecarset.kruise.io/sidecar-2': '0',
      'versionalt.sidecarset.kruise.io/sidecar-2': '1',
      'kruise.io/sidecarset-working-hotupgrade-container': '{"sidecar":"sidecar-1"}',
    });
    const hash = JSON.parse(out!.metadata!.annotations!['kruise.io/sidecarset-hash']!) as Record<
      string,
      { sidecarList: string[] }
    >;
    expect(hash['hot']!.sidecarList).toEqual(['sidecar']);
  });
});

describe('injectSidecars: injectionStrategy.revision', () => {
  const revision: SidecarSetRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: 's1-old',
      namespace: 'kruise-system',
      labels: { 'kruise.io/sidecarset-name': 's1', 'apps.kruise.io/sidecarset-custom-version': 'v1' },
      annotations: {
        'kruise.io/sidecarset-hash': 'old-hash',
        'kruise.io/sidecarset-hash-without-image': 'old-hwi',
      },
    },
    revision: 1,
    data: {
      spec: {
        $patch: 'replace',
        containers: [{ name: 'dns-f', image: 'dns-f-image:0.9', podInjectPolicy: 'BeforeAppContainer' }],
      },
    },
  };
  const pinned = (revisionInfo: object, update: object = {}) =>
    sidecarSet('s1', { injectionStrategy: { revision: revisionInfo }, updateStrategy: update });
  const image = (p: Pod | undefined) => p?.spec?.containers?.[0]?.image;

  it('by revisionName (policy Always) → the historical containers, hash and controllerRevision', () => {
    const out = run(pod(), [pinned({ revisionName: 's1-old', policy: 'Always' })], { revisions: [revision] });
    expect(image(out)).toBe('dns-f-image:0.9');
    expect(JSON.parse(out!.metadata!.annotations!['kruise.io/sidecarset-hash']!)).toMatchObject({
      s1: { hash: 'old-hash', controllerRevision: 's1-old' },
    });
  });
  it('by customVersion → the newest revision with that label', () => {
    expect(image(run(pod(), [pinned({ customVersion: 'v1' })], { revisions: [revision] }))).toBe(
      'dns-f-image:0.9',
    );
  });
  it('a missing revision refuses the pod', () => {
    expect(() => run(pod(), [pinned({ revisionName: 'nope' })], { revisions: [revision] })).toThrow(
      /not found/,
    );
  });
  it('Partial: pods outside updateStrategy.selector get the pinned one; partition % decides by chance', () => {
    const outside = pinned(
      { revisionName: 's1-old', policy: 'Partial' },
      { selector: { matchLabels: { canary: 'true' } } },
    );
    expect(image(run(pod(), [outside], { revisions: [revision] }))).toBe('dns-f-image:0.9');
    const byChance = pinned({ revisionName: 's1-old', policy: 'Partial' }, { partition: '30%' });
    expect(image(run(pod(), [byChance], { revisions: [revision], random: () => 0.2 }))).toBe(
      'dns-f-image:0.9',
    );
    expect(image(run(pod(), [byChance], { revisions: [revision], random: () => 0.5 }))).toBe(
      'dns-f-image:1.0',
    );
    const intPartition = pinned({ revisionName: 's1-old', policy: 'Partial' }, { partition: 3 });
    expect(image(run(pod(), [intPartition], { revisions: [revision] }))).toBe('dns-f-image:1.0');
  });
  it('updateStrategy.paused → the pinned one whatever the policy', () => {
    const paused = pinned({ revisionName: 's1-old', policy: 'Partial' }, { paused: true, partition: '0%' });
    expect(image(run(pod(), [paused], { revisions: [revision], random: () => 0.9 }))).toBe('dns-f-image:0.9');
  });
});
