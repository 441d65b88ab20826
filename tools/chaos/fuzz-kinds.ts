// R2's generators for the kinds after CloneSet and Advanced StatefulSet (fuzz.ts): Advanced DaemonSet,
// UnitedDeployment, SidecarSet and ResourceDistribution. Pure. Each is a valid object as a user writes it, and the
// same shapes of mutations: the kind's own invalid values and absurd numbers, the pod-template rules Kubernetes'
// ValidatePodTemplateSpec enforces (TEMPLATE_INVALID, at the kind's template path), and CloneSet's huge, deep,
// unicode and wrongly typed mutations at the kind's paths (`rewrite`). SidecarSets and ResourceDistributions are
// cluster-scoped: `spec.namespace` / the targets keep them to R2's namespace.
import fc from 'fast-check';
import {
  at,
  DEEP,
  dns,
  type FuzzKind,
  HUGE,
  type Json,
  m,
  type Mutations,
  nested,
  type Obj,
  setPath,
  UNICODE,
  WRONG,
} from './fuzz.js';
import { CONTAINERS_INVALID, TEMPLATE_INVALID } from './fuzz-template-mutations.js';

const IMAGES = ['nginx:1.27.3', 'busybox:1.37'] as const;

// ---- Advanced DaemonSet (apps.kruise.io/v1alpha1)

export function validAdvancedDaemonSet(ns: string): fc.Arbitrary<Obj> {
  return fc
    .record({
      app: dns,
      image: fc.constantFrom(...IMAGES),
      type: fc.constantFrom('Standard', 'InPlaceIfPossible'),
      maxUnavailable: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom('20%', '50%')),
      partition: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      minReadySeconds: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
    })
    .map((r) => ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'DaemonSet',
      metadata: { namespace: ns, labels: { fuzz: 'r2' } },
      spec: {
        selector: { matchLabels: { app: r.app } },
        template: {
          metadata: { labels: { app: r.app } },
          spec: { containers: [{ name: 'main', image: r.image }] },
        },
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: {
            rollingUpdateType: r.type,
            maxUnavailable: r.maxUnavailable,
            ...(r.partition !== undefined ? { partition: r.partition } : {}),
          },
        },
        ...(r.minReadySeconds !== undefined ? { minReadySeconds: r.minReadySeconds } : {}),
      },
    }));
}

const RU = 'spec.updateStrategy.rollingUpdate';
const ADS_PATHS: Record<string, string> = {
  'spec.updateStrategy.maxUnavailable': `${RU}.maxUnavailable`,
  'spec.updateStrategy.maxSurge': `${RU}.maxSurge`,
  'spec.updateStrategy.partition': `${RU}.partition`,
};

const ADS_MUTATIONS: Mutations = {
  invalid: [
    fc.constant(at('spec.selector.matchLabels', { app: 'other' })),
    fc.constantFrom('Foo', '').map((t) => at('spec.updateStrategy.type', t)),
    fc.constantFrom('Foo', 'surging').map((t) => at(`${RU}.rollingUpdateType`, t)),
    fc.constantFrom('120%', '-10%', 'abc').map((v) => at(`${RU}.maxUnavailable`, v)),
    fc.constant(
      m('maxUnavailable 0 and maxSurge 0', (o) => {
        setPath(o, `${RU}.maxUnavailable`, 0);
        setPath(o, `${RU}.maxSurge`, 0);
      }),
    ),
    fc.constantFrom(-1, -50).map((v) => at(`${RU}.partition`, v)),
    ...CONTAINERS_INVALID,
    fc.constant(at('spec.minReadySeconds', -1)),
    fc.constant(at('spec.template.metadata.labels', { other: 'x' })),
    fc.constant(
      at('spec.selector', { matchExpressions: [{ key: 'app', operator: 'Bogus', values: ['x'] }] }),
    ),
    fc.constantFrom('abc', '-1', '120%').map((v) => at('spec.burstReplicas', v)),
    fc.constant(at('spec.lifecycle', { preDelete: { finalizersHandler: ['not a finalizer!'] } })),
    ...TEMPLATE_INVALID,
  ],
  'huge-annotations': HUGE,
  'deep-nesting': DEEP,
  unicode: UNICODE,
  'absurd-numbers': [
    fc.constantFrom(2147483647, 1e20, 0.25).map((n) => at(`${RU}.partition`, n)),
    fc.constantFrom(2147483647, 1e15).map((n) => at(`${RU}.maxUnavailable`, n)),
    fc.constantFrom(2147483647, 1e15).map((n) => at(`${RU}.maxSurge`, n)),
    fc.constantFrom(2147483647, 1e12).map((n) => at('spec.minReadySeconds', n)),
    fc.constantFrom(2147483647, 1e12).map((n) => at('spec.revisionHistoryLimit', n)),
    fc.constantFrom(2147483647, 1e9).map((n) => at('spec.burstReplicas', n)),
    fc
      .constantFrom(9007199254740991, -5)
      .map((n) => at('spec.template.spec.terminationGracePeriodSeconds', n)),
    fc.constantFrom(2147483648, 1e18).map((n) => at('spec.template.spec.activeDeadlineSeconds', n)),
  ],
  'wrong-types': WRONG,
};

