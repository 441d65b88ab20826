import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CloneSet } from '@regatta/api';
import { SpecGuard } from '@regatta/kube';
import { specProblem } from './spec-guard.js';

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

const withPodSpec = (podSpec: Record<string, unknown>): CloneSet =>
  cs({ template: { metadata: { labels: { app: 'cs' } }, spec: podSpec } });
const withContainer = (fields: Record<string, unknown>): CloneSet =>
  withPodSpec({ containers: [{ name: 'nginx', image: 'nginx:alpine', ...fields }] });
const named = (name: string): CloneSet => {
  const obj = cs({});
  obj.metadata = { ...obj.metadata, name };
  return obj;
};

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
    // issue 8, defects 5, 7, 8: wrongly typed templates, long names, reserved template labels
    [
      'containers an object',
      withPodSpec({ containers: {} }),
      /^spec\.template\.spec\.containers: Invalid value: \{\}: must be an array$/,
    ],
    [
      'a null container',
      withPodSpec({ containers: [null] }),
      /^spec\.template\.spec\.containers\[0\]: .*must be an object$/,
    ],
    [
      'a null port',
      withContainer({ ports: [null] }),
      /^spec\.template\.spec\.containers\[0\]\.ports\[0\]: .*must be an object$/,
    ],
    [
      'volumes a string',
      withPodSpec({ volumes: 'abc', containers: [{ name: 'c', image: 'x' }] }),
      /^spec\.template\.spec\.volumes: .*must be an array$/,
    ],
    [
      'a null env var',
      withContainer({ env: [null] }),
      /^spec\.template\.spec\.containers\[0\]\.env\[0\]: .*must be an object$/,
    ],
    [
      'a null claim template',
      cs({ volumeClaimTemplates: [null] }),
      /^spec\.volumeClaimTemplates\[0\]: .*must be an object$/,
    ],
    [
      'a port name given as a number',
      withContainer({ ports: [{ name: 80, containerPort: 80 }] }),
      /ports\[0\]\.name: Invalid value: 80: must be a string$/,
    ],
    [
      'a name of 53 characters',
      named('a'.repeat(53)),
      /^metadata\.name: .*must be no more than 52 characters$/,
    ],
    [
      'a template label apps.kruise.io/specified-delete',
      cs({}, { app: 'cs', 'apps.kruise.io/specified-delete': 'true' }),
      /^spec\.template\.metadata\.labels\[apps\.kruise\.io\/specified-delete\]: Forbidden/,
    ],
  ])('%s', (_name, obj, want) => {
    const got = specProblem(obj);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });

  it('is computed once per generation', () => {
    const guard = new SpecGuard(specProblem);
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

describe('specProblem never throws (fast-check)', () => {
  it('for any JSON in the spec, template, pod spec or first container', () => {
    const places = ['spec', 'template', 'podSpec', 'container'] as const;
    fc.assert(
      fc.property(fc.constantFrom(...places), fc.jsonValue({ maxDepth: 4 }), (place, value) => {
        const obj = cs({}) as unknown as { spec: Record<string, unknown> };
        const template = obj.spec['template'] as { spec: { containers: unknown[] } };
        if (place === 'spec') obj.spec = value as Record<string, unknown>;
        else if (place === 'template') obj.spec['template'] = value;
        else if (place === 'podSpec') (template as { spec: unknown }).spec = value;
        else template.spec.containers[0] = value;
        const problem = specProblem(obj as unknown as CloneSet);
        expect(problem === undefined || typeof problem === 'string').toBe(true);
        expect(problem ?? '').not.toMatch(/could not be validated/);
      }),
      { numRuns: 2000 },
    );
  }, 60_000);
});
