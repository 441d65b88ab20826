import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { buildCrd } from '../crd/build.js';
import type { JsonSchemaProps } from '../crd/definition.js';
import { DAEMONSET_CRD } from './crd.js';
import { defaultDaemonSet } from './defaults.js';
import { loadSeedDaemonSets } from './fixtures/seed-daemonsets.js';
import { validateDaemonSet } from './validation.js';

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

const v1alpha1 = buildCrd(DAEMONSET_CRD).spec.versions.find((v) => v.name === 'v1alpha1')?.schema.openAPIV3Schema as JsonSchemaProps;
const seeds = loadSeedDaemonSets();

describe('seed article DaemonSets (S1 §4)', () => {
  it('are all here: the migration snippet and the four §4.1 manifests, only nginx complete', () => {
    expect(seeds.map((s) => [s.file, s.complete])).toEqual([
      ['s1-4-migrate-from-apps-v1.yaml', false],
      ['s1-4.1-in-place.yaml', false],
      ['s1-4.1-nginx.yaml', true],
      ['s1-4.1-node-selector.yaml', false],
      ['s1-4.1-partition.yaml', false],
    ]);
    for (const s of seeds) expect(s.object.apiVersion).toBe('apps.kruise.io/v1alpha1');
  });

  it.each(seeds.map((s) => [s.file, s] as const))('%s uses only fields the v1alpha1 schema knows', (_file, s) => {
    expect(prunedPaths(v1alpha1, s.object)).toEqual([]);
  });

  it.each(seeds.map((s) => [s.file, s] as const))('%s passes the webhook after defaulting', (_file, s) => {
    const ds = defaultDaemonSet({ ...s.object, metadata: { ...s.object.metadata, namespace: 'default' } });
    expect(validateDaemonSet(ds).map(formatFieldError)).toEqual([]);
  });

  it('keeps the article values the controller depends on', () => {
    const byFile = new Map(seeds.map((s) => [s.file, defaultDaemonSet(s.object).spec.updateStrategy]));
    expect(byFile.get('s1-4.1-nginx.yaml')).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 },
    });
    expect(byFile.get('s1-4.1-node-selector.yaml')?.rollingUpdate?.selector).toEqual({ matchLabels: { 'kubernetes.io/hostname': 'node1' } });
    expect(byFile.get('s1-4.1-partition.yaml')?.rollingUpdate).toMatchObject({ partition: 10, paused: true });
    expect(byFile.get('s1-4.1-in-place.yaml')?.rollingUpdate).toMatchObject({ rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1, maxSurge: 0 });
  });
});