export const ADVANCED_DAEMONSET: FuzzKind = {
  kind: 'DaemonSet',
  valid: validAdvancedDaemonSet,
  rewrite: (p) => ADS_PATHS[p] ?? p,
  mutations: ADS_MUTATIONS,
};

// ---- UnitedDeployment (apps.kruise.io/v1alpha1), subsets of CloneSets or Advanced StatefulSets

const SUBSET_TEMPLATES = ['cloneSetTemplate', 'advancedStatefulSetTemplate'] as const;

export function validUnitedDeployment(ns: string): fc.Arbitrary<Obj> {
  return fc
    .record({
      app: dns,
      image: fc.constantFrom(...IMAGES),
      template: fc.constantFrom(...SUBSET_TEMPLATES),
      replicas: fc.integer({ min: 0, max: 4 }),
      subsetB: fc.option(fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom('50%', '0%')), {
        nil: undefined,
      }),
      revisionHistoryLimit: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
    })
    .map((r) => {
      const zone = (v: string) => ({
        matchExpressions: [{ key: 'chaos.regatta.dev/zone', operator: 'In', values: [v] }],
      });
      return {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'UnitedDeployment',
        metadata: { namespace: ns, labels: { fuzz: 'r2' } },
        spec: {
          replicas: r.replicas,
          selector: { matchLabels: { app: r.app } },
          template: {
            [r.template]: {
              metadata: { labels: { app: r.app } },
              spec: {
                selector: { matchLabels: { app: r.app } },
                template: {
                  metadata: { labels: { app: r.app } },
                  spec: { containers: [{ name: 'main', image: r.image }] },
                },
              },
            },
          },
          topology: {
            subsets: [
              { name: 'subset-a', nodeSelectorTerm: zone('a') },
              {
                name: 'subset-b',
                nodeSelectorTerm: zone('b'),
                // a fixed count is at most spec.replicas (the webhook refuses more)
                ...(r.subsetB !== undefined
                  ? { replicas: typeof r.subsetB === 'number' ? Math.min(r.subsetB, r.replicas) : r.subsetB }
                  : {}),
              },
            ],
          },
          ...(r.revisionHistoryLimit !== undefined ? { revisionHistoryLimit: r.revisionHistoryLimit } : {}),
        },
      };
    });
}

/** The subset template an object has (`spec.template.<kind>`), for the template paths. */
function subsetTemplateOf(o: Obj | undefined): string {
  const t = ((o?.['spec'] as Obj | undefined)?.['template'] ?? {}) as Obj;
  return SUBSET_TEMPLATES.find((k) => k in t) ?? '<subset template>';
}

/** `spec.template…` of CloneSet → `spec.template.<subset template>.spec.template…`. */
export function unitedDeploymentPath(p: string, o?: Obj): string {
  if (p === 'spec.template' || p.startsWith('spec.template.'))
    return `spec.template.${subsetTemplateOf(o)}.spec.${p.slice('spec.'.length)}`;
  return p;
}

