// §7.4 webhook tables (`pkg/webhook/resourcedistribution/validating/resourcedistribution_create_update_handler_test.go`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FieldPath } from '@regatta/kube';
import { defaultResourceDistributionForAdmission } from './admission.js';
import { resourceHashCode, goJson } from './hash.js';
import {
  EMPTY_RESOURCE,
  IMMUTABLE_RESOURCE,
  UNSUPPORTED_RESOURCE,
  dryRunErrors,
  targetsErrors,
  validateResourceDistribution,
} from './validation.js';

const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'test-secret-1' }, type: 'Opaque', data: { k: 'dg==' } };
const rd = (targets: Record<string, unknown>, resource: unknown = secret) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'ResourceDistribution',
  metadata: { name: 'test-resource-distribution' },
  spec: { resource, targets },
});
const list = (...names: string[]) => ({ list: names.map((name) => ({ name })) });

describe('validateResourceDistribution: success cases', () => {
  it.each([
    ['includedNamespaces only', { includedNamespaces: list('ns-1', 'ns-2') }],
    ['allNamespaces', { allNamespaces: true }],
    ['selector only', { namespaceSelector: { matchLabels: { group: 'one' } } }],
    ['included + excluded', { includedNamespaces: list('ns-1'), excludedNamespaces: list('ns-2') }],
    ['all + excluded', { allNamespaces: true, excludedNamespaces: list('ns-2') }],
    ['all + selector', { allNamespaces: true, namespaceSelector: { matchExpressions: [{ key: 'g', operator: 'Exists' }] } }],
    ['empty targets', {}],
  ])('%s', (_, targets) => {
    expect(validateResourceDistribution(rd(targets), 'v1beta1')).toEqual([]);
  });
  it('a resource with metadata.namespace (ignored)', () => {
    const r = { ...secret, metadata: { name: 's', namespace: 'elsewhere' } };
    expect(validateResourceDistribution(rd({ allNamespaces: true }, r), 'v1beta1')).toEqual([]);
  });
  it('a ConfigMap (the seed)', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' }, data: { a: 'b' } };
    expect(validateResourceDistribution(rd({ includedNamespaces: list('ns-1') }, cm), 'v1alpha1')).toEqual([]);
  });
});

describe('validateResourceDistribution: error cases (field paths)', () => {
  const fields = (targets: Record<string, unknown>, resource: unknown = secret, version: 'v1alpha1' | 'v1beta1' = 'v1beta1') =>
    validateResourceDistribution(rd(targets, resource), version).map((e) => [e.type, e.field, e.detail.slice(0, 40)]);
  it.each([
    ['empty resource', {}, {}, [['FieldValueInvalid', 'spec.resource', EMPTY_RESOURCE]]],
    ['garbage (not an object)', {}, 'garbage', [['InternalError', 'spec.resource', 'failed to deserialize resource, please c']]],
    ['no kind', {}, { apiVersion: 'v1' }, [['InternalError', 'spec.resource', 'failed to deserialize resource, please c']]],
    ['unsupported kind', {}, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }, [['FieldValueInvalid', 'spec.resource', UNSUPPORTED_RESOURCE.slice(0, 40)]]],
    ['INVALID in included', { includedNamespaces: list('INVALID') }, secret, [['FieldValueInvalid', 'spec.targets.includedNamespaces', 'a lowercase RFC 1123 label must consist ']]],
    ['INVALID in excluded', { excludedNamespaces: list('INVALID') }, secret, [['FieldValueInvalid', 'spec.targets.excludedNamespaces', 'a lowercase RFC 1123 label must consist ']]],
    ['empty name', { includedNamespaces: list('') }, secret, [['FieldValueInvalid', 'spec.targets.includedNamespaces', 'a lowercase RFC 1123 label must consist ']]],
    ['same namespace included and excluded', { includedNamespaces: list('ns-1'), excludedNamespaces: list('ns-1') }, secret, [['FieldValueInvalid', 'spec.targets', 'ambiguous targets because namespace [ns-1]']]],
    ['invalid selector key', { namespaceSelector: { matchLabels: { 'in valid': 'x' } } }, secret, [['FieldValueInvalid', 'spec.targets.namespaceSelector', 'labelSelectorAsSelector error: spec.targ']]],
  ] as const)('%s', (_, targets, resource, expected) => {
    expect(fields(targets, resource)).toEqual(expected.map((e) => [e[0], e[1], e[2].slice(0, 40)]));
  });
  it('v1alpha1 names its own selector field', () => {
    expect(fields({ namespaceLabelSelector: { matchLabels: { 'in valid': 'x' } } }, secret, 'v1alpha1')[0]?.[1]).toBe(
      'spec.targets.namespaceLabelSelector',
    );
  });
  it('metadata.name must be a DNS subdomain', () => {
    const bad = { ...rd({}), metadata: { name: 'Bad_Name' } };
    expect(validateResourceDistribution(bad, 'v1beta1').map((e) => e.field)).toEqual(['metadata.name']);
  });
  it('validateResourceDistributionTargets: excluded {ns-1}, included {ns-1, ns-2, kube-system, ""}, bad selector → 3 errors', () => {
    const errs = targetsErrors(
      {
        excludedNamespaces: list('ns-1'),
        includedNamespaces: list('ns-1', 'ns-2', 'kube-system', ''),
        namespaceSelector: { matchExpressions: [{ key: 'k', operator: 'Bad' }] },
      },
      'v1beta1',
      FieldPath.root('spec', 'targets'),
    );
    expect(errs.map((e) => e.field)).toEqual([
      'spec.targets.includedNamespaces',
      'spec.targets',
      'spec.targets.namespaceSelector',
    ]);
  });
});

