// R2's generators for ImagePullJob (apps.kruise.io/v1beta1): a valid job as a user writes it (an image aimed at node
// names that do not exist or at pods of an app: the job completes at once or waits, writing nothing anywhere; or at
// R2's agent nodes by name or label, tools/chaos/r2-agent-verdicts.ts: the controller writes its tag into their
// NodeImages and their agents pull it), and the same shapes of mutations as the other kinds: the rules of docs/imagepull.md "Admission"
// (names with a label query, duplicated names, selector with podSelector, empty image, parallelism negative / a
// percentage / not an integer, a deadline below the pull timeout, deadline or TTL on a Never job, an unknown
// completion type), huge annotations and sandbox labels, deep nesting, unicode, absurd numbers, wrong types. Pure.
import fc from 'fast-check';
import {
  at,
  DEEP,
  dns,
  type FuzzKind,
  HUGE,
  m,
  type Mutations,
  nested,
  type Obj,
  setPath,
  UNICODE,
} from './fuzz.js';
import { R2_AGENT_LABEL, R2_AGENT_NODES } from './r2-agent-verdicts.js';

export function validImagePullJob(ns: string): fc.Arbitrary<Obj> {
  return fc
    .record({
      app: dns,
      tag: fc.constantFrom('1.0', '2', 'latest'),
      target: fc.constantFrom('names', 'labels', 'pods', 'agent-names', 'agent-labels'),
      parallelism: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      type: fc.constantFrom('Always', 'Never'),
      timeout: fc.option(fc.integer({ min: 30, max: 600 }), { nil: undefined }),
    })
    .map((r): Obj => {
      const selector: Obj = {
        names: { selector: { names: [`chaos-none-${r.app}`] } },
        labels: { selector: { matchLabels: { 'chaos.regatta.dev/none': r.app } } },
        pods: { podSelector: { matchLabels: { app: r.app } } },
        'agent-names': { selector: { names: [...R2_AGENT_NODES] } },
        'agent-labels': { selector: { matchLabels: { ...R2_AGENT_LABEL } } },
      }[r.target];
      return {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'ImagePullJob',
        metadata: { namespace: ns, labels: { fuzz: 'r2' } },
        spec: {
          image: `regatta.chaos/${r.app}:${r.tag}`,
          ...selector,
          ...(r.parallelism !== undefined ? { parallelism: r.parallelism } : {}),
          ...(r.timeout !== undefined ? { pullPolicy: { timeoutSeconds: r.timeout, backoffLimit: 1 } } : {}),
          completionPolicy:
            r.type === 'Always'
              ? { type: 'Always', activeDeadlineSeconds: 1200, ttlSecondsAfterFinished: 60 }
              : { type: 'Never' },
        },
      };
    });
}

const MUTATIONS: Mutations = {
  invalid: [
    fc.constant(
      m('names and a label query', (o) => {
        setPath(o, 'spec.selector', { names: ['n1'], matchLabels: { a: 'b' } });
        delete (o['spec'] as Obj)['podSelector'];
      }),
    ),
    fc.constant(
      m('duplicated names', (o) => {
        setPath(o, 'spec.selector', { names: ['n1', 'n1'] });
        delete (o['spec'] as Obj)['podSelector'];
      }),
    ),
    fc.constant(
      m('selector and podSelector', (o) => {
        setPath(o, 'spec.selector', { names: ['n1'] });
        setPath(o, 'spec.podSelector', { matchLabels: { app: 'x' } });
      }),
    ),
    fc.constant(at('spec.image', '')),
    fc.constantFrom('50%', '-1', 'abc', -3, 1.5).map((v) => at('spec.parallelism', v)),
    fc.constant(at('spec.completionPolicy', { type: 'Always', activeDeadlineSeconds: 10 })),
    fc.constant(at('spec.completionPolicy', { type: 'Never', activeDeadlineSeconds: 1200 })),
    fc.constant(at('spec.completionPolicy', { type: 'Never', ttlSecondsAfterFinished: 5 })),
    fc.constantFrom('Sometimes', 'always').map((t) => at('spec.completionPolicy.type', t)),
    fc.constant(
      at('spec.selector', { matchExpressions: [{ key: 'app', operator: 'Bogus', values: ['x'] }] }),
    ),
    fc.constant(at('spec.podSelector', { matchLabels: { 'bad key!': 'x' } })),
  ],
  'huge-annotations': [
    ...HUGE.slice(0, 3),
    fc
      .integer({ min: 100, max: 300 })
      .map((kib) => at('spec.sandboxConfig', { labels: { big: 's'.repeat(kib * 1024) } })),
  ],
  'deep-nesting': [
    ...DEEP.slice(2, 3),
    fc.integer({ min: 20, max: 120 }).map((d) => at('spec.sandboxConfig.x-unknown', nested(d))),
    fc
      .integer({ min: 20, max: 120 })
      .map((d) => at('metadata.annotations', { deep: JSON.stringify(nested(d)) })),
  ],
  unicode: [
    ...UNICODE.slice(0, 2),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map((s) => at('spec.image', s)),
    fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
      .map((s) => at('spec.selector', { names: [s] })),
  ],
  'absurd-numbers': [
    fc.constantFrom(2147483647, 1e15, 0.5).map((n) => at('spec.parallelism', n)),
    fc
      .constantFrom(2147483647, 1e12)
      .map((n) => at('spec.pullPolicy', { timeoutSeconds: n, backoffLimit: 3 })),
    fc
      .constantFrom(2147483647, -1)
      .map((n) => at('spec.pullPolicy', { timeoutSeconds: 60, backoffLimit: n })),
    fc
      .constantFrom(9007199254740991, 1e18)
      .map((n) => at('spec.completionPolicy', { type: 'Always', activeDeadlineSeconds: n })),
    fc
      .constantFrom(2147483647, -5)
      .map((n) => at('spec.completionPolicy', { type: 'Always', ttlSecondsAfterFinished: n })),
    fc.integer({ min: 1000, max: 5000 }).map((n) =>
      m(`${n} node names`, (o) => {
        setPath(o, 'spec.selector', { names: Array.from({ length: n }, (_, i) => `node-${i}`) });
        delete (o['spec'] as Obj)['podSelector'];
      }),
    ),
  ],
  'wrong-types': [
    fc.constantFrom(' 5', '0x5', '5 %', '').map((v) => at('spec.parallelism', v)),
    fc.constant(at('spec.selector.names', [5])),
    fc.constant(at('spec.pullSecrets', 'not a list')),
    fc.constant(at('spec.completionPolicy', 'Always')),
    fc.constant(at('spec.sandboxConfig', { labels: { a: 5 } })),
    fc.constant(at('spec.image', 5)),
  ],
};

export const IMAGE_PULL_JOB: FuzzKind = {
  kind: 'ImagePullJob',
  valid: validImagePullJob,
  rewrite: (p) => p,
  mutations: MUTATIONS,
};
