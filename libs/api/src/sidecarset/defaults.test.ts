import { describe, expect, it } from 'vitest';
import { defaultSidecarSet } from './defaults.js';

describe('defaultSidecarSet (apis/apps/defaults SetDefaultsSidecarSetV1beta1)', () => {
  const raw = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name: 's' },
    spec: {
      selector: { matchLabels: { app: 'a' } },
      containers: [
        {
          name: 'c',
          image: 'busybox',
          ports: [{ containerPort: 80 }],
          env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          transferEnv: [{ sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['x']" } }, envName: 'E' }],
          resourcesPolicy: { targetContainersMode: 'sum', resourcesExpr: { limits: { cpu: 'cpu' } } },
        },
      ],
      initContainers: [{ name: 'i', image: 'busybox:1.35' }],
      volumes: [{ name: 'v' }, { name: 'cm', configMap: { name: 'x' } }],
      patchPodMetadata: [{ annotations: { a: 'b' } }],
      injectionStrategy: { revision: { revisionName: 'r1' } },
    },
  };
  const out = defaultSidecarSet(raw);

  const rows: [string, (o: typeof out) => unknown, unknown][] = [
    ['updateStrategy', (o) => o.spec.updateStrategy, { type: 'RollingUpdate', maxUnavailable: 1, partition: 0 }],
    ['container podInjectPolicy', (o) => o.spec.containers[0]?.['podInjectPolicy'], 'BeforeAppContainer'],
    ['init container podInjectPolicy', (o) => o.spec.initContainers[0]?.['podInjectPolicy'], 'AfterAppContainer'],
    ['upgradeType', (o) => o.spec.containers[0]?.['upgradeStrategy'], { upgradeType: 'ColdUpgrade' }],
    ['shareVolumePolicy', (o) => o.spec.containers[0]?.['shareVolumePolicy'], { type: 'disabled' }],
    ['pull policy by tag (untagged → Always)', (o) => o.spec.containers[0]?.['imagePullPolicy'], 'Always'],
    ['pull policy by tag (tagged → IfNotPresent)', (o) => o.spec.initContainers[0]?.['imagePullPolicy'], 'IfNotPresent'],
    ['termination message', (o) => o.spec.containers[0]?.['terminationMessagePath'], '/dev/termination-log'],
    ['port protocol', (o) => o.spec.containers[0]?.ports?.[0], { containerPort: 80, protocol: 'TCP' }],
    ['env fieldRef apiVersion', (o) => o.spec.containers[0]?.env?.[0]?.valueFrom, { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }],
    ['transferEnv fieldRef apiVersion', (o) => (o.spec.containers[0]?.['transferEnv'] as { sourceContainerNameFrom: unknown }[])[0]?.sourceContainerNameFrom, { fieldRef: { fieldPath: "metadata.labels['x']", apiVersion: 'v1' } }],
    ['resourcesPolicy regex', (o) => (o.spec.containers[0]?.['resourcesPolicy'] as { targetContainersNameRegex: string }).targetContainersNameRegex, '.*'],
    ['volume without source → emptyDir', (o) => o.spec.volumes[0], { name: 'v', emptyDir: {} }],
    ['configMap defaultMode', (o) => o.spec.volumes[1], { name: 'cm', configMap: { name: 'x', defaultMode: 420 } }],
    ['revisionHistoryLimit', (o) => (o.spec as Record<string, unknown>)['revisionHistoryLimit'], 10],
    ['patchPolicy', (o) => o.spec.patchPodMetadata[0], { annotations: { a: 'b' }, patchPolicy: 'Retain' }],
    ['revision policy', (o) => o.spec.injectionStrategy, { revision: { revisionName: 'r1', policy: 'Always' } }],
  ];
  it.each(rows)('%s', (_name, get, want) => expect(get(out)).toEqual(want));

  it('does not change the input, is idempotent and keeps set values', () => {
    expect(raw.spec).not.toHaveProperty('updateStrategy');
    expect(defaultSidecarSet(out)).toEqual(out);
    const set = defaultSidecarSet({ spec: { updateStrategy: { type: 'NotUpdate', maxUnavailable: '50%', partition: 3 }, revisionHistoryLimit: 2 } });
    expect(set.spec).toMatchObject({ updateStrategy: { type: 'NotUpdate', maxUnavailable: '50%', partition: 3 }, revisionHistoryLimit: 2, injectionStrategy: {} });
  });

  it('accepts any JSON without throwing', () => {
    for (const v of [null, 1, 'x', [], { spec: 1 }, { spec: { containers: {} } }, { spec: { containers: [null, 1] } }]) {
      expect(() => defaultSidecarSet(v)).not.toThrow();
    }
  });
});
