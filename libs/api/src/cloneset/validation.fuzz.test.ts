// Property-based: the validators and the defaults accept any JSON value without throwing, and a CloneSet that is
// valid except for one mutated field gets its type errors at that field only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldError, fieldPath, formatFieldError } from '@regatta/kube';
import { validateAnnotations, validateLabels, validateObjectMeta } from '../core/meta-validation.js';
import { applyKruisePodSpecDefaults } from '../core/pod-defaults.js';
import { validatePodSpecSubset, validatePodTemplateSpecSubset } from '../core/pod-template-validation.js';
import { defaultCloneSet, defaultCloneSetForAdmission } from './defaults.js';
import { cloneSetShapeErrors } from './shape.js';
import type { CloneSet } from './types.js';
import { inPlaceOnlyViolation, validateCloneSetUpdate } from './update-validation.js';
import { podsToDeleteToCheck, priorityStrategyProblem, scatterStrategyProblem, validateCloneSet } from './validation.js';

const RUNS = 2000;
/** The machine may be busy: a property of 2000 runs takes a few seconds alone. */
const TIMEOUT_MS = 60_000;

/** A valid CloneSet using every field the validators and defaults read. */
const VALID = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'ns', uid: 'u1', generation: 2, labels: { app: 'web' }, annotations: { a: 'b' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] },
    template: {
      metadata: { labels: { app: 'web', tier: 'front' }, annotations: { note: 'x' }, finalizers: ['example.com/f'] },
      spec: {
        volumes: [
          { name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'k', path: 'p' }] } },
          { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
          { name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } },
        ],
        initContainers: [{ name: 'init', image: 'busybox:1.36' }],
        containers: [
          {
            name: 'main',
            image: 'nginx:alpine',
            ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
            env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
            readinessProbe: { httpGet: { port: 80 } },
            lifecycle: { preStop: { httpGet: { port: 80 } } },
          },
        ],
        nodeSelector: { disk: 'ssd' },
      },
    },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
    scaleStrategy: { podsToDelete: ['web-abcde'], maxUnavailable: 1 },
    updateStrategy: {
      type: 'InPlaceIfPossible',
      partition: '20%',
      maxUnavailable: 1,
      maxSurge: 0,
      priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { tier: 'front' } } }] },
      scatterStrategy: [{ key: 'zone', value: 'a' }],
      inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
    },
    minReadySeconds: 5,
    progressDeadlineSeconds: 600,
    lifecycle: { preDelete: { labelsHandler: { hold: 'true' }, finalizersHandler: ['x/y'] } },
  },
};

type Path = (string | number)[];

/** Every path of a JSON value (objects and arrays included). */
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

/** `a.b[0][k]` and `['a','b',0,'k']` compared the same way. */
const normalized = (field: string): string => field.replace(/\[/g, '.').replace(/\]/g, '');

/** Replacement values: null, wrong scalars, arrays for objects and objects for arrays, and any JSON. */
const replacement = fc.oneof(
  fc.constantFrom<unknown>(null, 0, -1, 1.5, 2 ** 40, '', 'abc', '50%', true, false, [], {}, [null], [{}], [1, 'a'], { a: 1 }, { '': null }),
  fc.jsonValue({ maxDepth: 3 }),
);

function wellFormed(errors: FieldError[]): void {
  for (const e of errors) {
    expect(typeof e.field).toBe('string');
    expect(typeof formatFieldError(e)).toBe('string');
  }
}

describe('validation and defaulting are total (fast-check)', () => {
  it('the base object is valid', () => {
    const cs = VALID as unknown as CloneSet;
    expect(validateCloneSet(cs).map(formatFieldError)).toEqual([]);
    expect(validateCloneSet(defaultCloneSet(cs)).map(formatFieldError)).toEqual([]);
  });

  it('any JSON value: no exception from validation (CREATE and UPDATE) or defaulting', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        wellFormed(validateCloneSet(a));
        wellFormed(validateCloneSetUpdate(a, b));
        const defaulted = defaultCloneSetForAdmission(a as unknown as CloneSet, b as unknown as CloneSet);
        wellFormed(validateCloneSet(defaulted));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('the exported building blocks accept any JSON value too', () => {
    const p = fieldPath('spec', 'template');
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 2 }), (v, w) => {
        wellFormed(validatePodTemplateSpecSubset(v, p));
        wellFormed(validatePodSpecSubset(v, p));
        wellFormed(validateObjectMeta(v, true, p));
        wellFormed(validateLabels(v, p));
        wellFormed(validateAnnotations(v, p));
        priorityStrategyProblem(v);
        scatterStrategyProblem(v);
        podsToDeleteToCheck(v, w);
        inPlaceOnlyViolation(v, w);
        applyKruisePodSpecDefaults(structuredClone(v));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('any JSON as spec, template, pod spec or container: no exception', () => {
    const at: Path[] = [['spec'], ['spec', 'template'], ['spec', 'template', 'spec'], ['spec', 'template', 'spec', 'containers', 0]];
    fc.assert(
      fc.property(fc.constantFrom(...at), fc.jsonValue({ maxDepth: 4 }), (path, value) => {
        const cs = setAt(VALID, path, value);
        wellFormed(validateCloneSet(cs));
        wellFormed(validateCloneSet(defaultCloneSet(cs as CloneSet)));
        wellFormed(validateCloneSetUpdate(cs, VALID));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('one field of a valid CloneSet replaced: no exception, and type errors only at or below that field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), replacement, (path, value) => {
        const cs = setAt(VALID, path, value);
        const errors = validateCloneSet(cs);
        wellFormed(errors);
        const where = normalized(path.join('.'));
        for (const e of cloneSetShapeErrors(cs)) expect(normalized(e.field).startsWith(where)).toBe(true);
        // type errors are all that is reported while there are any
        if (cloneSetShapeErrors(cs).length > 0) expect(errors.every((e) => e.type === 'FieldValueTypeInvalid')).toBe(true);
        const defaulted = defaultCloneSetForAdmission(cs as CloneSet, VALID as unknown as CloneSet);
        wellFormed(validateCloneSet(defaulted));
        wellFormed(validateCloneSetUpdate(defaulted, VALID));
        wellFormed(validateCloneSetUpdate(VALID, cs));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);
});
