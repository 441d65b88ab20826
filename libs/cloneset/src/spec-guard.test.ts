import { describe, expect, it } from 'vitest';
import type { CloneSet } from '@regatta/api';
import { SpecGuard, specProblem } from './spec-guard.js';

const cs = (spec: Record<string, unknown>, labels: Record<string, string> = { app: 'cs' }): CloneSet =>
  ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'u1', generation: 1 },
    spec: {
      selector: { matchLabels: { app: 'cs' } },
      template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] } },
      ...spec,
    },
  }) as unknown as CloneSet;

describe('specProblem: the admission rules, for what the API server stored without the webhooks', () => {
  it.each<[string, CloneSet, RegExp | undefined]>([
    ['a plain CloneSet, not defaulted', cs({}), undefined],
    ['an empty selector', cs({ selector: {} }), /spec\.selector/],
    [
      'a selector the template does not match',
      cs({ selector: { matchLabels: { app: 'other' } } }),
      /spec\.template\.metadata\.labels/,
    ],
    [
      'an unparsable maxUnavailable',
      cs({ updateStrategy: { maxUnavailable: 'lots%' } }),
      /spec\.updateStrategy\.maxUnavailable/,
    ],
    // not validated upstream either (it counts as 0 and the ScaleUpLimited event says so)
    ['an unparsable scaleStrategy.maxUnavailable', cs({ scaleStrategy: { maxUnavailable: 'x' } }), undefined],
    [
      'a partition that is not int or percent',
      cs({ updateStrategy: { partition: 'abc' } }),
      /spec\.updateStrategy\.partition/,
    ],
  ])('%s', (_name, obj, want) => {
    const got = specProblem(obj);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });

  it('is computed once per generation', () => {
    const guard = new SpecGuard();
    const bad = cs({ selector: {} });
    const first = guard.problem('ns/web', bad);
    expect(first).toBeDefined();
    // same uid and generation: the stored verdict, even if the object handed in differs
    expect(guard.problem('ns/web', cs({}))).toBe(first);
    const fixed = cs({});
    fixed.metadata!.generation = 2;
    expect(guard.problem('ns/web', fixed)).toBeUndefined();
    guard.forget('ns/web');
    expect(guard.problem('ns/web', bad)).toBeDefined();
  });
});
