// SidecarSet's validation table for the policy parity test (apps/sidecarset/src/admission-policy.int.test.ts). The
// test appends its id to each name and labels the object (SidecarSets are cluster-scoped).
import type { KubeObject } from '@regatta/kube';
import type { PolicyCase } from '@regatta/workload';

type Spec = Record<string, unknown>;

export type SidecarSetValidationCase = PolicyCase;

/** A valid SidecarSet (apps.kruise.io/v1beta1) named `name`; `spec` is merged over its spec. */
export function sidecarSetCase(name: string, spec: Spec = {}): KubeObject {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'agent', image: 'busybox' }],
      ...spec,
    },
  } as KubeObject;
}

const container = (extra: Spec): Spec => ({ containers: [{ name: 'agent', image: 'busybox' }, { name: 'second', image: 'busybox', ...extra }] });

export const SIDECARSET_PROBE = sidecarSetCase('probe', { selector: {} });

export const SIDECARSET_PARITY_CASES: readonly SidecarSetValidationCase[] = [
  { name: 'a valid SidecarSet', object: sidecarSetCase('ok') },
  { name: 'no selector', object: sidecarSetCase('nosel', { selector: undefined }) },
  { name: 'an empty selector', object: sidecarSetCase('emptysel', { selector: {} }) },
  { name: 'an empty namespaceSelector', object: sidecarSetCase('emptyns', { namespaceSelector: {} }) },
  { name: 'no containers', object: sidecarSetCase('none', { containers: [] }) },
  { name: 'init containers only', object: sidecarSetCase('init', { containers: [], initContainers: [{ name: 'i', image: 'busybox' }] }) },
  { name: 'a name of 61 characters (64 with the test id)', object: sidecarSetCase('n'.repeat(57)) },
  { name: 'an unknown update strategy type', object: sidecarSetCase('type', { updateStrategy: { type: 'Always' } }) },
  { name: 'NotUpdate', object: sidecarSetCase('notupdate', { updateStrategy: { type: 'NotUpdate' } }) },
  {
    name: 'partition and selector together',
    object: sidecarSetCase('partsel', { updateStrategy: { partition: 2, selector: { matchLabels: { canary: 'true' } } } }),
  },
  {
    name: 'a zero partition with a selector',
    object: sidecarSetCase('partsel0', { updateStrategy: { partition: 0, selector: { matchLabels: { canary: 'true' } } } }),
  },
  { name: 'an unknown podInjectPolicy (second container)', object: sidecarSetCase('inject', container({ podInjectPolicy: 'Middle' })) },
  { name: 'AfterAppContainer', object: sidecarSetCase('after', container({ podInjectPolicy: 'AfterAppContainer' })) },
  { name: 'an unknown shareVolumePolicy', object: sidecarSetCase('share', container({ shareVolumePolicy: { type: 'sometimes' } })) },
  { name: 'an unknown upgradeType', object: sidecarSetCase('upgrade', container({ upgradeStrategy: { upgradeType: 'WarmUpgrade' } })) },
  { name: 'HotUpgrade without empty image', object: sidecarSetCase('hot', container({ upgradeStrategy: { upgradeType: 'HotUpgrade' } })) },
  {
    name: 'a native sidecar with RollingUpdate',
    object: sidecarSetCase('native', { initContainers: [{ name: 'n', image: 'busybox', restartPolicy: 'Always' }] }),
  },
  {
    name: 'a native sidecar with NotUpdate',
    object: sidecarSetCase('native-ok', { updateStrategy: { type: 'NotUpdate' }, initContainers: [{ name: 'n', image: 'busybox', restartPolicy: 'Always' }] }),
  },
  {
    name: 'a container without image',
    object: sidecarSetCase('noimage', { containers: [{ name: 'agent' }] }),
    webhookOnly: "the containers as a pod are apimachinery's pod validation, code",
  },
  {
    name: 'an injection revision no ControllerRevision has',
    object: sidecarSetCase('rev', { injectionStrategy: { revision: { customVersion: 'v9' } } }),
    webhookOnly: 'the revision is looked up among ControllerRevisions',
  },
];