const SUBSETS = 'spec.topology.subsets';
const UD_MUTATIONS: Mutations = {
  invalid: [
    fc.constant(at('spec.selector.matchLabels', { app: 'other' })),
    fc.integer({ min: -1000, max: -1 }).map((n) => at('spec.replicas', n)),
    fc.constant(at(SUBSETS, [{ name: 'a' }, { name: 'a' }])),
    fc.constantFrom('Subset_A', '', '-a').map((n) => at(`${SUBSETS}.0.name`, n)),
    fc.constantFrom('120%', '-1', 'abc', -3).map((v) => at(`${SUBSETS}.0.replicas`, v)),
    fc.constant(at(`${SUBSETS}.0.replicas`, 100)),
    fc.constant(
      at(`${SUBSETS}.0.nodeSelectorTerm`, {
        matchExpressions: [{ key: 'zone', operator: 'Near', values: ['a'] }],
      }),
    ),
    fc.constant(at('spec.template', {})),
    fc.constant(
      m('two subset templates', (o) => {
        const t = (o['spec'] as Obj)['template'] as Obj;
        const [k, v] = Object.entries(t)[0] ?? ['cloneSetTemplate', {}];
        t[k === 'cloneSetTemplate' ? 'advancedStatefulSetTemplate' : 'cloneSetTemplate'] = structuredClone(v);
      }),
    ),
    fc.constant(
      at('spec.updateStrategy', { type: 'Manual', manualUpdate: { partitions: { 'subset-a': -1 } } }),
    ),
    fc.constant(at('spec.topology.scheduleStrategy', { type: 'Sometimes' })),
    fc.constant(at('spec.revisionHistoryLimit', -3)),
    ...CONTAINERS_INVALID,
    fc.constant(at('spec.template.metadata.labels', { other: 'x' })),
    ...TEMPLATE_INVALID,
  ],
  'huge-annotations': HUGE,
  'deep-nesting': [
    ...DEEP,
    fc
      .integer({ min: 20, max: 120 })
      .map((d) => at(`${SUBSETS}.0.patch`, { metadata: nested(d) as Json } as Json)),
  ],
  unicode: [
    ...UNICODE,
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => at(`${SUBSETS}.0.name`, s)),
  ],
  'absurd-numbers': [
    fc.constantFrom(2147483647, 2147483648, 9007199254740991, 1e308, 0.5).map((n) => at('spec.replicas', n)),
    fc.constantFrom(2147483647, 1e15).map((n) => at(`${SUBSETS}.1.replicas`, n)),
    fc
      .constantFrom('99999999999999999999%', '1e400%', '2147483648%')
      .map((v) => at(`${SUBSETS}.1.replicas`, v)),
    fc.constantFrom(2147483647, 1e12).map((n) => at('spec.revisionHistoryLimit', n)),
    fc.integer({ min: 100, max: 500 }).map((n) =>
      m(`${n} subsets`, (o) =>
        setPath(
          o,
          SUBSETS,
          Array.from({ length: n }, (_, i) => ({ name: `s${i}` })),
        ),
      ),
    ),
  ],
  'wrong-types': [
    ...WRONG,
    fc.constant(at(`${SUBSETS}.0`, 'not an object')),
    fc.constant(at(SUBSETS, { a: 1 })),
    fc.constant(at(`${SUBSETS}.0.patch`, 'not a patch')),
  ],
};

export const UNITED_DEPLOYMENT: FuzzKind = {
  kind: 'UnitedDeployment',
  valid: validUnitedDeployment,
  rewrite: unitedDeploymentPath,
  mutations: UD_MUTATIONS,
};

// ---- SidecarSet (apps.kruise.io/v1alpha1, cluster-scoped; `spec.namespace` keeps it to R2's namespace)

export function validSidecarSet(ns: string): fc.Arbitrary<Obj> {
  return fc
    .record({
      app: dns,
      image: fc.constantFrom(...IMAGES),
      policy: fc.option(fc.constantFrom('BeforeAppContainer', 'AfterAppContainer'), { nil: undefined }),
      type: fc.constantFrom('RollingUpdate', 'NotUpdate'),
      maxUnavailable: fc.option(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom('20%', '50%')), {
        nil: undefined,
      }),
      partition: fc.option(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('0%', '50%')), {
        nil: undefined,
      }),
      volume: fc.boolean(),
    })
    .map((r) => ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { labels: { fuzz: 'r2' } },
      spec: {
        namespace: ns,
        selector: { matchLabels: { app: r.app } },
        containers: [
          {
            name: 'sidecar',
            image: r.image,
            ...(r.policy !== undefined ? { podInjectPolicy: r.policy } : {}),
            ...(r.volume ? { volumeMounts: [{ name: 'log', mountPath: '/var/log' }] } : {}),
          },
        ],
        ...(r.volume ? { volumes: [{ name: 'log', emptyDir: {} }] } : {}),
        updateStrategy: {
          type: r.type,
          ...(r.maxUnavailable !== undefined ? { maxUnavailable: r.maxUnavailable } : {}),
          ...(r.partition !== undefined ? { partition: r.partition } : {}),
        },
      },
    }));
}

