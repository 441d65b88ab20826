import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { CLONESET_CRD, buildCrd, defaultCloneSet, validateCloneSet, type JsonSchemaProps } from './index.js';
import { loadSeedCloneSets } from './fixtures/seed-clonesets.js';

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
    if (at === '' && k === 'metadata') return []; // the API server handles ObjectMeta itself
    const sub = props?.[k] ?? extra;
    return sub ? prunedPaths(sub, v, `${at}.${k}`) : [`${at}.${k}`];
  });
}

const schema = buildCrd(CLONESET_CRD).spec.versions[0]?.schema.openAPIV3Schema as JsonSchemaProps;
const fixtures = loadSeedCloneSets();

// what the articles leave out or get wrong, as the webhook reports it
const expectedErrors: Record<string, string[]> = {
  // the sidecar container of the snippet has no image
  's1-2.2.2.4-container-priority.yaml': ['spec.template.spec.containers[0].image: Required value'],
  // the article puts `containers` directly under `template` (its `spec:` line is missing)
  's1-2.3.3-lifecycle-demo.yaml': ['spec.template.spec.containers: Required value'],
};

describe('seed article CloneSets', () => {
  it('are all here: 15 from S1, 1 from S2', () => {
    expect(fixtures.map((f) => f.file.slice(0, 2))).toEqual([...Array(15).fill('s1'), 's2']);
    expect(fixtures.filter((f) => f.complete).map((f) => f.name)).toEqual(['cs-demo', 'sample-data', 'cloneset-lifecycle-demo', 'busybox']);
  });

  it('reads the two alternative lifecycle blocks of S1 §2.3 as two objects', () => {
    const f = fixtures.find((x) => x.file === 's1-2.3-lifecycle-hooks.yaml');
    expect(f?.objects.map((o) => o.spec.lifecycle)).toEqual([
      { preDelete: { finalizersHandler: ['example.io/unready-blocker'] }, inPlaceUpdate: { finalizersHandler: ['example.io/unready-blocker'] } },
      { inPlaceUpdate: { labelsHandler: { 'example.io/block-unready': 'true' } } },
    ]);
  });

  it.each(fixtures.map((f) => [f.file, f] as const))('%s uses only fields the CloneSet schema knows', (_file, f) => {
    for (const o of f.objects) expect(prunedPaths(schema, o)).toEqual([]);
  });

  it.each(fixtures.map((f) => [f.file, f] as const))('%s passes the webhook after defaulting (except what the article omits)', (file, f) => {
    for (const o of f.objects) {
      const cs = defaultCloneSet({ ...o, metadata: { ...o.metadata, namespace: 'default' } });
      expect(validateCloneSet(cs).map(formatFieldError)).toEqual(expectedErrors[file] ?? []);
    }
  });

  it('keeps the article values the controller depends on', () => {
    const byFile = new Map(fixtures.map((f) => [f.file, f.objects[0]]));
    expect(byFile.get('s1-1.3.1-web-server.yaml')?.spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', partition: 100, maxUnavailable: '10%' });
    expect(byFile.get('s1-2.1.3-scale-max-unavailable.yaml')?.spec.scaleStrategy).toEqual({ maxUnavailable: 1 });
    expect(byFile.get('s1-2.2.2.4-grace-period.yaml')?.spec.updateStrategy?.inPlaceUpdateStrategy).toEqual({ gracePeriodSeconds: 10 });
    expect(byFile.get('s1-2.2.2.3-predownload-annotations.yaml')?.metadata?.annotations).toEqual({
      'apps.kruise.io/image-predownload-parallelism': '5',
      'apps.kruise.io/image-predownload-min-updated-ready-pods': '2',
    });
    expect(byFile.get('s1-2.2.2.5-partition.yaml')?.status?.updatedReplicas).toBe(2);
  });
});
