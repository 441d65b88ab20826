// Property-based: the DaemonSet validators, defaults and conversions accept any JSON value without throwing, and a
// DaemonSet that is valid except for one mutated field gets its type errors at that field only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldError, formatFieldError } from '@regatta/kube';
import { defaultDaemonSet } from './defaults.js';
import { daemonSetShapeErrors } from './shape.js';
import { validateDaemonSetUpdate } from './update-validation.js';
import { validateDaemonSet } from './validation.js';

const RUNS = 2000;
/** The machine may be busy: a property of 2000 runs takes a few seconds alone. */
const TIMEOUT_MS = 60_000;

/** A valid DaemonSet using every field the validators and defaults read. */
const VALID = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'ns', uid: 'u1', generation: 2, labels: { app: 'agent' }, annotations: { a: 'b' } },
  spec: {
    selector: { matchLabels: { app: 'agent' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['node'] }] },
    template: {
      metadata: { labels: { app: 'agent', tier: 'node' } },
      spec: {
        containers: [{ name: 'main', image: 'nginx:alpine', ports: [{ name: 'http', containerPort: 80 }] }],
        tolerations: [{ operator: 'Exists' }],
        nodeSelector: { disk: 'ssd' },
      },
    },
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        rollingUpdateType: 'InPlaceIfPossible',
        maxUnavailable: '20%',
        maxSurge: 0,
        partition: 1,
        paused: false,
        selector: { matchLabels: { canary: 'true' } },
      },
    },
    minReadySeconds: 5,
    burstReplicas: 10,
    revisionHistoryLimit: 5,
    lifecycle: { preDelete: { labelsHandler: { hold: 'true' }, finalizersHandler: ['x/y'], markPodNotReady: true } },
    scaleStrategy: { partitionedScaling: true },
  },
};

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
  fc.constantFrom<unknown>(null, 0, -1, 1.5, 2 ** 40, '', 'abc', '50%', '0%', '101%', 'Surging', true, false, [], {}, [null], [{}], { a: 1 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function wellFormed(errors: FieldError[]): void {
  for (const e of errors) {
    expect(typeof e.field).toBe('string');
    expect(typeof formatFieldError(e)).toBe('string');
  }
}

describe('DaemonSet validation and defaulting are total (fast-check)', () => {
  it('the base object is valid, before and after defaulting, in both versions', () => {
    expect(validateDaemonSet(VALID).map(formatFieldError)).toEqual([]);
    expect(validateDaemonSet(defaultDaemonSet(VALID)).map(formatFieldError)).toEqual([]);
    expect(validateDaemonSet(VALID, { version: 'v1alpha1' }).map(formatFieldError)).toEqual([]);
  });

  it('any JSON value: no exception from validation (CREATE and UPDATE) or defaulting', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.constantFrom('v1alpha1', 'v1beta1' as const), (a, b, version) => {
        wellFormed(validateDaemonSet(a, { version }));
        wellFormed(validateDaemonSetUpdate(a, b, { version }));
        wellFormed(validateDaemonSet(defaultDaemonSet(a, version), { version }));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('any JSON as spec, strategy, rollingUpdate, template or pod spec: no exception', () => {
    const at: Path[] = [['spec'], ['spec', 'updateStrategy'], ['spec', 'updateStrategy', 'rollingUpdate'], ['spec', 'template'], ['spec', 'template', 'spec']];
    fc.assert(
      fc.property(fc.constantFrom(...at), fc.jsonValue({ maxDepth: 4 }), (path, value) => {
        const ds = setAt(VALID, path, value);
        wellFormed(validateDaemonSet(ds));
        wellFormed(validateDaemonSet(defaultDaemonSet(ds)));
        wellFormed(validateDaemonSetUpdate(ds, VALID));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('one field of a valid DaemonSet replaced: no exception, and type errors only at or below that field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), replacement, fc.constantFrom('v1alpha1', 'v1beta1' as const), (path, value, version) => {
        const ds = setAt(VALID, path, value);
        const errors = validateDaemonSet(ds, { version });
        wellFormed(errors);
        const where = normalized(path.join('.'));
        for (const e of daemonSetShapeErrors(ds)) expect(normalized(e.field).startsWith(where)).toBe(true);
        if (daemonSetShapeErrors(ds).length > 0) expect(errors.every((e) => e.type === 'FieldValueTypeInvalid')).toBe(true);
        const defaulted = defaultDaemonSet(ds, version);
        wellFormed(validateDaemonSet(defaulted, { version }));
        wellFormed(validateDaemonSetUpdate(defaulted, VALID, { version }));
        wellFormed(validateDaemonSetUpdate(VALID, ds, { version }));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);

  it('defaulting is idempotent and never makes a valid object invalid', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), replacement, (path, value) => {
        const ds = setAt(VALID, path, value);
        const once = defaultDaemonSet(ds);
        expect(defaultDaemonSet(once)).toEqual(once);
        if (validateDaemonSet(ds).length === 0) expect(validateDaemonSet(once).map(formatFieldError)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT_MS);
});
