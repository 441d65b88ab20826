import { describe, expect, it } from 'vitest';
import { daemonSetToV1alpha1, daemonSetToV1beta1, isPartitionedScaling } from './conversion.js';
import type { DaemonSet, DaemonSetV1alpha1 } from './types.js';

const spec = {
  selector: { matchLabels: { app: 'ds' } },
  template: { metadata: { labels: { app: 'ds' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
};
const status = { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3 };

describe('v1alpha1 ↔ v1beta1 (apis/apps/v1alpha1/daemonset_conversion.go)', () => {
  it('v1alpha1 → v1beta1: Surging becomes Standard, the annotation becomes partitionedScaling, daemonSetHash updateRevision', () => {
    const alpha: DaemonSetV1alpha1 = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'DaemonSet',
      metadata: { name: 'ds', annotations: { 'daemonset.kruise.io/progressive-create-pod': 'true' } },
      spec: { ...spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Surging', maxSurge: 1, partition: 2 } } },
      status: { ...status, daemonSetHash: 'abc' },
    };
    const beta = daemonSetToV1beta1(alpha);
    expect(beta.apiVersion).toBe('apps.kruise.io/v1beta1');
    expect(beta.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, partition: 2 } });
    expect(beta.spec.scaleStrategy).toEqual({ partitionedScaling: true });
    expect(beta.status).toEqual({ ...status, updateRevision: 'abc' });
    expect(isPartitionedScaling(beta)).toBe(true);
  });

  it('v1beta1 → v1alpha1: partitionedScaling becomes the annotation, updateRevision daemonSetHash', () => {
    const beta: DaemonSet = {
      apiVersion: 'apps.kruise.io/v1beta1',
      metadata: { name: 'ds' },
      spec: { ...spec, scaleStrategy: { partitionedScaling: true } },
      status: { ...status, updateRevision: 'abc' },
    };
    const alpha = daemonSetToV1alpha1(beta);
    expect(alpha.metadata?.annotations).toEqual({ 'daemonset.kruise.io/progressive-create-pod': 'true' });
    expect('scaleStrategy' in alpha.spec).toBe(false);
    expect(alpha.status).toEqual({ ...status, daemonSetHash: 'abc' });
    // the annotation stays on the way back (upstream copies ObjectMeta)
    const back = daemonSetToV1beta1(alpha);
    expect(back.spec).toEqual(beta.spec);
    expect(back.status).toEqual(beta.status);
  });

  it.each<[string, Partial<DaemonSet>, boolean]>([
    ['no annotation', { metadata: {}, spec }, false],
    ['unrelated annotation', { metadata: { annotations: { x: 'true' } }, spec }, false],
    ['annotation "false"', { metadata: { annotations: { 'daemonset.kruise.io/progressive-create-pod': 'false' } }, spec }, false],
    ['partitionedScaling false', { spec: { ...spec, scaleStrategy: { partitionedScaling: false } } }, false],
    ['partitionedScaling true', { spec: { ...spec, scaleStrategy: { partitionedScaling: true } } }, true],
    ['annotation "true"', { metadata: { annotations: { 'daemonset.kruise.io/progressive-create-pod': 'true' } }, spec }, true],
  ])('isPartitionedScaling: %s (TestCreatePodProgressively)', (_name, ds, expected) => {
    expect(isPartitionedScaling(ds as DaemonSet)).toBe(expected);
  });
});
