import { describe, expect, it } from 'vitest';
import { defaultDaemonSet } from './defaults.js';

const base = (apiVersion: string, updateStrategy?: unknown) => ({
  apiVersion,
  metadata: { name: 'ds', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'ds' } },
    template: { metadata: { labels: { app: 'ds' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...(updateStrategy !== undefined ? { updateStrategy } : {}),
  },
});
const V1B = 'apps.kruise.io/v1beta1';
const V1A = 'apps.kruise.io/v1alpha1';

const strategyOf = (o: unknown) => (o as { spec: { updateStrategy: unknown } }).spec.updateStrategy;

describe('defaultDaemonSet (apis/apps/defaults SetDefaultsDaemonSet[V1beta1])', () => {
  it('fills burstReplicas 250, revisionHistoryLimit 10, RollingUpdate Standard with maxUnavailable 1 / maxSurge 0', () => {
    const out = defaultDaemonSet(base(V1B));
    expect(out.spec).toMatchObject({
      burstReplicas: 250,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 } },
    });
  });

  it('never touches the pod template', () => {
    const input = base(V1B);
    expect(defaultDaemonSet(input).spec.template).toEqual(input.spec.template);
  });

  it('does not change its input', () => {
    const input = base(V1B);
    const copy = JSON.parse(JSON.stringify(input));
    defaultDaemonSet(input);
    expect(input).toEqual(copy);
  });

  it.each<[string, string, unknown, unknown]>([
    ['keeps set values', V1B, { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: '20%', maxSurge: 0 } },
      { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: '20%', maxSurge: 0 } }],
    ['maxSurge alone stays alone (maxUnavailable not defaulted)', V1B, { rollingUpdate: { maxSurge: 2 } },
      { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 2 } }],
    ['maxUnavailable alone stays alone', V1B, { rollingUpdate: { maxUnavailable: 3 } },
      { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 3 } }],
    ['OnDelete gets no rollingUpdate', V1B, { type: 'OnDelete' }, { type: 'OnDelete' }],
    ['v1beta1 leaves Surging (validation rejects it)', V1B, { rollingUpdate: { rollingUpdateType: 'Surging' } },
      { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Surging', maxUnavailable: 1, maxSurge: 0 } }],
    ['v1alpha1 Surging → Standard with maxSurge 1, maxUnavailable 0', V1A, { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Surging' } },
      { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 } }],
    ['v1alpha1 Surging keeps a set maxSurge', V1A, { rollingUpdate: { rollingUpdateType: 'Surging', maxSurge: '30%' } },
      { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: '30%', maxUnavailable: 0 } }],
    ['v1alpha1 Standard is defaulted as v1beta1', V1A, undefined,
      { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 } }],
    ['a wrongly typed rollingUpdate is left as it is', V1B, { rollingUpdate: 'fast' }, { type: 'RollingUpdate', rollingUpdate: 'fast' }],
  ])('%s', (_name, apiVersion, strategy, expected) => {
    expect(strategyOf(defaultDaemonSet(base(apiVersion, strategy)))).toEqual(expected);
  });

  it('the version argument overrides the apiVersion', () => {
    const out = defaultDaemonSet(base(V1B, { rollingUpdate: { rollingUpdateType: 'Surging' } }), 'v1alpha1');
    expect(strategyOf(out)).toEqual({ type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 } });
  });

  it.each([null, 'x', 3, [], { spec: 'x' }])('accepts any JSON (%j) without throwing', (v) => {
    expect(() => defaultDaemonSet(v)).not.toThrow();
  });

  it('is idempotent', () => {
    const once = defaultDaemonSet(base(V1A, { rollingUpdate: { rollingUpdateType: 'Surging' } }));
    expect(defaultDaemonSet(once)).toEqual(once);
  });
});
