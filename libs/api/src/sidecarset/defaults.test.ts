import { describe, expect, it } from 'vitest';
import { defaultSidecarSet } from './defaults.js';
import type { SidecarContainer, SidecarSet } from './types.js';

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
  const out = defaultSidecarSet(raw) as unknown as SidecarSet;
  const c = (o: SidecarSet): SidecarContainer => o.spec.containers?.[0] ?? { name: '' };
  const i = (o: SidecarSet): SidecarContainer => o.spec.initContainers?.[0] ?? { name: '' };

  const rows: [string, (o: SidecarSet) => unknown, unknown][] = [
    ['updateStrategy', (o) => o.spec.updateStrategy, { type: 'RollingUpdate', maxUnavailable: 1, partition: 0 }],
    ['container podInjectPolicy', (o) => c(o).podInjectPolicy, 'BeforeAppContainer'],
    ['init container podInjectPolicy', (o) => i(o).podInjectPolicy, 'AfterAppContainer'],
    ['upgradeType', (o) => c(o).upgradeStrategy, { upgradeType: 'ColdUpgrade' }],
    ['shareVolumePolicy', (o) => c(o).shareVolumePolicy, { type: 'disabled' }],
    ['pull policy by tag (untagged → Always)', (o) => c(o).imagePullPolicy, 'Always'],
    ['pull policy by tag (tagged → IfNotPresent)', (o) => i(o).imagePullPolicy, 'IfNotPresent'],
    ['termination message', (o) => c(o).terminationMessagePath, '/dev/termination-log'],
    ['port protocol', (o) => c(o).ports?.[0], { containerPort: 80, protocol: 'TCP' }],
    ['env fieldRef apiVersion', (o) => c(o).env?.[0]?.valueFrom, { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }],
    ['transferEnv fieldRef apiVersion', (o) => c(o).transferEnv?.[0]?.sourceContainerNameFrom, { fieldRef: { fieldPath: "metadata.labels['x']", apiVersion: 'v1' } }],
    ['resourcesPolicy regex', (o) => c(o).resourcesPolicy?.targetContainersNameRegex, '.*'],
    ['volume without source → emptyDir', (o) => o.spec.volumes?.[0], { name: 'v', emptyDir: {} }],
    ['configMap defaultMode', (o) => o.spec.volumes?.[1], { name: 'cm', configMap: { name: 'x', defaultMode: 420 } }],
    ['revisionHistoryLimit', (o) => o.spec.revisionHistoryLimit, 10],
    ['patchPolicy', (o) => o.spec.patchPodMetadata?.[0], { annotations: { a: 'b' }, patchPolicy: 'Retain' }],
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
