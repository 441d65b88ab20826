import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { ALLOW_ALL, validSidecarSet } from './test-objects.js';
import type { SidecarSet } from './types.js';
import { validateSidecarSet } from './validation.js';

type Mutate = (s: SidecarSet) => void;
const spec = (s: SidecarSet) => s.spec as Record<string, unknown> & SidecarSet['spec'];
const c0 = (s: SidecarSet) => s.spec.containers![0]! as Record<string, unknown>;

function errorsOf(mutate: Mutate, ctx = {}): string[] {
  const s = validSidecarSet();
  mutate(s);
  return validateSidecarSet(s, { ...ALLOW_ALL, ...ctx }).map(formatFieldError);
}

describe('validateSidecarSet (pkg/webhook/sidecarset/validating)', () => {
  const unchanged: Mutate = () => undefined;
  it('accepts the valid object', () => expect(errorsOf(unchanged)).toEqual([]));
  // upstream refuses it ("The initContainer in-place upgrade is not currently supported."): docs/adr/0090
  it('accepts a native sidecar init container with RollingUpdate (upgraded in place)', () =>
    expect(errorsOf((s) => (spec(s).initContainers![0]!.restartPolicy = 'Always'))).toEqual([]));
  it('accepts a native sidecar with HotUpgrade', () =>
    expect(
      errorsOf((s) =>
        Object.assign(spec(s).initContainers![0]!, {
          restartPolicy: 'Always',
          upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'busybox:1.35' },
        }),
      ),
    ).toEqual([]));

  const rows: [string, Mutate, string][] = [
    ['name with a dot', (s) => (s.metadata!.name = 'a.b'), "metadata.name: Invalid value: \"a.b\": sidecarset name must consist of alphanumeric characters or '-'"],
    ['name too long', (s) => (s.metadata!.name = 'a'.repeat(64)), 'metadata.name: Invalid value'],
    ['namespace set', (s) => (s.metadata!.namespace = 'default'), 'metadata.namespace: Forbidden'],
    ['no selector', (s) => delete spec(s).selector, 'spec.selector: Required value: no selector defined for SidecarSet'],
    ['empty selector', (s) => (spec(s).selector = {}), 'spec.selector: Invalid value: {}: empty selector is not valid for sidecarset.'],
    ['bad selector operator', (s) => (spec(s).selector = { matchExpressions: [{ key: 'a', operator: 'Is' }] }), 'spec.selector.matchExpressions[0].operator: Invalid value: "Is"'],
    ['empty namespaceSelector', (s) => (spec(s).namespaceSelector = {}), 'spec.namespaceSelector: Invalid value: {}: empty selector is not valid for sidecarset.'],
    ['no containers at all', (s) => { delete spec(s).containers; delete spec(s).initContainers; }, 'spec: Required value: no initContainer or container defined for SidecarSet'],
    ['partition with selector', (s) => (spec(s).updateStrategy!.selector = { matchLabels: { canary: 'true' } }), 'spec.updateStrategy: Invalid value: {'],
    ['partition not a percentage', (s) => (spec(s).updateStrategy!.partition = '10'), 'spec.updateStrategy.partition: Invalid value: "10"'],
    ['negative maxUnavailable', (s) => (spec(s).updateStrategy!.maxUnavailable = -1), 'spec.updateStrategy.maxUnavailable: Invalid value: -1: must be greater than or equal to 0'],
    ['unknown strategy type', (s) => (spec(s).updateStrategy!.type = 'OnDelete'), 'spec.updateStrategy.type: Unsupported value: "OnDelete"'],
    ['weight and order priority', (s) => (spec(s).updateStrategy!.priorityStrategy = { weightPriority: [{ weight: 1, matchSelector: { matchLabels: { a: 'b' } } }], orderPriority: [{ orderedKey: 'k' }] }), 'spec.updateStrategy.priorityStrategy: Required value: only one of weightPriority and orderPriority can be used'],
    ['duplicate scatter term', (s) => (spec(s).updateStrategy!.scatterStrategy = [{ key: 'z', value: 'a' }, { key: 'z', value: 'a' }]), 'spec.updateStrategy.scatterStrategy: Required value: duplicated key=z value=a'],
    ['podInjectPolicy', (s) => (c0(s)['podInjectPolicy'] = 'Middle'), 'spec.containers[0].podInjectPolicy: Invalid value: "Middle": unsupported pod inject policy'],
    ['shareVolumePolicy', (s) => (c0(s)['shareVolumePolicy'] = { type: 'disabled | enabled' }), 'spec.containers[0].shareVolumePolicy: Invalid value: {"type":"disabled | enabled"}: unsupported share volume policy'],
    ['upgradeType', (s) => (c0(s)['upgradeStrategy'] = { upgradeType: 'Warm' }), 'spec.containers[0].upgradeStrategy.upgradeType: Unsupported value: "Warm"'],
    ['HotUpgrade without empty image', (s) => (c0(s)['upgradeStrategy'] = { upgradeType: 'HotUpgrade' }), 'spec.containers[0].upgradeStrategy.hotUpgradeEmptyImage: Required value'],
    ['transferEnv fieldRef path', (s) => (c0(s)['transferEnv'] = [{ sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }]), 'spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef.fieldPath: Invalid value: "spec.nodeName": error converting fieldPath: field label not supported: spec.nodeName'],
    ['transferEnv fieldRef apiVersion', (s) => (c0(s)['transferEnv'] = [{ sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['a']" } } }]), 'spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef.apiVersion: Required value'],
    ['transferEnv label key', (s) => (c0(s)['transferEnv'] = [{ sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['-bad']" } } }]), 'spec.containers[0].transferEnv[0].sourceContainerNameFrom.fieldRef: Invalid value: "-bad"'],
    ['resourcesPolicy with resources', (s) => Object.assign(c0(s), { resources: { limits: { cpu: '1' } }, resourcesPolicy: { targetContainersMode: 'sum', targetContainersNameRegex: '.*', resourcesExpr: { limits: { cpu: 'cpu' } } } }), 'spec.containers[0].resourcesPolicy: Invalid value: {'],
    ['resourcesPolicy regex', (s) => (c0(s)['resourcesPolicy'] = { targetContainersMode: 'max', targetContainersNameRegex: '(', resourcesExpr: { limits: { cpu: 'cpu' } } }), 'spec.containers[0].resourcesPolicy.targetContainersNameRegex: Invalid value: "(": invalid regex pattern'],
    ['resourcesPolicy empty regex', (s) => (c0(s)['resourcesPolicy'] = { targetContainersMode: 'max', targetContainersNameRegex: '', resourcesExpr: { limits: { cpu: 'cpu' } } }), 'spec.containers[0].resourcesPolicy.targetContainersNameRegex: Required value: invalid empty regex'],
    ['resourcesPolicy mode', (s) => (c0(s)['resourcesPolicy'] = { targetContainersMode: 'avg', targetContainersNameRegex: '.*', resourcesExpr: { limits: { cpu: 'cpu' } } }), 'spec.containers[0].resourcesPolicy.targetContainersMode: Unsupported value: "avg"'],
    ['resourcesPolicy no expressions', (s) => (c0(s)['resourcesPolicy'] = { targetContainersMode: 'sum', targetContainersNameRegex: '.*', resourcesExpr: {} }), 'spec.containers[0].resourcesPolicy.resourcesExpr: Invalid value: {}: at least one of limits or requests must be configured'],
    ['resourcesPolicy bad expression', (s) => (c0(s)['resourcesPolicy'] = { targetContainersMode: 'sum', targetContainersNameRegex: '.*', resourcesExpr: { requests: { memory: 'memory * cpu' } } }), 'spec.containers[0].resourcesPolicy.resourcesExpr.requests.memory: Invalid value: "memory * cpu": invalid expression'],
    ['resourcesPolicy on a plain init container', (s) => (spec(s).initContainers![0]!['resourcesPolicy'] = { targetContainersMode: 'sum', targetContainersNameRegex: '.*', resourcesExpr: { limits: { cpu: 'cpu' } } }), 'spec.initContainers[0].resourcesPolicy: Invalid value: {'],
    ['container without image', (s) => delete c0(s)['image'], 'spec.containers[0].image: Required value'],
    ['mount of an unknown volume', (s) => (spec(s).volumes = []), 'spec.containers[0].volumeMounts[0].name: Invalid value: "logs": not found'],
    ['duplicate container names', (s) => (spec(s).initContainers![0]!.name = 'log-agent-main'), 'spec.initContainers[0].name: Duplicate value: "log-agent-main"'],
    ['revision without name or version', (s) => (spec(s).injectionStrategy = { revision: { policy: 'Always' } }), 'spec.injectionStrategy.revision: Invalid value: {"policy":"Always"}: revisionName and customVersion cannot be empty simultaneously'],
    ['revision policy', (s) => (spec(s).injectionStrategy = { revision: { revisionName: 'r', policy: 'Sometimes' as 'Always' } }), 'spec.injectionStrategy.revision.policy: Invalid value: "Sometimes": Invalid policy Sometimes, supported: [Always, Partial]'],
    ['patch without annotations', (s) => (spec(s).patchPodMetadata = [{ patchPolicy: 'Retain' }]), 'spec.patchPodMetadata: Required value: no annotations defined for SidecarSet'],
    ['patch without policy', (s) => (spec(s).patchPodMetadata = [{ annotations: { a: 'b' } }]), 'spec.patchPodMetadata: Required value: no patchPolicy defined for patchPodMetadata'],
    ['patch policy unknown', (s) => (spec(s).patchPodMetadata = [{ annotations: { a: 'b' }, patchPolicy: 'Merge' }]), 'spec.patchPodMetadata[0].patchPolicy: Unsupported value: "Merge"'],
    ['patch duplicate key', (s) => (spec(s).patchPodMetadata = [{ annotations: { a: 'b' }, patchPolicy: 'Retain' }, { annotations: { a: 'c' }, patchPolicy: 'Overwrite' }]), 'spec.patchPodMetadata: Required value: patch annotation[a] already exist'],
    ['patch bad annotation key', (s) => (spec(s).patchPodMetadata = [{ annotations: { '-a': 'b' }, patchPolicy: 'Retain' }]), 'spec.patchPodMetadata[0].annotations: Invalid value: "-a"'],
    ['wrong JSON type', (s) => (spec(s).revisionHistoryLimit = 'ten' as unknown as number), 'spec.revisionHistoryLimit: Invalid value: "ten": must be an integer'],
  ];
  it.each(rows)('%s', (_name, mutate, want) => {
    const errs = errorsOf(mutate);
    expect(errs.some((e) => e.startsWith(want)), `${want}\nnot in\n${errs.join('\n')}`).toBe(true);
  });

  describe('patchPodMetadata whitelist (kruise-configuration SidecarSet_PatchPodMetadata_WhiteList)', () => {
    const withPatch: Mutate = () => undefined;
    it.each<[string, object, string | undefined]>([
      ['no whitelist', { patchPodMetadataWhitelist: undefined }, 'SidecarSet patch metadata whitelist not found'],
      ['no whitelist, gate on', { patchPodMetadataWhitelist: undefined, patchPodMetadataDefaultsAllowed: true }, undefined],
      ['key allowed', { patchPodMetadataWhitelist: { rules: [{ allowedAnnotationKeyExprs: ['^agent\\.example\\.com/.*'] }] } }, undefined],
      ['key not allowed', { patchPodMetadataWhitelist: { rules: [{ allowedAnnotationKeyExprs: ['^other/.*'] }] } }, 'sidecarSet patch metadata annotation(agent.example.com/on) is not allowed'],
      ['rule for other SidecarSets', { patchPodMetadataWhitelist: { rules: [{ selector: { matchLabels: { team: 'web' } }, allowedAnnotationKeyExprs: ['.*'] }] } }, 'sidecarSet patch metadata annotation is not allowed'],
      ['rule for this SidecarSet', { patchPodMetadataWhitelist: { rules: [{ selector: { matchLabels: { team: 'infra' } }, allowedAnnotationKeyExprs: ['.*'] }] } }, undefined],
    ])('%s', (_name, ctx, want) => {
      const errs = errorsOf(withPatch, ctx);
      expect(errs).toEqual(want ? [`spec.patchPodMetadata: Required value: ${want}`] : []);
    });
  });

  describe('conflicts with overlapping SidecarSets (others passed in)', () => {
    const other = (name: string, overrides: Partial<SidecarSet['spec']> = {}) => validSidecarSet(name, { patchPodMetadata: [], ...overrides });
    it.each<[string, SidecarSet, string[]]>([
      ['same container name, same pods', other('b', { containers: [{ name: 'log-agent-main', image: 'x' }] }), ['spec.containers: Invalid value: "log-agent-main": container log-agent-main already exist in b']],
      ['same init container name', other('b', { initContainers: [{ name: 'log-agent-init', image: 'x' }] }), ['spec.containers: Invalid value: "log-agent-init": container log-agent-init already exist in b']],
      ['same name, disjoint selector', other('b', { selector: { matchLabels: { app: 'db' } }, containers: [{ name: 'log-agent-main', image: 'x' }] }), []],
      ['same name, disjoint namespaces', other('b', { namespaceSelector: { matchLabels: { env: 'dev' } }, containers: [{ name: 'log-agent-main', image: 'x' }] }), []],
      ['same name, other selects all namespaces', other('b', { namespaceSelector: undefined, containers: [{ name: 'log-agent-main', image: 'x' }] }), ['spec.containers: Invalid value: "log-agent-main": container log-agent-main already exist in b']],
      ['volume with another definition', other('b', { volumes: [{ name: 'logs', hostPath: { path: '/x' } }] }), ['spec.volumes: Invalid value: "logs": volume logs is in conflict with sidecarset b']],
      ['volume with the same definition', other('b', { volumes: [{ name: 'logs', emptyDir: {} }] }), []],
      ['annotation overwritten by both', validSidecarSet('b'), ['spec.patchPodMetadata: Invalid value: "agent.example.com/on": annotation agent.example.com/on is in conflict with sidecarset b']],
      ['annotation retained by the other', other('b', { patchPodMetadata: [{ annotations: { 'agent.example.com/on': 'x' }, patchPolicy: 'Retain' }] }), []],
      ['itself (by name) is skipped', validSidecarSet('log-agent'), []],
    ])('%s', (_name, o, want) => {
      expect(validateSidecarSet(validSidecarSet(), { ...ALLOW_ALL, others: [o] }).map(formatFieldError)).toEqual(want);
    });
  });

  describe('canary SidecarSets (apps.kruise.io/sidecarset-canary / -base)', () => {
    const canary = (base: string | undefined, type = 'NotUpdate') => {
      const s = validSidecarSet('canary', { updateStrategy: { type } });
      s.metadata!.annotations = { 'apps.kruise.io/sidecarset-canary': 'true', ...(base ? { 'apps.kruise.io/sidecarset-base': base } : {}) };
      return s;
    };
    const base = validSidecarSet('base');
    const canaryOfOther = canary('x');
    canaryOfOther.metadata!.name = 'other-canary';
    it.each<[string, SidecarSet, SidecarSet[], string | undefined]>([
      ['valid', canary('base'), [base], undefined],
      ['base missing', canary('nope'), [base], 'fetch base sidecarSet[nope] failed: sidecarsets.apps.kruise.io "nope" not found'],
      ['base is itself', canary('canary'), [base], 'base sidecarSet cannot be itself'],
      ['base is a canary', canary('other-canary'), [base, canaryOfOther], 'base sidecarSet cannot be canary'],
      ['RollingUpdate', canary('base', 'RollingUpdate'), [base], 'RollingUpdate is not supported for canary sidecarSet'],
      ['no base annotation', canary(undefined), [base], 'annotations[apps.kruise.io/sidecarset-base] is required for canary sidecarSet'],
    ])('%s', (_name, s, others, want) => {
      const errs = validateSidecarSet(s, { ...ALLOW_ALL, others }).map(formatFieldError);
      if (want) expect(errs.some((e) => e.startsWith('metadata: Invalid value') && e.endsWith(want)), errs.join('\n')).toBe(true);
      else expect(errs).toEqual([]);
    });
  });

  describe('injectionStrategy.revision resolves against the revisions passed in', () => {
    const revs = [{ metadata: { name: 'log-agent-abc', labels: { 'kruise.io/sidecarset-name': 'log-agent', 'apps.kruise.io/sidecarset-custom-version': 'v2' } } }];
    it.each<[string, object, boolean]>([
      ['by name', { revisionName: 'log-agent-abc' }, true],
      ['by custom version', { customVersion: 'v2' }, true],
      ['unknown name', { revisionName: 'nope' }, false],
      ['unknown custom version', { customVersion: 'v3' }, false],
    ])('%s', (_name, revision, ok) => {
      const s = validSidecarSet();
      s.spec.injectionStrategy = { revision: { ...revision, policy: 'Always' } };
      const errs = validateSidecarSet(s, { ...ALLOW_ALL, revisions: revs }).map(formatFieldError);
      expect(errs).toEqual(ok ? [] : [expect.stringContaining('spec.injectionStrategy.revision: Invalid value') as unknown as string]);
    });
  });

  it('v1alpha1: namespace is converted before the rules (validated as upstream does)', () => {
    const s = { ...validSidecarSet(), apiVersion: 'apps.kruise.io/v1alpha1' } as Record<string, unknown>;
    (s['spec'] as Record<string, unknown>)['namespace'] = 'default';
    expect(validateSidecarSet(s, { ...ALLOW_ALL, version: 'v1alpha1' }).map(formatFieldError)).toEqual([]);
  });
});
