import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceDistribution } from '@regatta/api';
import { specProblem } from './spec-guard.js';

const rd = (
  spec: Record<string, unknown> = {},
  apiVersion = 'apps.kruise.io/v1alpha1',
): ResourceDistribution =>
  ({
    apiVersion,
    kind: 'ResourceDistribution',
    metadata: { name: 'rd', uid: 'u1', generation: 1 },
    spec: {
      resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { k: 'v' } },
      targets: { includedNamespaces: { list: [{ name: 'ns-1' }] } },
      ...spec,
    },
  }) as unknown as ResourceDistribution;

describe('specProblem: the pure admission rules, for what the API server stored without the webhooks', () => {
  it.each<[string, ResourceDistribution, RegExp | undefined]>([
    ['a valid ConfigMap distribution', rd(), undefined],
    ['a v1beta1 one', rd({}, 'apps.kruise.io/v1beta1'), undefined],
    [
      'a Namespace as the resource',
      rd({ resource: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } } }),
      /^spec\.resource/,
    ],
    ['an empty resource', rd({ resource: {} }), /^spec\.resource/],
    [
      // created as v1alpha1, read back as v1beta1: the stored selector keeps its v1alpha1 name (finding 18)
      'a v1alpha1-named selector with an unknown operator, read as v1beta1',
      rd(
        { targets: { namespaceLabelSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } } },
        'apps.kruise.io/v1beta1',
      ),
      /^spec\.targets\.namespaceLabelSelector/,
    ],
    [
      'a v1beta1-named selector with an unknown operator, read as v1alpha1',
      rd({ targets: { namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } } }),
      /^spec\.targets\.namespaceSelector/,
    ],
    [
      'a namespace both included and excluded',
      rd({
        targets: {
          includedNamespaces: { list: [{ name: 'a' }] },
          excludedNamespaces: { list: [{ name: 'a' }] },
        },
      }),
      /spec\.targets/,
    ],
    [
      'an invalid namespace name',
      rd({ targets: { includedNamespaces: { list: [{ name: 'Bad_NS' }] } } }),
      /spec\.targets\.includedNamespaces/,
    ],
  ])('%s', (_name, obj, want) => {
    const got = specProblem(obj);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });

  it('never throws, for any JSON in the spec, the resource or the targets (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('spec', 'resource', 'targets'),
        fc.jsonValue({ maxDepth: 4 }),
        (place, value) => {
          const o = rd() as unknown as { spec: Record<string, unknown> };
          if (place === 'spec') o.spec = value as never;
          else o.spec[place] = value;
          expect(typeof (specProblem(o as unknown as ResourceDistribution) ?? '')).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});
