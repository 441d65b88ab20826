// R3's table: the programs that serve admission webhooks for their kinds (each registers `regatta-<app>` through
// libs/runtime kind-webhook-configurations.ts, failurePolicy Fail), the kinds each admits, and a kind of another
// program whose writes must not notice this one. The SidecarSet program, whose pod webhook is R3's own case, is
// tools/chaos/r3.ts. Every object is valid and does nothing on the cluster: no replicas, no node selected, an image
// job aimed at a node that does not exist, a fake NodeImage. Pure.
import type { KubeObject } from '@regatta/kube';

export interface R3Kind {
  kind: string;
  apiVersion: string;
  clusterScoped?: boolean;
  /** A valid object `name` (in `ns` when namespaced; a cluster-scoped one aimed at `ns`). */
  make(ns: string, name: string): KubeObject;
}

export interface R3Program {
  /** The program (its bundle, tools/build/build.mjs) and its configurations' name, `regatta-<app>`. */
  app: string;
  /** Its kinds, each with its validating webhook's name (registered once the program serves). */
  kinds: (R3Kind & { entry: string })[];
  /** Another program's kind, written with this one absent, running, killed and hung. */
  other: R3Kind;
}

const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'main', image: 'nginx:1.27.3' }] },
});

const namespaced = (o: { apiVersion: string; kind: string }, spec: Record<string, unknown>) => ({
  ...o,
  make: (ns: string, name: string) => ({ ...o, metadata: { name, namespace: ns }, spec }),
});

const CLONESET = namespaced(
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' },
  { replicas: 0, selector: { matchLabels: { app: 'r3-cs' } }, template: template('r3-cs') },
);

const STATEFULSET = namespaced(
  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
  {
    replicas: 0,
    serviceName: 'svc',
    podManagementPolicy: 'Parallel',
    selector: { matchLabels: { app: 'r3-sts' } },
    template: template('r3-sts'),
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
  },
);

const DAEMONSET = namespaced(
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet' },
  {
    selector: { matchLabels: { app: 'r3-ds' } },
    // no node carries the label: no pod
    template: {
      ...template('r3-ds'),
      spec: { ...template('r3-ds').spec, nodeSelector: { 'chaos.regatta.dev/none': 'r3' } },
    },
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1 },
    },
  },
);

const zone = (v: string) => ({
  matchExpressions: [{ key: 'chaos.regatta.dev/zone', operator: 'In', values: [v] }],
});
const UNITED_DEPLOYMENT = namespaced(
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment' },
  {
    replicas: 0,
    selector: { matchLabels: { app: 'r3-ud' } },
    template: {
      cloneSetTemplate: {
        metadata: { labels: { app: 'r3-ud' } },
        spec: { selector: { matchLabels: { app: 'r3-ud' } }, template: template('r3-ud') },
      },
    },
    topology: {
      subsets: [
        { name: 'subset-a', nodeSelectorTerm: zone('a') },
        { name: 'subset-b', nodeSelectorTerm: zone('b') },
      ],
    },
  },
);

const RESOURCE_DISTRIBUTION: R3Kind = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'ResourceDistribution',
  clusterScoped: true,
  make: (ns, name) => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ResourceDistribution',
    metadata: { name },
    spec: {
      resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c-${name}` }, data: { k: 'v' } },
      targets: { includedNamespaces: { list: [{ name: ns }] } },
    },
  }),
};

// completionPolicy Never: no TTL deletes the job R3 updates later
const IMAGE_PULL_JOB = namespaced(
  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob' },
  {
    image: 'regatta.chaos/r3:1.0',
    selector: { names: ['chaos-none-r3'] },
    completionPolicy: { type: 'Never' },
  },
);

// `apps.kruise.io/fake-nodeimage`: the NodeImage controller keeps it although no node has its name
const NODE_IMAGE: R3Kind = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'NodeImage',
  clusterScoped: true,
  make: (_ns, name) => ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'NodeImage',
    metadata: { name, labels: { 'apps.kruise.io/fake-nodeimage': 'true' } },
    spec: { images: { busybox: { tags: [{ tag: '1.37', pullPolicy: { ttlSecondsAfterFinished: 300 } }] } } },
  }),
};

export const R3_PROGRAMS: R3Program[] = [
  { app: 'cloneset', kinds: [{ ...CLONESET, entry: 'vcloneset.kb.io' }], other: STATEFULSET },
  { app: 'asts', kinds: [{ ...STATEFULSET, entry: 'vstatefulset.kb.io' }], other: CLONESET },
  { app: 'ads', kinds: [{ ...DAEMONSET, entry: 'vdaemonset.kb.io' }], other: CLONESET },
  {
    app: 'uniteddeployment',
    kinds: [{ ...UNITED_DEPLOYMENT, entry: 'vuniteddeployment.kb.io' }],
    other: STATEFULSET,
  },
  {
    app: 'resourcedistribution',
    kinds: [{ ...RESOURCE_DISTRIBUTION, entry: 'vresourcedistribution.kb.io' }],
    other: CLONESET,
  },
  {
    app: 'imagepull',
    kinds: [
      { ...IMAGE_PULL_JOB, entry: 'vimagepulljob.kb.io' },
      { ...NODE_IMAGE, entry: 'vnodeimage.kb.io' },
    ],
    other: CLONESET,
  },
];

/** A plain Deployment, no replicas: a kind no Regatta program admits. */
export const deployment = (ns: string, name: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: { replicas: 0, selector: { matchLabels: { app: 'r3-deploy' } }, template: template('r3-deploy') },
  }) as KubeObject;

/** A plain pod no SidecarSet selects. */
export const pod = (ns: string, name: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: 'r3-plain' } },
    spec: template('r3-plain').spec,
  }) as KubeObject;
