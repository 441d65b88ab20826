// R2's generators and verdicts. Pure. A fuzzed object is a valid CloneSet (as a user would write it, before the
// mutating webhook) with zero or more mutations of one shape: invalid values the validating webhook must refuse, and
// hostile shapes (huge annotations, deep nesting, unicode, absurd numbers, wrong types an int-or-string or a
// preserved field lets through the schema). A seed makes a run reproducible: fuzz-sequence.ts makes the objects one at a
// time from it.
import fc from 'fast-check';
import { RegattaError } from '@regatta/errors';
import type { KubeObject } from '@regatta/kube';

export const SHAPES = [
  'valid',
  'invalid',
  'huge-annotations',
  'deep-nesting',
  'unicode',
  'absurd-numbers',
  'wrong-types',
] as const;
export type Shape = (typeof SHAPES)[number];

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Obj = { [k: string]: Json };

/** A fuzzed object the API client cannot address (no apiVersion, kind or metadata object): a fuzz kind's bug. */
export class UnaddressableObjectError extends RegattaError {
  constructor(o: Obj) {
    super(
      'REGATTA_CHAOS_UNADDRESSABLE',
      `a fuzzed object without apiVersion, kind or metadata: ${JSON.stringify(o).slice(0, 200)}`,
    );
  }
}

/**
 * The fuzzed object as the API client sends it: every fuzz kind's valid base has its apiVersion, kind and metadata,
 * and the mutations change spec, status and metadata's annotations and labels only, so this never throws for them.
 * The API server judges the rest of the object (that is the check).
 */
export function addressable(o: Obj): Obj & KubeObject {
  if (isAddressable(o)) return o;
  throw new UnaddressableObjectError(o);
}

function isAddressable(o: Obj): o is Obj & KubeObject {
  const m = o['metadata'];
  return (
    typeof o['apiVersion'] === 'string' &&
    typeof o['kind'] === 'string' &&
    typeof m === 'object' &&
    m !== null &&
    !Array.isArray(m)
  );
}

export interface Fuzzed {
  shape: Shape;
  /** What was done to the valid base, in order (printed with a failing object). */
  mutations: string[];
  object: Obj;
}

/** `{a: {a: … {leaf}}}`, `depth` levels. */
export function nested(depth: number, leaf: Json = 'x'): Json {
  let v: Json = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** The number of nesting levels of a JSON value (a scalar is 0). */
export function depthOf(v: Json): number {
  if (v === null || typeof v !== 'object') return 0;
  const kids = Array.isArray(v) ? v : Object.values(v);
  return 1 + Math.max(0, ...kids.map(depthOf));
}

/** Sets `path` (dotted; numbers index arrays) in `o`, creating objects on the way. Returns `o`. */
export function setPath(o: Obj, path: string, value: Json): Obj {
  const keys = path.split('.');
  let cur: Json = o;
  for (const k of keys.slice(0, -1)) {
    const c = cur as Record<string, Json>;
    if (c[k] === null || typeof c[k] !== 'object')
      c[k] = /^\d+$/.test(keys[keys.indexOf(k) + 1] ?? '') ? [] : {};
    cur = c[k];
  }
  (cur as Record<string, Json>)[keys[keys.length - 1]!] = value;
  return o;
}

export const dns = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/);

/** A valid CloneSet of 0–3 pods (no name: the runner names each object). */
export function validCloneSet(ns: string): fc.Arbitrary<Obj> {
  return fc
    .record({
      app: dns,
      replicas: fc.integer({ min: 0, max: 3 }),
      image: fc.constantFrom(
        'nginx:1.27.3',
        'nginx:1.27.4',
        'busybox:1.37',
        'registry.local:5000/a/b@sha256:' + 'a'.repeat(64),
      ),
      type: fc.constantFrom('ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'),
      maxUnavailable: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom('20%', '50%', '100%')),
      maxSurge: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('0%', '10%')),
      partition: fc.option(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('0%', '50%')), {
        nil: undefined,
      }),
      minReadySeconds: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
      annotation: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
    })
    .map((r) => {
      const o: Obj = {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: {
          namespace: ns,
          labels: { fuzz: 'r2' },
          ...(r.annotation !== undefined ? { annotations: { 'chaos.regatta.dev/a': r.annotation } } : {}),
        },
        spec: {
          replicas: r.replicas,
          selector: { matchLabels: { app: r.app } },
          template: {
            metadata: { labels: { app: r.app } },
            spec: { containers: [{ name: 'main', image: r.image }] },
          },
          updateStrategy: {
            type: r.type,
            maxUnavailable: r.maxUnavailable,
            maxSurge: r.type === 'InPlaceOnly' ? 0 : r.maxSurge,
            ...(r.partition !== undefined ? { partition: r.partition } : {}),
          },
          ...(r.minReadySeconds !== undefined ? { minReadySeconds: r.minReadySeconds } : {}),
        },
      };
      return o;
    });
}

