import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SidecarSet } from '@regatta/api';
import { SpecGuard } from '@regatta/kube';
import { specProblem } from './spec-guard.js';
import { sidecarSet } from './upgrade/testing/fixtures.js';

const scs = (spec: Record<string, unknown> = {}, generation = 2): SidecarSet => {
  const s = sidecarSet(spec as never) as unknown as SidecarSet;
  s.metadata = { ...s.metadata, generation };
  return s;
};

describe('specProblem: the SidecarSet own admission rules, for what the API server stored without the webhooks', () => {
  it.each<[string, SidecarSet, RegExp | undefined]>([
    ['a valid SidecarSet, not defaulted', scs(), undefined],
    ['a v1alpha1 one', { ...scs(), apiVersion: 'apps.kruise.io/v1alpha1' }, undefined],
    [
      'an unparsable maxUnavailable',
      scs({ updateStrategy: { type: 'RollingUpdate', maxUnavailable: 'abc' } }),
      /spec\.updateStrategy\.maxUnavailable/,
    ],
    ['an unknown update type', scs({ updateStrategy: { type: 'Foo' } }), /spec\.updateStrategy\.type/],
    [
      'a negative partition',
      scs({ updateStrategy: { type: 'RollingUpdate', partition: -1 } }),
      /spec\.updateStrategy\.partition/,
    ],
    [
      'two sidecars of one name',
      scs({
        containers: [
          { name: 's', image: 'a' },
          { name: 's', image: 'b' },
        ],
      }),
      /spec\.containers\[1\]\.name: Duplicate value/,
    ],
    [
      'a port out of range',
      scs({ containers: [{ name: 's', image: 'a', ports: [{ containerPort: 70000 }] }] }),
      /spec\.containers\[0\]\.ports\[0\]\.containerPort/,
    ],
    [
      'an unknown inject policy',
      scs({ containers: [{ name: 's', image: 'a', podInjectPolicy: 'Sometimes' }] }),
      /podInjectPolicy/,
    ],
    [
      'an invalid selector',
      scs({ selector: { matchExpressions: [{ key: 'app', operator: 'Bogus', values: ['x'] }] } }),
      /spec\.selector/,
    ],
  ])('%s', (_name, obj, want) => {
    const got = specProblem(obj);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });

  it('leaves the cluster rules to the webhook: patchPodMetadata without the whitelist ConfigMap passes', () => {
    expect(specProblem(scs({ patchPodMetadata: [{ annotations: { 'a.b/c': 'x' } }] }))).toBeUndefined();
  });

  it('is computed once per generation', () => {
    const guard = new SpecGuard(specProblem);
    const bad = scs({ updateStrategy: { type: 'Foo' } });
    const first = guard.problem('test-sidecarset', bad);
    expect(first).toBeDefined();
    expect(guard.problem('test-sidecarset', scs())).toBe(first);
    expect(guard.problem('test-sidecarset', scs({}, 3))).toBeUndefined();
    guard.forget('test-sidecarset');
    expect(guard.problem('test-sidecarset', bad)).toBeDefined();
  });

  it('never throws, for any JSON in the spec, a sidecar or the strategy (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('spec', 'container', 'updateStrategy', 'volumes'),
        fc.jsonValue({ maxDepth: 4 }),
        (place, value) => {
          const s = scs() as unknown as { spec: Record<string, unknown> };
          if (place === 'spec') s.spec = value as never;
          else if (place === 'container') s.spec['containers'] = [value];
          else s.spec[place] = value;
          expect(typeof (specProblem(s as unknown as SidecarSet) ?? '')).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});