describe('validateResourceDistribution: update', () => {
  const old = rd({ includedNamespaces: list('ns-1') });
  it.each([
    ['adding a namespace', rd({ includedNamespaces: list('ns-1', 'ns-2') })],
    ['switching to all', rd({ allNamespaces: true })],
    ['switching to a selector', rd({ namespaceSelector: { matchLabels: { a: 'b' } } })],
    ['changing the data', rd({ includedNamespaces: list('ns-1') }, { ...secret, data: { k: 'eA==' } })],
  ])('allowed: %s', (_, obj) => {
    expect(validateResourceDistribution(obj, 'v1beta1', old)).toEqual([]);
  });
  it.each([
    ['the resource name', { ...secret, metadata: { name: 'other' } }],
    ['the resource kind', { ...secret, kind: 'ConfigMap' }],
    ['the resource apiVersion', { ...secret, apiVersion: 'v2' }],
  ])('rejected: changing %s', (_, resource) => {
    const errs = validateResourceDistribution(rd({ includedNamespaces: list('ns-1') }, resource), 'v1beta1', old);
    expect(errs.map((e) => [e.field, e.detail])).toEqual([['spec.resource', IMMUTABLE_RESOURCE]]);
  });
});

describe('dry-run failures (upstream mapping)', () => {
  it.each([
    ['invalid', 'FieldValueInvalid', 'spec.resource is invalid: x'],
    ['forbidden', 'FieldValueForbidden', 'spec.resource is forbidden: x'],
    ['other', 'InternalError', 'failed to dry-run validate spec.resource: x'],
  ] as const)('%s', (kind, type, detail) => {
    expect(dryRunErrors({ kind, message: 'x' })).toEqual([expect.objectContaining({ type, field: 'spec.resource', detail })]);
  });
  it('none', () => expect(dryRunErrors(undefined)).toEqual([]));
});

describe('the selector names of the two versions (mutating webhook)', () => {
  it('v1alpha1 namespaceLabelSelector is copied to namespaceSelector', () => {
    const out = defaultResourceDistributionForAdmission(rd({ namespaceLabelSelector: { matchLabels: { a: 'b' } } }), 'v1alpha1');
    expect(out.spec.targets).toEqual({ namespaceLabelSelector: { matchLabels: { a: 'b' } }, namespaceSelector: { matchLabels: { a: 'b' } } });
  });
  it('the request version wins; removing it removes both', () => {
    const both = rd({ namespaceSelector: { matchLabels: { a: 'new' } }, namespaceLabelSelector: { matchLabels: { a: 'old' } } });
    expect(defaultResourceDistributionForAdmission(both, 'v1beta1').spec.targets['namespaceLabelSelector']).toEqual({ matchLabels: { a: 'new' } });
    const none = rd({ namespaceLabelSelector: { matchLabels: { a: 'old' } } });
    expect(defaultResourceDistributionForAdmission(none, 'v1beta1').spec.targets).toEqual({});
  });
});

describe('hashcode: SHA-256 of the resource as Go encodes it', () => {
  it('sorted keys, compact, HTML escapes', () => {
    expect(goJson({ b: 1, a: { d: '<&>', c: [true, null] } })).toBe('{"a":{"c":[true,null],"d":"\\u003c\\u0026\\u003e"},"b":1}');
  });
  it('is hex SHA-256, independent of key order', () => {
    expect(resourceHashCode({ a: 1, b: 2 })).toBe(resourceHashCode({ b: 2, a: 1 }));
    expect(resourceHashCode({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
    // sha256('{"a":1}')
    expect(resourceHashCode({ a: 1 })).toBe('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  });
});

describe('the seed (S2): ResourceDistribution "sample" of the ConfigMap game-demo', () => {
  it('parses and validates as v1alpha1 with no error, and its selector is copied to the v1beta1 name', () => {
    const seed = parse(readFileSync(fileURLToPath(new URL('./fixtures/seed-resourcedistribution.yaml', import.meta.url)), 'utf8'));
    expect(validateResourceDistribution(seed, 'v1alpha1')).toEqual([]);
    expect(defaultResourceDistributionForAdmission(seed, 'v1alpha1').spec.targets.namespaceSelector).toEqual({ matchLabels: { group: 'test' } });
  });
});
