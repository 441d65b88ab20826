// Which SidecarSets compile into a MutatingAdmissionPolicy, and what the policy holds. The CEL runs in the API
// server: apps/sidecarset/src/sidecarset-injection-policy.int.test.ts creates pods through it.
import { describe, expect, it } from 'vitest';
import type { AnySidecarSet } from '../injection/types.js';
import { cel, injectionPolicyName, injectionPolicyObjects, notInjected, webhookOnlyReason } from './compile.js';

const scs = (spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}): AnySidecarSet =>
  ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name: 'log', annotations: { 'kruise.io/sidecarset-hash': 'h1', ...annotations } },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'agent', image: 'busybox', volumeMounts: [{ name: 'cache', mountPath: '/cache' }] }],
      volumes: [{ name: 'cache', emptyDir: {} }, { name: 'unused', emptyDir: {} }],
      ...spec,
    },
  }) as unknown as AnySidecarSet;

const withContainer = (extra: Record<string, unknown>) => scs({ containers: [{ name: 'agent', image: 'busybox', ...extra }] });

describe('webhookOnlyReason: what CEL cannot express stays on the webhook', () => {
  it.each<[string, AnySidecarSet, RegExp | undefined]>([
    ['containers, volumes, secrets', scs({ imagePullSecrets: [{ name: 'reg' }] }), undefined],
    ['plain init containers', scs({ initContainers: [{ name: 'init', image: 'busybox' }] }), undefined],
    ['transferEnv', withContainer({ transferEnv: [{ sourceContainerName: 'main', envName: 'A' }] }), /transferEnv/],
    ['shareVolumePolicy', withContainer({ shareVolumePolicy: { type: 'enabled' } }), /shareVolumePolicy/],
    ['shareVolumeDevicePolicy', withContainer({ shareVolumeDevicePolicy: { type: 'enabled' } }), /shareVolumeDevicePolicy/],
    ['hot upgrade', withContainer({ upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e' } }), /hot upgrade/],
    ['resourcesPolicy', withContainer({ resourcesPolicy: { targetContainersNameRegex: '.*' } }), /resourcesPolicy/],
    ['native sidecars', scs({ initContainers: [{ name: 'n', image: 'busybox', restartPolicy: 'Always' }] }), /native/],
    ['injectionStrategy.revision', scs({ injectionStrategy: { revision: { customVersion: 'v1' } } }), /revision/],
    ['patchPodMetadata', scs({ patchPodMetadata: [{ annotations: { a: 'b' }, patchPolicy: 'Overwrite' }] }), /patchPodMetadata/],
    ['a canary', scs({}, { 'apps.kruise.io/sidecarset-canary': 'true' }), /canary/],
  ])('%s', (_n, s, want) => {
    const got = webhookOnlyReason(s);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });

  it('the EnableSortSidecarContainerByName gate keeps every SidecarSet on the webhook', () => {
    expect(webhookOnlyReason(scs(), { sortContainersByName: true })).toMatch(/EnableSortSidecarContainerByName/);
  });
});

describe('injectionPolicyObjects', () => {
  it('a policy on pod CREATE scoped by the SidecarSet selectors, failing closed, and its binding', () => {
    const scope = { matchLabels: { team: 'a' } };
    const [policy, binding] = injectionPolicyObjects(scs({ namespace: 'prod' }), scope)! as unknown as {
      kind: string;
      metadata: { name: string };
      spec: Record<string, any>;
    }[];
    expect(policy!.kind).toBe('MutatingAdmissionPolicy');
    expect(policy!.metadata.name).toBe(injectionPolicyName(scs(), scope));
    expect(policy!.spec['failurePolicy']).toBe('Fail');
    expect(policy!.spec['reinvocationPolicy']).toBe('Never');
    expect(policy!.spec['matchConstraints'].objectSelector).toEqual({ matchLabels: { app: 'web' } });
    expect(policy!.spec['matchConstraints'].namespaceSelector).toEqual({
      matchLabels: { 'kubernetes.io/metadata.name': 'prod' },
      matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }],
    });
    expect(policy!.spec['matchConditions']).toEqual([{ name: 'not-injected', expression: notInjected(['agent']) }]);
    const expr: string = policy!.spec['mutations'][0].jsonPatch.expression;
    // the container as the webhook builds it (IS_INJECTED), the volume it mounts and not the unused one, the annotations
    expect(expr).toContain('"name": dyn("agent")');
    expect(expr).toContain('{"name": dyn("IS_INJECTED"), "value": dyn("true")}');
    expect(expr).toContain('"name": dyn("cache")');
    expect(expr).not.toContain('"unused"');
    expect(expr).toContain('/metadata/annotations/kruise.io~1sidecarset-hash');
    expect(expr).toContain('/metadata/annotations/kruise.io~1sidecarset-injected-list');
    expect(binding).toMatchObject({ kind: 'MutatingAdmissionPolicyBinding', spec: { policyName: policy!.metadata.name } });
  });

  it('values are CEL literals of one element type (dyn), as the API server wants them', () => {
    expect(cel({ a: [1, 'x'], b: null })).toBe('{"a": dyn([dyn(1), dyn("x")]), "b": dyn(null)}');
  });

  it('BeforeAppContainer sidecars go first, in their order', () => {
    const s = scs({
      containers: [
        { name: 'a', image: 'x', podInjectPolicy: 'BeforeAppContainer' },
        { name: 'b', image: 'x', podInjectPolicy: 'BeforeAppContainer' },
      ],
    });
    const expr = (injectionPolicyObjects(s)![0] as { spec: { mutations: { jsonPatch: { expression: string } }[] } }).spec
      .mutations[0]!.jsonPatch.expression;
    // inserted at 0 one after the other: b first, then a before it
    expect(expr.indexOf('"name": dyn("b")')).toBeLessThan(expr.indexOf('"name": dyn("a")'));
    expect(expr).toContain('path: "/spec/containers/0"');
  });

  it('a paused SidecarSet, or one selecting everything, has no policy', () => {
    expect(injectionPolicyObjects(scs({ injectionStrategy: { paused: true } }))).toBeUndefined();
    expect(injectionPolicyObjects(scs({ selector: {} }))).toBeUndefined();
  });
});
