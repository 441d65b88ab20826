import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { defaultDaemonSet } from './defaults.js';
import type { DaemonSet } from './types.js';
import { validateDaemonSetUpdate } from './update-validation.js';

function daemonSet(mutate?: (ds: DaemonSet) => void, apiVersion = 'apps.kruise.io/v1beta1'): DaemonSet {
  const ds = defaultDaemonSet<DaemonSet>({
    apiVersion,
    metadata: { name: 'ds', namespace: 'default' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'abc', image: 'image' }] } },
    },
  });
  mutate?.(ds);
  return ds;
}

const errorsOf = (ds: unknown, old: unknown) => validateDaemonSetUpdate(ds, old).map(formatFieldError);
const FORBIDDEN_V1BETA1 =
  "spec: Forbidden: updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle', 'scaleStrategy', " +
  "'updateStrategy', 'minReadySeconds', and 'revisionHistoryLimit' are forbidden";
const FORBIDDEN_V1ALPHA1 =
  "spec: Forbidden: updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle',  " +
  "'updateStrategy', 'minReadySeconds', and 'revisionHistoryLimit' are forbidden";

describe('validateDaemonSetUpdate (upstream TestValidateDaemonSetUpdate)', () => {
  // every mutable field may change
  it.each<[string, (ds: DaemonSet) => void]>([
    ['burstReplicas', (ds) => (ds.spec.burstReplicas = 1)],
    ['template image', (ds) => ((ds.spec.template.spec ??= { containers: [] }).containers = [{ name: 'abc', image: 'image2' }])],
    ['template labels (still matching)', (ds) => (ds.spec.template.metadata = { labels: { a: 'b', c: 'd' } })],
    ['updateStrategy', (ds) => (ds.spec.updateStrategy = { type: 'OnDelete' })],
    ['rollingUpdate partition / paused / selector', (ds) => {
      ds.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2, partition: 3, paused: true, selector: { matchLabels: { n: '1' } } } };
    }],
    ['lifecycle', (ds) => (ds.spec.lifecycle = { preDelete: { labelsHandler: { hold: 'true' } } })],
    ['minReadySeconds', (ds) => (ds.spec.minReadySeconds = 10)],
    ['revisionHistoryLimit', (ds) => (ds.spec.revisionHistoryLimit = 3)],
    ['scaleStrategy', (ds) => (ds.spec.scaleStrategy = { partitionedScaling: true })],
  ])('allows changing %s', (_name, mutate) => {
    expect(errorsOf(daemonSet(mutate), daemonSet())).toEqual([]);
  });

  it('forbids changing the selector (with the CREATE rules after it)', () => {
    const next = daemonSet((ds) => {
      ds.spec.selector = { matchLabels: { a: 'b', c: 'd' } };
      ds.spec.template.metadata = { labels: { a: 'b', c: 'd' } };
    });
    expect(errorsOf(next, daemonSet())).toEqual([FORBIDDEN_V1BETA1]);
  });

  it('names no scaleStrategy in the v1alpha1 message', () => {
    const next = daemonSet((ds) => (ds.spec.selector = { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'a', operator: 'Exists' }] }), 'apps.kruise.io/v1alpha1');
    expect(errorsOf(next, daemonSet(undefined, 'apps.kruise.io/v1alpha1'))).toEqual([FORBIDDEN_V1ALPHA1]);
  });

  it('reports the CREATE rules of the new object too', () => {
    const next = daemonSet((ds) => (ds.spec.minReadySeconds = -5));
    expect(errorsOf(next, daemonSet())).toEqual(['spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0']);
  });

  it('counts null and empty members as absent when comparing', () => {
    const next = daemonSet() as unknown as { spec: Record<string, unknown> };
    next.spec['unknownEmpty'] = {};
    expect(errorsOf(next, daemonSet())).toEqual([]);
  });

  it('accepts an old object that is not an object', () => {
    expect(errorsOf(daemonSet(), 'garbage')).toEqual([FORBIDDEN_V1BETA1]);
  });
});
