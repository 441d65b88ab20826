import { describe, expect, it } from 'vitest';
import { buildCrd } from '../crd/build.js';
import { DAEMONSET_CRD } from './crd.js';

const crd = buildCrd(DAEMONSET_CRD);

describe('DaemonSet CRD (config/crd/bases/apps.kruise.io_daemonsets.yaml)', () => {
  it('serves v1alpha1 and v1beta1 and stores v1beta1, with the status subresource only', () => {
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([
      ['v1alpha1', true, false],
      ['v1beta1', true, true],
    ]);
    for (const v of crd.spec.versions) expect(v.subresources).toEqual({ status: {} });
  });

  it('has the short names daemon and ads', () => {
    expect(crd.spec.names.shortNames).toEqual(['daemon', 'ads']);
  });

  it('has OpenKruise printer columns in both versions', () => {
    for (const v of crd.spec.versions) {
      expect(v.additionalPrinterColumns?.map((c) => `${c.name} ${c.type} ${c.jsonPath}${c.priority ? ` p${c.priority}` : ''}`)).toEqual([
        'DESIRED integer .status.desiredNumberScheduled',
        'CURRENT integer .status.currentNumberScheduled',
        'READY integer .status.numberReady',
        'UP-TO-DATE integer .status.updatedNumberScheduled',
        'AVAILABLE integer .status.numberAvailable',
        'AGE date .metadata.creationTimestamp',
        'CONTAINERS string .spec.template.spec.containers[*].name p1',
        'IMAGES string .spec.template.spec.containers[*].image p1',
      ]);
    }
  });

  const props = (version: string, ...path: string[]): Record<string, unknown> => {
    let node = crd.spec.versions.find((v) => v.name === version)?.schema.openAPIV3Schema as Record<string, unknown>;
    for (const p of path) node = (node['properties'] as Record<string, Record<string, unknown>>)[p] as Record<string, unknown>;
    return node;
  };

  it('requires selector and template; keeps the template whole', () => {
    expect(props('v1beta1', 'spec')['required']).toEqual(['selector', 'template']);
    expect(props('v1beta1', 'spec', 'template')['x-kubernetes-preserve-unknown-fields']).toBe(true);
  });

  it('differs between versions only where upstream does', () => {
    expect(Object.keys(props('v1beta1', 'spec')['properties'] as object)).toContain('scaleStrategy');
    expect(Object.keys(props('v1alpha1', 'spec')['properties'] as object)).not.toContain('scaleStrategy');
    expect(Object.keys(props('v1beta1', 'status')['properties'] as object)).toContain('updateRevision');
    // stored for v1alpha1 readers (docs/adr/0023-daemonset-hash-stored-for-v1alpha1-readers.md)
    expect(Object.keys(props('v1beta1', 'status')['properties'] as object)).toContain('daemonSetHash');
    expect(Object.keys(props('v1alpha1', 'status')['properties'] as object)).toContain('daemonSetHash');
    expect([...(props('v1beta1', 'status')['required'] as string[])].sort()).toEqual([
      'currentNumberScheduled',
      'desiredNumberScheduled',
      'numberMisscheduled',
      'numberReady',
      'updatedNumberScheduled',
    ]);
  });

  it('types the int-or-string fields as upstream', () => {
    const ru = props('v1beta1', 'spec', 'updateStrategy', 'rollingUpdate');
    for (const f of ['maxUnavailable', 'maxSurge', 'partition']) {
      expect((ru['properties'] as Record<string, Record<string, unknown>>)[f]?.['x-kubernetes-int-or-string']).toBe(true);
    }
    expect(props('v1beta1', 'spec', 'burstReplicas')['x-kubernetes-int-or-string']).toBe(true);
  });
});
