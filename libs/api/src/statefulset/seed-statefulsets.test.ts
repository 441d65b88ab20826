// The Advanced StatefulSet manifests of the seed articles: schema, defaults and webhook verdicts.
import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { buildCrd, type JsonSchemaProps } from '../index.js';
import { STATEFULSET_CRD } from './crd.js';
import { defaultStatefulSet } from './defaults.js';
import { loadSeedStatefulSets } from './fixtures/seed-statefulsets.js';
import { replicaOrdinals, reservedOrdinals } from './reserve-ordinals.js';
import { validateStatefulSet } from './validation.js';

/** Paths the API server would prune from `obj` under this structural schema (unknown fields). */
function prunedPaths(schema: JsonSchemaProps, obj: unknown, at = ''): string[] {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true || obj === null || typeof obj !== 'object') return [];
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

const crd = buildCrd(STATEFULSET_CRD);
const fixtures = loadSeedStatefulSets();
const byFile = new Map(fixtures.map((f) => [f.file, f]));

// what the articles get wrong, as the API server and the webhook report it
const expectedPruned: Record<string, string[]> = {
  // S1 §3 writes a container-style `exec` handler under lifecycle.preDelete; an OpenKruise LifecycleHook has only
  // labelsHandler / finalizersHandler / markPodNotReady, so the field is unknown (OpenKruise's CRD prunes it too)
  's1-3.2-lifecycle.yaml': ['.spec.lifecycle.preDelete.exec'],
};
const expectedErrors: Record<string, string[]> = {
  // S1 §1.3.2 puts "Parallel" in podUpdatePolicy (how a pod is updated) and uses maxUnavailable 2 without Parallel
  's1-1.3.2-mysql-cluster.yaml': [
    'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 2: can only work with Parallel PodManagementPolicyType',
    "spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: \"Parallel\": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'; " +
      'podUpdatePolicy chooses how a pod is updated, not how many at once: parallel updates are `spec.podManagementPolicy: Parallel` ' +
      'with `rollingUpdate.maxUnavailable`',
  ],
};

describe('seed article Advanced StatefulSets', () => {
  it('are all here: 7 from S1, 2 of them complete manifests', () => {
    expect(fixtures.map((f) => f.file)).toEqual([
      's1-1.3.2-mysql-cluster.yaml',
      's1-3.1-advanced-sts-demo.yaml',
      's1-3.2-in-place.yaml',
      's1-3.2-lifecycle.yaml',
      's1-3.2-paused.yaml',
      's1-3.2-reserve-ordinals.yaml',
      's1-3.2-scale-max-unavailable.yaml',
    ]);
    expect(fixtures.filter((f) => f.complete).map((f) => f.file)).toEqual(['s1-3.1-advanced-sts-demo.yaml', 's1-3.2-in-place.yaml']);
    for (const f of fixtures) expect(f.raw.apiVersion).toBe('apps.kruise.io/v1beta1');
  });

  it.each(fixtures.map((f) => [f.file, f] as const))('%s: only fields the schema knows (both versions)', (file, f) => {
    for (const v of crd.spec.versions) {
      expect(prunedPaths(v.schema.openAPIV3Schema, f.object)).toEqual(expectedPruned[file] ?? []);
    }
  });

  it.each(fixtures.map((f) => [f.file, f] as const))('%s: the webhook verdict after defaulting', (file, f) => {
    const sts = defaultStatefulSet({ ...f.object, metadata: { ...f.object.metadata, namespace: 'default' } });
    expect(validateStatefulSet(sts).map(formatFieldError)).toEqual(expectedErrors[file] ?? []);
  });

  it('the mysql-cluster snippet passes once parallelism is where the API has it', () => {
    const f = byFile.get('s1-1.3.2-mysql-cluster.yaml');
    const o = structuredClone(f?.object);
    if (!o) throw new Error('fixture missing');
    o.metadata = { ...o.metadata, namespace: 'default' };
    o.spec.podManagementPolicy = 'Parallel';
    delete o.spec.updateStrategy?.rollingUpdate?.podUpdatePolicy;
    expect(validateStatefulSet(defaultStatefulSet(o)).map(formatFieldError)).toEqual([]);
  });

  it('keeps the article values the controller depends on', () => {
    const obj = (file: string) => byFile.get(file)?.object;
    expect(obj('s1-3.1-advanced-sts-demo.yaml')?.spec).toMatchObject({
      serviceName: 'nginx-headless',
      podManagementPolicy: 'Parallel',
      replicas: 5,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } },
    });
    expect(obj('s1-3.2-in-place.yaml')?.spec.updateStrategy?.rollingUpdate).toEqual({
      podUpdatePolicy: 'InPlaceIfPossible',
      maxUnavailable: 3,
      inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
    });
    expect(obj('s1-3.2-paused.yaml')?.spec.updateStrategy?.rollingUpdate).toEqual({ maxUnavailable: 3, paused: true });
    const reserve = obj('s1-3.2-reserve-ordinals.yaml')?.spec;
    expect(reserve?.reserveOrdinals).toEqual([1]);
    // S1: replicas=4, reserveOrdinals=[1] runs pods 0, 2, 3, 4
    expect(replicaOrdinals(reserve?.replicas ?? 0, 0, reservedOrdinals(reserve?.reserveOrdinals))).toEqual([0, 2, 3, 4]);
    expect(obj('s1-3.2-scale-max-unavailable.yaml')?.spec).toMatchObject({ replicas: 100, scaleStrategy: { maxUnavailable: '10%' } });
  });
});
