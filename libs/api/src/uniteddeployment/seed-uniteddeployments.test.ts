import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { UNITED_DEPLOYMENT_CRD, buildCrd, type JsonSchemaProps } from '../index.js';
import { loadSeedUnitedDeployment } from './fixtures/seed-uniteddeployments.js';

/** Paths the API server would prune from `obj` under this structural schema (unknown fields). */
function prunedPaths(schema: JsonSchemaProps, obj: unknown, at = ''): string[] {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true || obj === null || typeof obj !== 'object')
    return [];
  if (Array.isArray(obj)) {
    const items = schema['items'] as JsonSchemaProps | undefined;
    return items ? obj.flatMap((x, i) => prunedPaths(items, x, `${at}[${i}]`)) : [];
  }
  const props = schema['properties'] as Record<string, JsonSchemaProps> | undefined;
  const extra = schema['additionalProperties'] as JsonSchemaProps | undefined;
  return Object.entries(obj).flatMap(([k, v]) => {
    if (at === '' && k === 'metadata') return [];
    const sub = props?.[k] ?? extra;
    return sub ? prunedPaths(sub, v, `${at}.${k}`) : [`${at}.${k}`];
  });
}

describe('the seed article UnitedDeployment (S1 §1.3.4)', () => {
  const seed = loadSeedUnitedDeployment();
  const crd = buildCrd(UNITED_DEPLOYMENT_CRD);

  it('elides only the CloneSet spec, which YAML reads as {"...": null}', () => {
    const raw = parse(seed.text) as {
      spec: { template: { cloneSetTemplate: { spec: unknown } }; selector?: unknown };
    };
    expect(raw.spec.template.cloneSetTemplate.spec).toEqual({ '...': null });
    expect(raw.spec.selector).toBeUndefined();
    expect(seed.object.spec.topology?.subsets?.map((s) => [s.name, s.nodeSelector, s.replicas])).toEqual([
      ['az-east', { 'topology.kubernetes.io/zone': 'east' }, 4],
      ['az-west', { 'topology.kubernetes.io/zone': 'west' }, 4],
      ['az-central', { 'topology.kubernetes.io/zone': 'central' }, 4],
    ]);
  });

  it.each(['v1alpha1', 'v1beta1'])(
    'keeps every field under the %s schema (the nodeSelector shorthand is not pruned)',
    (version) => {
      const schema = crd.spec.versions.find((v) => v.name === version)?.schema
        .openAPIV3Schema as JsonSchemaProps;
      expect(prunedPaths(schema, seed.object)).toEqual([]);
      expect(prunedPaths(schema, seed.openKruiseForm)).toEqual([]);
    },
  );
});
