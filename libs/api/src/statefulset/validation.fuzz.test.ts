// Property-based: the Advanced StatefulSet validators, defaults and ordinal helpers accept any JSON value without
// throwing and always answer with field paths; a StatefulSet that is valid except for one mutated field gets its
// type errors at that field only (docs/adr/0010).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldError, fieldPath, formatFieldError } from '@regatta/kube';
import { statefulSetAdmissionDefaults, statefulSetAdmissionErrors } from './admission.js';
import { defaultStatefulSet, defaultStatefulSetForAdmission } from './defaults.js';
import { replicaOrdinals, reservedOrdinals } from './reserve-ordinals.js';
import { statefulSetShapeErrors } from './shape.js';
import type { StatefulSet } from './types.js';
import { statefulSetInPlaceOnlyViolation, validateStatefulSetUpdate, volumeClaimTemplateUpdateErrors } from './update-validation.js';
import { maxUnavailableErrors, reserveOrdinalsErrors, validateStatefulSet } from './validation.js';

const RUNS = 2000;
/** The machine may be busy: a property of 2000 runs takes a few seconds alone. */
const TIMEOUT_MS = 60_000;

/** A valid StatefulSet using every field the validators and defaults read. */
const VALID = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'ns', uid: 'u1', generation: 2, labels: { app: 'web' }, annotations: { a: 'b' } },
  spec: {
    replicas: 3,
    serviceName: 'web',
    podManagementPolicy: 'Parallel',
    selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] },
    template: {
      metadata: { labels: { app: 'web', tier: 'front' }, annotations: { note: 'x' } },
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        volumes: [{ name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'k', path: 'p' }] } }],
        containers: [
          {
            name: 'main',
            image: 'nginx:alpine',
            ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
            env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
            readinessProbe: { httpGet: { port: 80 } },
          },
        ],
      },
    },
    volumeClaimTemplates: [
      { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'sc', resources: { requests: { storage: '1Gi' } } } },
    ],
    volumeClaimUpdateStrategy: { type: 'OnPodRollingUpdate' },
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: 1,
        maxUnavailable: '50%',
        podUpdatePolicy: 'InPlaceIfPossible',
        paused: false,
        unorderedUpdate: { priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { tier: 'front' } } }] } },
        inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
        minReadySeconds: 5,
      },
    },
    revisionHistoryLimit: 5,
    reserveOrdinals: [1, '3-5'],
    lifecycle: { preDelete: { labelsHandler: { hold: 'true' }, finalizersHandler: ['x/y'] }, preNormal: { markPodNotReady: true } },
    scaleStrategy: { maxUnavailable: 2 },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
    ordinals: { start: 2 },
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

const normalized = (field: string): string => field.replace(/\[/g, '.').replace(/\]/g, '');

const replacement = fc.oneof(
  fc.constantFrom<unknown>(null, 0, -1, 1.5, 2 ** 40, '', 'abc', '50%', '3-5', '5-3', true, false, [], {}, [null], [{}], [1, 'a'], { a: 1 }, { '': null }),
  fc.jsonValue({ maxDepth: 3 }),
);

const ctx = { autoResizePVC: true, getStorageClass: (name: string | undefined) => (name ? { name, allowVolumeExpansion: name !== 'no' } : null) };

function wellFormed(errors: FieldError[]): void {
  for (const e of errors) {
    expect(typeof e.field).toBe('string');
    expect(e.field.length).toBeGreaterThan(0);
    expect(typeof formatFieldError(e)).toBe('string');
  }
}

describe('validation and defaulting are total (fast-check)', () => {
  it('the base object is valid', () => {
    const sts = VALID as unknown as StatefulSet;
    expect(validateStatefulSet(sts).map(formatFieldError)).toEqual([]);
    expect(validateStatefulSet(defaultStatefulSet(sts)).map(formatFieldError)).toEqual([]);
    expect(validateStatefulSetUpdate(sts, sts, ctx).map(formatFieldError)).toEqual([]);
  });

  it('any JSON value: no exception from validation (CREATE, UPDATE, admission) or defaulting', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.constantFrom('CREATE', 'UPDATE', 'DELETE'), (a, b, operation) => {
        wellFormed(validateStatefulSet(a));
        wellFormed(validateStatefulSetUpdate(a, b, ctx));
        wellFormed(statefulSetAdmissionErrors({ operation, object: a, oldObject: b }, ctx));
        const defaulted = defaultStatefulSetForAdmission(a as unknown as StatefulSet, b as unknown as StatefulSet, { autoResizePVC: true });
        wellFormed(validateStatefulSet(defaulted));
        statefulSetAdmissionDefaults({ operation, object: a as unknown as StatefulSet, oldObject: b as unknown as StatefulSet });
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('the exported building blocks accept any JSON value too', () => {
    const p = fieldPath('spec', 'x');
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (v, w, parallel) => {
        statefulSetInPlaceOnlyViolation(v, w);
        const reserved = reservedOrdinals(v);
        replicaOrdinals(20, 0, reserved);
        if (typeof v === 'number' || typeof v === 'string') wellFormed(maxUnavailableErrors(v, parallel, p));
        if (Array.isArray(v) && v.every((x) => typeof x === 'string' || Number.isInteger(x))) {
          wellFormed(reserveOrdinalsErrors(v as (string | number)[], p));
        }
        expect(statefulSetShapeErrors(v).every((e) => typeof e.field === 'string')).toBe(true);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('any JSON as spec, template, pod spec, update strategy or claim template: no exception', () => {
    const at: Path[] = [
      ['spec'],
      ['spec', 'template'],
      ['spec', 'template', 'spec'],
      ['spec', 'updateStrategy'],
      ['spec', 'updateStrategy', 'rollingUpdate'],
      ['spec', 'volumeClaimTemplates', 0],
      ['spec', 'reserveOrdinals'],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...at), fc.jsonValue({ maxDepth: 4 }), (path, value) => {
        const sts = setAt(VALID, path, value);
        wellFormed(validateStatefulSet(sts));
        wellFormed(validateStatefulSet(defaultStatefulSet(sts as StatefulSet)));
        wellFormed(validateStatefulSetUpdate(sts, VALID, ctx));
        wellFormed(validateStatefulSetUpdate(VALID, sts, ctx));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('one field of a valid StatefulSet replaced: no exception, and type errors only at or below that field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), replacement, (path, value) => {
        const sts = setAt(VALID, path, value);
        const errors = validateStatefulSet(sts);
        wellFormed(errors);
        const where = normalized(path.join('.'));
        const typeErrors = statefulSetShapeErrors(sts);
        for (const e of typeErrors) expect(normalized(e.field).startsWith(where)).toBe(true);
        if (typeErrors.length > 0) expect(errors.every((e) => e.type === 'FieldValueTypeInvalid')).toBe(true);
        const defaulted = defaultStatefulSetForAdmission(sts as StatefulSet, VALID as unknown as StatefulSet);
        wellFormed(validateStatefulSet(defaulted));
        wellFormed(validateStatefulSetUpdate(defaulted, VALID, ctx));
        wellFormed(validateStatefulSetUpdate(VALID, sts, ctx));
        wellFormed(volumeClaimTemplateUpdateErrors((VALID as unknown as StatefulSet).spec, undefined, ctx));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);
});
