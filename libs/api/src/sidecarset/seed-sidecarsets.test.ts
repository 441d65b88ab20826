import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { buildCrd } from '../crd/build.js';
import type { JsonSchemaProps } from '../crd/definition.js';
import { VOLUME_TEMPLATES_WARNING, defaultSidecarSetForAdmission } from './admission.js';
import { SIDECARSET_CRD } from './crd.js';
import { loadSeedSidecarSets } from './fixtures/seed-sidecarsets.js';
import type { SidecarSet } from './types.js';
import { validateSidecarSet } from './validation.js';

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

const v1alpha1 = buildCrd(SIDECARSET_CRD).spec.versions.find((v) => v.name === 'v1alpha1')?.schema.openAPIV3Schema as JsonSchemaProps;
const seeds = loadSeedSidecarSets();
/** S1 §5.2's field reference (`type: disabled | enabled`, `Name:`, `hostPath: <string>`) documents choices; it is not applyable. */
const REFERENCE = 's1-5.2-fields.yaml';

function admitted(file: string): { object: SidecarSet; warnings: string[] } {
  const s = seeds.find((x) => x.file === file);
  if (!s) throw new Error(file);
  const { object, warnings } = defaultSidecarSetForAdmission(s.object, 'v1alpha1');
  return { object: object as unknown as SidecarSet, warnings };
}

describe('seed article SidecarSets (S1 §1.3.3, §5; S2)', () => {
  it('are all here', () => {
    expect(seeds.map((s) => [s.file, s.complete])).toEqual([
      ['s1-1.3.3-log-collector.yaml', true],
      ['s1-5.1-scs-demo.yaml', true],
      ['s1-5.2-fields.yaml', true],
      ['s1-5.2-paused.yaml', false],
      ['s1-5.3-canary.yaml', false],
      ['s2-hotupgrade-sidecarset.yaml', true],
    ]);
    for (const s of seeds) expect(s.object.apiVersion).toBe('apps.kruise.io/v1alpha1');
  });

  it.each(seeds.map((s) => [s.file, s] as const))('%s uses only fields the v1alpha1 schema knows', (_file, s) => {
    expect(prunedPaths(v1alpha1, s.object)).toEqual([]);
  });

  it.each(seeds.filter((s) => s.file !== REFERENCE).map((s) => [s.file] as const))('%s passes the webhook after defaulting', (file) => {
    expect(validateSidecarSet(admitted(file).object, { version: 'v1alpha1' }).map(formatFieldError)).toEqual([]);
  });

  it('the §5.2 field reference is refused with the fields named', () => {
    const errs = validateSidecarSet(admitted(REFERENCE).object, { version: 'v1alpha1' }).map(formatFieldError);
    expect(errs).toEqual([
      'spec.containers[0].shareVolumePolicy: Invalid value: {"type":"disabled | enabled"}: unsupported share volume policy',
      // `Name` is not `name`: read as a second volume source
      'spec.volumes[0].Name: Invalid value: "nginxconf": must be an object',
      'spec.volumes[0].hostPath: Invalid value: "/data/nginx/conf": must be an object',
    ]);
  });

  it('log-collector: volumeTemplates becomes volumes, with the warning; revisionHistoryLimit and maxUnavailable kept', () => {
    const { object, warnings } = admitted('s1-1.3.3-log-collector.yaml');
    expect(warnings).toEqual([VOLUME_TEMPLATES_WARNING]);
    expect(object.spec.volumes).toEqual([{ name: 'logs', emptyDir: {} }]);
    expect(object.spec).toMatchObject({ revisionHistoryLimit: 5, updateStrategy: { type: 'RollingUpdate', maxUnavailable: '20%', partition: 0 } });
  });

  it('keeps the article values the webhook and the controller depend on', () => {
    expect(admitted('s1-5.1-scs-demo.yaml').object.spec.containers?.[0]).toMatchObject({ name: 'sidecar1', podInjectPolicy: 'BeforeAppContainer', upgradeStrategy: { upgradeType: 'ColdUpgrade' }, imagePullPolicy: 'Always' });
    expect(admitted('s1-5.2-paused.yaml').object.spec.updateStrategy).toEqual({ type: 'RollingUpdate', maxUnavailable: '20%', partition: 10, paused: true });
    expect(admitted('s1-5.3-canary.yaml').object.spec.updateStrategy).toEqual({ type: 'RollingUpdate', maxUnavailable: 1, partition: 0, selector: { matchLabels: { 'canary.release': 'true' } } });
    expect(admitted('s2-hotupgrade-sidecarset.yaml').object.spec.containers?.[0]?.upgradeStrategy).toEqual({ upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'openkruise/hotupgrade-sample:empty' });
    for (const s of seeds) expect(admitted(s.file).object.metadata?.annotations?.['kruise.io/sidecarset-hash']).toMatch(/^[a-z0-9]{64}$/);
  });
});