/** Where a kind keeps a field the mutations name by its CloneSet path (`spec.updateStrategy.partition`…). */
export type PathRewrite = (cloneSetPath: string, o?: Obj) => string;
type Apply = (o: Obj, rw: PathRewrite) => void;
export type Mutation = fc.Arbitrary<[(rw: PathRewrite) => string, Apply]>;
export const m = (name: string, f: Apply): [(rw: PathRewrite) => string, Apply] => [() => name, f];
export const at = (path: string, value: Json): [(rw: PathRewrite) => string, Apply] => [
  (rw) => `${rw(path)} = ${short(value)}`,
  (o, rw) => setPath(o, rw(path, o), structuredClone(value)),
];
function short(v: Json): string {
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 40)}… (${s.length} chars)` : s;
}

export const INVALID: Mutation[] = [
  fc.constant(at('spec.selector.matchLabels', { app: 'other' })),
  fc.integer({ min: -1000, max: -1 }).map((n) => at('spec.replicas', n)),
  fc.constantFrom('Foo', '', 'recreate').map((t) => at('spec.updateStrategy.type', t)),
  fc.constantFrom('120%', '-10%', '%', 'abc', '1.5%').map((v) => at('spec.updateStrategy.maxUnavailable', v)),
  fc.constant(
    m('maxUnavailable 0 and maxSurge 0', (o, rw) => {
      setPath(o, rw('spec.updateStrategy.maxUnavailable', o), 0);
      setPath(o, rw('spec.updateStrategy.maxSurge', o), 0);
    }),
  ),
  fc.constantFrom(-1, -50).map((v) => at('spec.updateStrategy.partition', v)),
  fc.constant(at('spec.template.spec.containers', [])),
  fc.constant(
    at('spec.template.spec.containers', [
      { name: 'main', image: 'a' },
      { name: 'main', image: 'b' },
    ]),
  ),
  fc.constantFrom('Main', 'main_1', '-x').map((n) => at('spec.template.spec.containers.0.name', n)),
  fc.constant(at('spec.template.spec.containers.0.image', '')),
  fc.constant(at('spec.scaleStrategy.maxUnavailable', '200%')),
  fc.constant(at('spec.scaleStrategy.podsToDelete', ['', 'UPPER'])),
  fc.constant(at('spec.revisionHistoryLimit', -3)),
  fc.constant(at('spec.minReadySeconds', -1)),
  fc.constant(at('spec.template.metadata.labels', { other: 'x' })),
  fc.constant(at('spec.selector', { matchExpressions: [{ key: 'app', operator: 'Bogus', values: ['x'] }] })),
  fc.constant(at('spec.lifecycle', { preDelete: { finalizersHandler: ['not a finalizer!'] } })),
  fc.constant(
    at('spec.updateStrategy.priorityStrategy', { weightPriority: [{ weight: -5, matchSelector: {} }] }),
  ),
];

export const HUGE: Mutation[] = [
  fc
    .integer({ min: 100, max: 320 })
    .map((kib) => at('metadata.annotations.chaos\u0000huge', 'x'.repeat(kib * 1024))),
  fc
    .integer({ min: 100, max: 320 })
    .map((kib) => at('metadata.annotations', { 'chaos.regatta.dev/huge': 'y'.repeat(kib * 1024) })),
  fc
    .integer({ min: 500, max: 3000 })
    .map((n) =>
      m(`${n} annotations`, (o) =>
        setPath(
          o,
          'metadata.annotations',
          Object.fromEntries(
            Array.from({ length: n }, (_, i) => [`chaos.regatta.dev/a${i}`, 'v'.repeat(64)]),
          ),
        ),
      ),
    ),
  fc
    .integer({ min: 50, max: 200 })
    .map((kib) =>
      at('spec.template.metadata.annotations', { 'chaos.regatta.dev/huge': 'z'.repeat(kib * 1024) }),
    ),
  fc.integer({ min: 100, max: 2000 }).map((n) =>
    m(`${n} containers`, (o, rw) =>
      setPath(
        o,
        rw('spec.template.spec.containers', o),
        Array.from({ length: n }, (_, i) => ({ name: `c${i}`, image: 'nginx:1.27.3' })),
      ),
    ),
  ),
];

export const DEEP: Mutation[] = [
  fc.integer({ min: 20, max: 120 }).map((d) => at('spec.template.spec.containers.0.x-unknown', nested(d))),
  fc.integer({ min: 20, max: 120 }).map((d) => at('spec.template.metadata.x-unknown', nested(d))),
  fc.integer({ min: 20, max: 120 }).map((d) => at('spec.x-unknown', nested(d))),
  fc.integer({ min: 10, max: 60 }).map((d) =>
    at('spec.template.spec.affinity', {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: nested(d, []) },
    }),
  ),
];

export const UNICODE: Mutation[] = [
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
    .map((s) => at('metadata.annotations', { 'chaos.regatta.dev/u': s })),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => at('metadata.labels', { fuzz: s })),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
    .map((s) => at('spec.template.spec.containers.0.name', s)),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
    .map((s) => at('spec.template.spec.containers.0.image', s)),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
    .map((s) => at('spec.updateStrategy.maxUnavailable', `${s}%`)),
  fc
    .constantFrom('\u202e', '\u0000', '\ud83d\ude00', 'e\u0301', '\uffff')
    .map((s) => at('spec.template.spec.containers.0.env', [{ name: 'X', value: s.repeat(10) }])),
];

export const ABSURD: Mutation[] = [
  fc
    .constantFrom(2147483647, 2147483648, 9007199254740991, 1e308, 0.5, -0)
    .map((n) => at('spec.replicas', n)),
  fc.constantFrom(2147483647, 1e20, 0.25).map((n) => at('spec.updateStrategy.partition', n)),
  fc.constantFrom(2147483647, 1e15).map((n) => at('spec.updateStrategy.maxUnavailable', n)),
  fc.constantFrom(2147483647, 1e15).map((n) => at('spec.updateStrategy.maxSurge', n)),
  fc.constantFrom(2147483647, 1e12).map((n) => at('spec.minReadySeconds', n)),
  fc.constantFrom(2147483647, 1e12).map((n) => at('spec.revisionHistoryLimit', n)),
  fc.constantFrom(2147483647, 1e9).map((n) => at('spec.scaleStrategy.maxUnavailable', n)),
  fc
    .constantFrom('99999999999999999999%', '2147483648%', '1e400%')
    .map((v) => at('spec.updateStrategy.maxUnavailable', v)),
  fc
    .constantFrom(2147483647, 86400000)
    .map((n) => at('spec.updateStrategy.inPlaceUpdateStrategy', { gracePeriodSeconds: n })),
];

export const WRONG: Mutation[] = [
  fc
    .constantFrom(' 5', '5', '05', '+5', '0x5', '5 %', '')
    .map((v) => at('spec.updateStrategy.maxUnavailable', v)),
  fc.constantFrom('abc', '50', '-0%', '').map((v) => at('spec.updateStrategy.partition', v)),
  fc.constantFrom('abc', '1', '').map((v) => at('spec.updateStrategy.maxSurge', v)),
  fc.constantFrom('abc', '').map((v) => at('spec.scaleStrategy.maxUnavailable', v)),
  fc.constant(at('spec.template.spec.containers.0.resources', { limits: { cpu: 'lots', memory: '-1Gi' } })),
  fc.constant(at('spec.template.spec.containers.0.ports', [{ containerPort: 'http' }])),
  fc.constant(at('spec.template.spec.containers.0', 'not an object')),
  fc.constant(at('spec.template.spec', [])),
  fc.constant(at('spec.template.metadata.labels', { app: 5 })),
  fc.constant(
    at('spec.volumeClaimTemplates', [
      { metadata: { name: 'data' }, spec: { resources: { requests: { storage: 'huge' } } } },
    ]),
  ),
];

export type Mutations = Record<Exclude<Shape, 'valid'>, Mutation[]>;
const MUTATIONS: Mutations = {
  invalid: INVALID,
  'huge-annotations': HUGE,
  'deep-nesting': DEEP,
  unicode: UNICODE,
  'absurd-numbers': ABSURD,
  'wrong-types': WRONG,
};

/** A kind R2 fuzzes: its valid objects, and where it keeps the fields the mutations name by CloneSet paths. */
export interface FuzzKind {
  kind: string;
  valid: (ns: string) => fc.Arbitrary<Obj>;
  rewrite: PathRewrite;
  /** The kind's own mutations (tools/chaos/fuzz-kinds.ts); the CloneSet ones, at `rewrite`'s paths, otherwise. */
  mutations?: Mutations;
}

export const CLONESET: FuzzKind = { kind: 'CloneSet', valid: validCloneSet, rewrite: (p) => p };

/** A valid Advanced StatefulSet (apps.kruise.io/v1beta1) of 0–3 pods. */
export function validAdvancedStatefulSet(ns: string): fc.Arbitrary<Obj> {
  return fc
    .record({
      app: dns,
      replicas: fc.integer({ min: 0, max: 3 }),
      image: fc.constantFrom('nginx:1.27.3', 'busybox:1.37'),
      policy: fc.constantFrom('OrderedReady', 'Parallel'),
      podUpdatePolicy: fc.constantFrom('ReCreate', 'InPlaceIfPossible'),
      partition: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    })
    .map((r) => ({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { namespace: ns, labels: { fuzz: 'r2' } },
      spec: {
        replicas: r.replicas,
        serviceName: 'svc',
        podManagementPolicy: r.policy,
        selector: { matchLabels: { app: r.app } },
        template: {
          metadata: { labels: { app: r.app } },
          spec: {
            containers: [{ name: 'main', image: r.image }],
            // an in-place policy needs the InPlaceUpdateReady gate in the template (docs/asts.md, Identity)
            ...(r.podUpdatePolicy === 'ReCreate'
              ? {}
              : { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] }),
          },
        },
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: {
            podUpdatePolicy: r.podUpdatePolicy,
            maxUnavailable: 1,
            ...(r.partition !== undefined ? { partition: r.partition } : {}),
          },
        },
      },
    }));
}

const ASTS_PATHS: Record<string, string> = {
  'spec.updateStrategy.maxUnavailable': 'spec.updateStrategy.rollingUpdate.maxUnavailable',
  'spec.updateStrategy.maxSurge': 'spec.updateStrategy.rollingUpdate.maxSurge',
  'spec.updateStrategy.partition': 'spec.updateStrategy.rollingUpdate.partition',
  'spec.updateStrategy.inPlaceUpdateStrategy': 'spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy',
  'spec.updateStrategy.priorityStrategy':
    'spec.updateStrategy.rollingUpdate.unorderedUpdate.priorityStrategy',
};

export const ADVANCED_STATEFULSET: FuzzKind = {
  kind: 'StatefulSet',
  valid: validAdvancedStatefulSet,
  rewrite: (p) => ASTS_PATHS[p] ?? p,
};

/** One fuzzed object: a shape, then 1–3 of its mutations applied to a valid base (none for `valid`). */
export function fuzzed(k: FuzzKind, ns: string): fc.Arbitrary<Fuzzed> {
  return fc.constantFrom(...SHAPES).chain((shape) => {
    const muts =
      shape === 'valid'
        ? fc.constant([])
        : fc.array(fc.oneof(...(k.mutations ?? MUTATIONS)[shape]), { minLength: 1, maxLength: 3 });
    return fc.tuple(k.valid(ns), muts).map(([object, ms]) => {
      for (const [, f] of ms) f(object, k.rewrite);
      return { shape, mutations: ms.map(([n]) => n(k.rewrite)), object };
    });
  });
}

// ---- verdicts

/** A request slower than this hung (the API server's webhook timeout is 10 s). */
export const HUNG_MS = 10_000;

export interface Response {
  ms: number;
  /** HTTP status of a refusal; undefined when accepted, or when no answer came (network error). */
  status?: number;
  message?: string;
  /** Status details' causes, when the API server gave them. */
  causes?: { field?: string; message?: string }[];
  accepted: boolean;
}

export type Verdict =
  | { result: 'accepted' | 'hung' }
  | { result: 'rejected'; by: 'webhook' | 'apiserver'; fieldPath: boolean }
  | { result: 'failed'; why: string };

/** `spec.replicas`, `metadata.annotations`, `spec.template.spec.containers[0].name`: a dotted path from a root field. */
const FIELD_PATH =
  /\b(?:spec|metadata|status|data|apiVersion|kind)(?:\.[A-Za-z0-9_$-]+|\[[^\]]*\])+|\b(?:metadata|spec)\b(?=:)/;

export function namesFieldPath(message: string, causes: { field?: string }[] = []): boolean {
  return causes.some((c) => !!c.field) || FIELD_PATH.test(message);
}

/**
 * How one request went: accepted; rejected, by a webhook (the API server quotes "admission webhook") or the API
 * server itself, with or without a field path; hung (over `HUNG_MS`); failed (no answer, or the webhook could not be
 * called: a 500).
 */
export function verdictOf(r: Response): Verdict {
  if (r.ms > HUNG_MS) return { result: 'hung' };
  if (r.accepted) return { result: 'accepted' };
  const msg = r.message ?? '';
  if (r.status === undefined) return { result: 'failed', why: `no answer: ${msg}` };
  if (/failed calling webhook/i.test(msg) || r.status >= 500)
    return { result: 'failed', why: `${r.status}: ${msg}` };
  return {
    result: 'rejected',
    by: /admission webhook/i.test(msg) ? 'webhook' : 'apiserver',
    fieldPath: namesFieldPath(msg, r.causes),
  };
}

/** A violation in a verdict (Regatta's part): a hung request, a failed call, a webhook rejection without a path. */
export function violationOf(v: Verdict): string | undefined {
  if (v.result === 'hung') return 'hung';
  if (v.result === 'failed') return `failed (${v.why.slice(0, 200)})`;
  if (v.result === 'rejected' && v.by === 'webhook' && !v.fieldPath)
    return 'webhook rejection without a field path';
  return undefined;
}