/** CloneSet paths → SidecarSet: the template's containers and volumes are the sidecars', its metadata the object's. */
export function sidecarSetPath(p: string): string {
  if (p.startsWith('spec.template.spec.')) return `spec.${p.slice('spec.template.spec.'.length)}`;
  if (p.startsWith('spec.template.metadata.')) return `metadata.${p.slice('spec.template.metadata.'.length)}`;
  if (p === 'spec.template.spec') return 'spec';
  return p;
}

const SCS_MUTATIONS: Mutations = {
  invalid: [
    fc.constant(
      at('spec.selector', { matchExpressions: [{ key: 'app', operator: 'Bogus', values: ['x'] }] }),
    ),
    fc.constant(
      at('spec.containers', [
        { name: 'sidecar', image: 'a' },
        { name: 'sidecar', image: 'b' },
      ]),
    ),
    fc.constant(at('spec.initContainers', [{ name: 'sidecar', image: 'busybox:1.37' }])),
    fc.constantFrom('Sidecar', 'side_car', '').map((n) => at('spec.containers.0.name', n)),
    fc.constant(at('spec.containers.0.image', '')),
    fc.constantFrom('Foo', 'rollingupdate').map((t) => at('spec.updateStrategy.type', t)),
    fc.constantFrom('120%', '-10%', 'abc', 0).map((v) => at('spec.updateStrategy.maxUnavailable', v)),
    fc.constantFrom(-1, '120%').map((v) => at('spec.updateStrategy.partition', v)),
    fc.constantFrom('Sometimes', 'before').map((v) => at('spec.containers.0.podInjectPolicy', v)),
    fc.constantFrom('Bad_NS', '-ns').map((v) => at('spec.namespace', v)),
    fc.constant(at('spec.containers.0.shareVolumePolicy', { type: 'Sometimes' })),
    fc.constant(at('spec.containers.0.upgradeStrategy', { upgradeType: 'HotUpgrade' })),
    fc.constant(at('spec.containers.0.volumeMounts', [{ name: 'nowhere', mountPath: '/x' }])),
    fc.constant(at('spec.containers.0.env', [{ name: 'MY VAR', value: 'x' }])),
    fc.constant(at('spec.containers.0.resources', { limits: { cpu: 'lots' } })),
    fc.constant(
      at('spec.containers.0.resources', { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } }),
    ),
    fc.constant(at('spec.containers.0.ports', [{ containerPort: 70000 }])),
    fc.constant(at('spec.revisionHistoryLimit', -3)),
  ],
  'huge-annotations': HUGE,
  'deep-nesting': DEEP,
  unicode: UNICODE,
  'absurd-numbers': [
    fc.constantFrom(2147483647, 1e15).map((n) => at('spec.updateStrategy.maxUnavailable', n)),
    fc.constantFrom(2147483647, 1e20, 0.25).map((n) => at('spec.updateStrategy.partition', n)),
    fc.constantFrom(2147483647, 1e12).map((n) => at('spec.revisionHistoryLimit', n)),
    fc
      .constantFrom('99999999999999999999%', '1e400%')
      .map((v) => at('spec.updateStrategy.maxUnavailable', v)),
  ],
  'wrong-types': [
    ...WRONG,
    fc.constant(at('spec.containers', 'not a list')),
    fc.constant(at('spec.namespace', 5)),
    fc.constant(at('spec.volumes', [null])),
  ],
};

export const SIDECARSET: FuzzKind = {
  kind: 'SidecarSet',
  valid: validSidecarSet,
  rewrite: sidecarSetPath,
  mutations: SCS_MUTATIONS,
};

// ---- ResourceDistribution (apps.kruise.io/v1alpha1, cluster-scoped; its targets list only R2's namespace)

