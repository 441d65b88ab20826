// The generated Advanced StatefulSet CRD against OpenKruise v1.9's (`config/crd/bases/apps.kruise.io_statefulsets.yaml`).
import { describe, expect, it } from 'vitest';
import { buildCrd } from '../crd/build.js';
import type { JsonSchemaProps } from '../crd/definition.js';
import { structuralSchemaViolations } from '../crd/structural.js';
import { STATEFULSET_CRD } from './crd.js';

const crd = buildCrd(STATEFULSET_CRD);
const [alpha, beta] = crd.spec.versions;
const schema = beta?.schema.openAPIV3Schema as JsonSchemaProps;
const props = (node: JsonSchemaProps | undefined): Record<string, JsonSchemaProps> => (node?.['properties'] ?? {}) as Record<string, JsonSchemaProps>;
const spec = props(schema)['spec'];
const status = props(schema)['status'];

describe('STATEFULSET_CRD', () => {
  it('serves v1alpha1 and stores v1beta1, one schema, no conversion webhook', () => {
    expect(crd.metadata.name).toBe('statefulsets.apps.kruise.io');
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([
      ['v1alpha1', true, false],
      ['v1beta1', true, true],
    ]);
    expect(alpha?.schema).toEqual(beta?.schema);
    expect(alpha?.additionalPrinterColumns).toEqual(beta?.additionalPrinterColumns);
    expect((crd.spec as Record<string, unknown>)['conversion']).toBeUndefined();
    expect(crd.spec.names.shortNames).toEqual(['sts', 'asts']);
  });

  it('is structural, with status and scale subresources', () => {
    for (const v of crd.spec.versions) {
      expect(structuralSchemaViolations(v.schema.openAPIV3Schema)).toEqual([]);
      expect(v.subresources).toEqual({
        status: {},
        scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
      });
    }
  });

  it('requires what OpenKruise requires', () => {
    expect(spec?.['required']).toEqual(['selector', 'template']);
    expect(status?.['required']).toEqual(['availableReplicas', 'currentReplicas', 'readyReplicas', 'replicas', 'updatedReplicas']);
    expect(props(status)['volumeClaims']?.['items']).toMatchObject({
      required: ['compatibleReadyReplicas', 'compatibleReplicas', 'volumeClaimName'],
    });
  });

  it('types the fields OpenKruise types', () => {
    const s = props(spec);
    expect(Object.keys(s).sort()).toEqual([
      'lifecycle',
      'ordinals',
      'persistentVolumeClaimRetentionPolicy',
      'podManagementPolicy',
      'replicas',
      'reserveOrdinals',
      'revisionHistoryLimit',
      'scaleStrategy',
      'selector',
      'serviceName',
      'template',
      'updateStrategy',
      'volumeClaimTemplates',
      'volumeClaimUpdateStrategy',
    ]);
    expect(s['reserveOrdinals']?.['items']).toMatchObject({ 'x-kubernetes-int-or-string': true });
    expect(s['template']?.['x-kubernetes-preserve-unknown-fields']).toBe(true);
    const ru = props(props(s['updateStrategy'])['rollingUpdate']);
    expect(Object.keys(ru).sort()).toEqual([
      'inPlaceUpdateStrategy',
      'maxUnavailable',
      'minReadySeconds',
      'partition',
      'paused',
      'podUpdatePolicy',
      'unorderedUpdate',
    ]);
    expect(ru['partition']).toMatchObject({ type: 'integer', format: 'int32' });
    expect(ru['maxUnavailable']).toMatchObject({ 'x-kubernetes-int-or-string': true });
    expect(props(s['ordinals'])['start']).toMatchObject({ type: 'integer', format: 'int32' });
    expect(Object.keys(props(status)).sort()).toEqual([
      'availableReplicas',
      'collisionCount',
      'conditions',
      'currentReplicas',
      'currentRevision',
      'labelSelector',
      'observedGeneration',
      'readyReplicas',
      'replicas',
      'updateRevision',
      'updatedAvailableReplicas',
      'updatedReadyReplicas',
      'updatedReplicas',
      'volumeClaims',
    ]);
  });

  it('prints DESIRED CURRENT UPDATED READY AGE, and CONTAINERS IMAGES with -o wide', () => {
    expect(beta?.additionalPrinterColumns?.map((c) => `${c.name} ${c.type} ${c.jsonPath}${c.priority ? ' wide' : ''}`)).toEqual([
      'DESIRED integer .spec.replicas',
      'CURRENT integer .status.replicas',
      'UPDATED integer .status.updatedReplicas',
      'READY integer .status.readyReplicas',
      'AGE date .metadata.creationTimestamp',
      'CONTAINERS string .spec.template.spec.containers[*].name wide',
      'IMAGES string .spec.template.spec.containers[*].image wide',
    ]);
  });
});
