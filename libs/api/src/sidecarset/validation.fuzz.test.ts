// Property-based: the SidecarSet validators, defaults, admission and hashes accept any JSON value without throwing,
// and a SidecarSet that is valid except for one mutated field gets its type errors at that field only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldError, formatFieldError } from '@regatta/kube';
import { defaultSidecarSetForAdmission, validateSidecarSetAdmission } from './admission.js';
import { defaultSidecarSet } from './defaults.js';
import { sidecarSetShapeErrors } from './shape.js';
import { ALLOW_ALL, validSidecarSet } from './test-objects.js';
import { validateSidecarSetUpdate } from './update-validation.js';
import { validateSidecarSet } from './validation.js';

const RUNS = 1500;
/** The machine may be busy: a property of 1500 runs takes a few seconds alone. */
const TIMEOUT_MS = 60_000;

const VALID = validSidecarSet();
const OTHERS = [validSidecarSet('other', { patchPodMetadata: [] })];
const CTX = { ...ALLOW_ALL, others: OTHERS };

type Path = (string | number)[];

function pathsOf(v: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...pathsOf(x, [...at, i])));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...pathsOf(x, [...at, k]));
  return out;
}
const PATHS = pathsOf(VALID).filter((p) => p.length > 0);

function setAt(root: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

const normalized = (field: string): string => field.replace(/\[/g, '.').replace(/\]/g, '');

const replacement = fc.oneof(
  fc.constantFrom<unknown>(null, 0, -1, 1.5, '', 'abc', '50%', 'Always', 'HotUpgrade', true, [], {}, [null], [{}], { a: 1 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function wellFormed(errors: FieldError[]): void {
  for (const e of errors) {
    expect(typeof e.field).toBe('string');
    expect(typeof formatFieldError(e)).toBe('string');
  }
}

describe('SidecarSet validation, defaulting and admission are total (fast-check)', () => {
  it('the base object is valid, before and after defaulting, in both versions', () => {
    expect(validateSidecarSet(VALID, CTX).map(formatFieldError)).toEqual([]);
    expect(validateSidecarSet(defaultSidecarSet(VALID), CTX).map(formatFieldError)).toEqual([]);
    expect(validateSidecarSet({ ...VALID, apiVersion: 'apps.kruise.io/v1alpha1' }, { ...CTX, version: 'v1alpha1' }).map(formatFieldError)).toEqual([]);
  });

  it('any JSON value: no exception from validation (CREATE and UPDATE), defaulting or admission', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.constantFrom('v1alpha1', 'v1beta1' as const), (a, b, version) => {
        wellFormed(validateSidecarSet(a, { ...CTX, version }));
        wellFormed(validateSidecarSetUpdate(a, b, { ...CTX, version }));
        const { object, warnings } = defaultSidecarSetForAdmission(a, version);
        expect(Array.isArray(warnings)).toBe(true);
        wellFormed(validateSidecarSetAdmission({ operation: 'UPDATE', object, oldObject: b, version }, CTX));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('any JSON as spec, a container, the strategies or the volumes: no exception', () => {
    const at: Path[] = [['spec'], ['spec', 'containers', 0], ['spec', 'updateStrategy'], ['spec', 'injectionStrategy'], ['spec', 'volumes'], ['spec', 'patchPodMetadata'], ['spec', 'containers', 0, 'resourcesPolicy']];
    fc.assert(
      fc.property(fc.constantFrom(...at), fc.jsonValue({ maxDepth: 4 }), (path, value) => {
        const s = setAt(VALID, path, value);
        wellFormed(validateSidecarSet(s, CTX));
        const { object } = defaultSidecarSetForAdmission(s, 'v1beta1');
        wellFormed(validateSidecarSet(object, CTX));
        wellFormed(validateSidecarSetUpdate(s, VALID, CTX));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('one field of a valid SidecarSet replaced: no exception, and type errors only at or below that field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), replacement, (path, value) => {
        const s = setAt(VALID, path, value);
        const errors = validateSidecarSet(s, CTX);
        wellFormed(errors);
        const where = normalized(path.join('.'));
        for (const e of sidecarSetShapeErrors(s)) expect(normalized(e.field).startsWith(where)).toBe(true);
        if (sidecarSetShapeErrors(s).length > 0) expect(errors.every((e) => e.type === 'FieldValueTypeInvalid')).toBe(true);
        wellFormed(validateSidecarSetUpdate(VALID, s, CTX));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('admission defaulting is idempotent and never makes a valid object invalid', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), replacement, (path, value) => {
        const s = setAt(VALID, path, value);
        const once = defaultSidecarSetForAdmission(s, 'v1beta1').object;
        expect(defaultSidecarSetForAdmission(once, 'v1beta1').object).toEqual(once);
        if (validateSidecarSet(s, CTX).length === 0) expect(validateSidecarSet(once, CTX).map(formatFieldError)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);
});
