import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UnitedDeployment } from '@regatta/api';
import { SpecGuard } from '@regatta/kube';
import { specProblem } from './spec-guard.js';
import { ud, udWith } from './webhooks/test-objects.js';

const withUid = (u: UnitedDeployment, generation = 1): UnitedDeployment => {
  u.metadata = { ...u.metadata, uid: 'u1', generation };
  return u;
};

describe('specProblem: the admission rules, for what the API server stored without the webhooks', () => {
  it.each<[string, UnitedDeployment, RegExp | undefined]>([
    ['a valid UnitedDeployment', ud(), undefined],
    ['a valid one of Advanced StatefulSets', ud('advancedStatefulSetTemplate'), undefined],
    [
      'not defaulted (no revisionHistoryLimit, no strategy)',
      udWith((u) => {
        delete u.spec.revisionHistoryLimit;
        delete u.spec.updateStrategy;
      }),
      undefined,
    ],
    [
      'negative replicas',
      udWith((u) => {
        u.spec.replicas = -2;
      }),
      /^spec\.replicas: Invalid value: -2/,
    ],
    [
      'two subsets of one name',
      udWith((u) => {
        u.spec.topology!.subsets![1]!.name = 'a';
      }),
      /spec\.topology\.subsets\[1\]\.name: .*duplicated subset name a/,
    ],
    [
      'a subset of more replicas than the total',
      udWith((u) => {
        u.spec.topology!.subsets![0]!.replicas = 100;
      }),
      /spec\.topology\.subsets/,
    ],
    [
      'an empty selector',
      udWith((u) => {
        u.spec.selector = {};
      }),
      /spec\.selector/,
    ],
    [
      'an unknown update strategy',
      udWith((u) => {
        u.spec.updateStrategy = { type: 'Sometimes' as never };
      }),
      /spec\.updateStrategy\.type: Unsupported value/,
    ],
    [
      'no subset template',
      udWith((u) => {
        u.spec.template = {};
      }),
      /spec\.template/,
    ],
  ])('%s', (_name, obj, want) => {
    const got = specProblem(obj);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });

  it('is computed once per generation', () => {
    const guard = new SpecGuard(specProblem);
    const bad = withUid(
      udWith((u) => {
        u.spec.replicas = -1;
      }),
    );
    const first = guard.problem('ns/web', bad);
    expect(first).toBeDefined();
    expect(guard.problem('ns/web', withUid(ud()))).toBe(first);
    expect(guard.problem('ns/web', withUid(ud(), 2))).toBeUndefined();
    guard.forget('ns/web');
    expect(guard.problem('ns/web', bad)).toBeDefined();
  });

  it('never throws, for any JSON in the spec or a subset (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('spec', 'subset', 'template'),
        fc.jsonValue({ maxDepth: 4 }),
        (place, value) => {
          const u = ud() as unknown as { spec: Record<string, unknown> };
          if (place === 'spec') u.spec = value as never;
          else if (place === 'subset') (u.spec['topology'] as { subsets: unknown[] }).subsets[0] = value;
          else u.spec['template'] = value;
          expect(typeof (specProblem(u as unknown as UnitedDeployment) ?? '')).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});
