// Property-based: admission defaulting and validation accept any JSON without throwing (type errors first, at the
// mutated field), and every UnitedDeployment the webhook admits can be allocated: the allocators never fail on it,
// and the fixed and capacity modes place exactly spec.replicas.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldError, formatFieldError } from '@regatta/kube';
import type { Subset, UnitedDeploymentSpec } from '@regatta/api';
import { allocateReplicas, allocatorKind } from '../allocation/allocate.js';
import { defaultUnitedDeploymentForAdmission } from './defaults.js';
import { validateUnitedDeployment, validateUnitedDeploymentUpdate } from './validation.js';
import { ud } from './test-objects.js';

const RUNS = 1500;
const TIMEOUT_MS = 60_000;

type Path = (string | number)[];
function pathsOf(v: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...pathsOf(x, [...at, i])));
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) out.push(...pathsOf(x, [...at, k]));
  return out;
}
function setAt(root: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

const VALID = (() => {
  const u = ud('deploymentTemplate');
  u.spec.topology = {
    subsets: [
      {
        name: 'a',
        nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
        replicas: '25%',
      },
      {
        name: 'b',
        tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }],
        nodeSelector: { zone: 'b' },
      },
    ],
    scheduleStrategy: {
      type: 'Fixed',
      adaptive: { rescheduleCriticalSeconds: 10, unschedulableDuration: 20 },
    },
  };
  u.spec.updateStrategy = { type: 'Manual', manualUpdate: { partitions: { a: 1 } } };
  return u;
})();
const PATHS = pathsOf(VALID).filter((p) => p.length > 0);
const replacement = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    0,
    -1,
    1.5,
    2 ** 40,
    '',
    'abc',
    '50%',
    '101%',
    'Adaptive',
    true,
    [],
    {},
    [null],
    [{}],
    { a: 1 },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);
const wellFormed = (errors: FieldError[]) =>
  errors.forEach((e) => expect(typeof formatFieldError(e)).toBe('string'));
const admit = (obj: unknown) =>
  defaultUnitedDeploymentForAdmission({ operation: 'CREATE', object: obj }).object;

describe('UnitedDeployment admission is total (fast-check)', () => {
  it('the base object is admitted', () => {
    expect(validateUnitedDeployment(admit(VALID)).map(formatFieldError)).toEqual([]);
  });

  it(
    'any JSON value: no exception from defaulting or validation (CREATE and UPDATE)',
    () => {
      fc.assert(
        fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
          wellFormed(validateUnitedDeployment(a));
          wellFormed(validateUnitedDeployment(admit(a)));
          wellFormed(validateUnitedDeploymentUpdate(a, b));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'one field replaced: no exception, and type errors only at or below that field',
    () => {
      fc.assert(
        fc.property(fc.constantFrom(...PATHS), replacement, (path, value) => {
          const obj = setAt(VALID, path, value);
          const errors = validateUnitedDeployment(obj);
          wellFormed(errors);
          const where = path.join('.').replace(/\[/g, '.').replace(/\]/g, '');
          for (const e of errors.filter((x) => x.type === 'FieldValueTypeInvalid')) {
            expect(e.field.replace(/\[/g, '.').replace(/\]/g, '').startsWith(where)).toBe(true);
          }
          wellFormed(validateUnitedDeployment(admit(obj)));
          wellFormed(validateUnitedDeploymentUpdate(admit(obj), admit(VALID)));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );
});

const bound = fc.oneof(
  fc.integer({ min: -1, max: 12 }),
  fc.constantFrom('0%', '10%', '25%', '50%', '100%', '150%', 'x'),
);
const subsetArb = fc.record(
  {
    replicas: fc.option(bound, { nil: undefined }),
    minReplicas: fc.option(bound, { nil: undefined }),
    maxReplicas: fc.option(bound, { nil: undefined }),
  },
  { requiredKeys: [] },
);

describe('what the webhook admits can be allocated (fast-check)', () => {
  it(
    'no allocation error; fixed and capacity modes place exactly spec.replicas',
    () => {
      fc.assert(
        fc.property(
          fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
          fc.array(subsetArb, { minLength: 1, maxLength: 5 }),
          fc.boolean(),
          (replicas, raw, adaptive) => {
            const u = structuredClone(ud());
            const subsets: Subset[] = raw.map((s, i) => {
              const out: Subset = { name: `s${i}` };
              if (s.replicas !== undefined) out.replicas = s.replicas;
              if (s.minReplicas !== undefined) out.minReplicas = s.minReplicas;
              if (s.maxReplicas !== undefined) out.maxReplicas = s.maxReplicas;
              return out;
            });
            if (replicas === undefined) delete u.spec.replicas;
            else u.spec.replicas = replicas;
            u.spec.topology = {
              subsets,
              ...(adaptive && { scheduleStrategy: { type: 'Adaptive' as const } }),
            };
            const admitted = admit(u) as typeof u;
            if (validateUnitedDeployment(admitted).length > 0) return;
            const spec: UnitedDeploymentSpec = admitted.spec;
            const out = allocateReplicas(spec);
            const total = Object.values(out).reduce((a, b) => a + b, 0);
            expect(Object.keys(out).sort()).toEqual(subsets.map((s) => s.name).sort());
            if (allocatorKind(spec) !== 'adaptive') expect(total).toBe(spec.replicas);
            else expect(total).toBeLessThanOrEqual(spec.replicas ?? 0);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );
});