export function validResourceDistribution(ns: string): fc.Arbitrary<Obj> {
  return fc
    .record({
      name: dns,
      secret: fc.boolean(),
      value: fc.string({ maxLength: 40 }),
    })
    .map(
      (r): Obj => ({
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'ResourceDistribution',
        metadata: { labels: { fuzz: 'r2' } },
        spec: {
          resource: r.secret
            ? {
                apiVersion: 'v1',
                kind: 'Secret',
                metadata: { name: `s-${r.name}` },
                type: 'Opaque',
                stringData: { k: r.value },
              }
            : {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: { name: `c-${r.name}` },
                data: { k: r.value },
              },
          targets: { includedNamespaces: { list: [{ name: ns }] } },
        },
      }),
    );
}

const RES = 'spec.resource';
const INCLUDED = 'spec.targets.includedNamespaces.list';
const RD_MUTATIONS: Mutations = {
  invalid: [
    fc.constantFrom('Pod', 'Namespace', '').map((k) => at(`${RES}.kind`, k)),
    fc.constant(at(RES, {})),
    fc.constantFrom('Bad_Name', '').map((n) => at(`${RES}.metadata.name`, n)),
    fc.constantFrom('v2', 'apps/v1').map((v) => at(`${RES}.apiVersion`, v)),
    fc.constant(at(INCLUDED, [{ name: 'Bad_NS' }])),
    fc.constant(
      m('a namespace both included and excluded', (o) => {
        setPath(
          o,
          'spec.targets.excludedNamespaces.list',
          structuredClone(
            (o['spec'] as { targets: { includedNamespaces: { list: Json } } }).targets.includedNamespaces
              .list,
          ),
        );
      }),
    ),
    fc.constant(
      at('spec.targets.namespaceLabelSelector', { matchExpressions: [{ key: 'a', operator: 'Bogus' }] }),
    ),
    fc.constant(at(`${RES}.data`, { 'bad key!': 'x' })),
    fc.constant(at(`${RES}.metadata.namespace`, 'elsewhere')),
  ],
  'huge-annotations': [
    ...HUGE.slice(0, 3),
    fc.integer({ min: 100, max: 900 }).map((kib) => at(`${RES}.data`, { big: 'd'.repeat(kib * 1024) })),
    fc
      .integer({ min: 500, max: 3000 })
      .map((n) =>
        m(`${n} data keys`, (o) =>
          setPath(
            o,
            `${RES}.data`,
            Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v'.repeat(64)])),
          ),
        ),
      ),
  ],
  'deep-nesting': [
    fc.integer({ min: 20, max: 120 }).map((d) => at(`${RES}.x-unknown`, nested(d))),
    fc
      .integer({ min: 20, max: 120 })
      .map((d) => at(`${RES}.metadata.annotations`, { deep: JSON.stringify(nested(d)) })),
    fc.integer({ min: 20, max: 120 }).map((d) => at('spec.x-unknown', nested(d))),
  ],
  unicode: [
    ...UNICODE.slice(0, 2),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map((s) => at(`${RES}.data`, { k: s })),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => at(`${RES}.metadata.name`, s)),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => at(INCLUDED, [{ name: s }])),
  ],
  'absurd-numbers': [
    fc.integer({ min: 1000, max: 5000 }).map((n) =>
      m(`${n} included namespaces`, (o) =>
        setPath(
          o,
          INCLUDED,
          Array.from({ length: n }, (_, i) => ({ name: `ns-${i}` })),
        ),
      ),
    ),
    fc.constant(at(`${RES}.metadata.name`, 'n'.repeat(300))),
    fc.constantFrom(2147483647, 1e308).map((n) => at(`${RES}.metadata.generation`, n)),
  ],
  'wrong-types': [
    fc.constant(at(RES, 'not an object')),
    fc.constant(at(RES, [])),
    fc.constant(at('spec.targets', [])),
    fc.constant(at(INCLUDED, 'x')),
    fc.constant(at(INCLUDED, [{ name: 5 }])),
    fc.constant(at(`${RES}.data`, { k: 5 })),
    fc.constant(at(`${RES}.metadata.name`, 5)),
    fc.constant(at(`${RES}.metadata`, 'm')),
  ],
};

export const RESOURCE_DISTRIBUTION: FuzzKind = {
  kind: 'ResourceDistribution',
  valid: validResourceDistribution,
  rewrite: (p) => p,
  mutations: RD_MUTATIONS,
};
