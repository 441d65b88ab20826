import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { ALLOW_ALL, validSidecarSet } from './test-objects.js';
import type { SidecarSet } from './types.js';
import { validateSidecarSetUpdate } from './update-validation.js';

describe('validateSidecarSetUpdate', () => {
  const old = validSidecarSet();
  const changed = (mutate: (s: SidecarSet) => void): string[] => {
    const s = validSidecarSet();
    mutate(s);
    return validateSidecarSetUpdate(s, old, ALLOW_ALL).map(formatFieldError);
  };

  it.each<[string, (s: SidecarSet) => void, string[]]>([
    ['image changed', (s) => (s.spec.containers![0]!.image = 'busybox:1.36'), []],
    ['env changed', (s) => (s.spec.containers![0]!.env = [{ name: 'A', value: '1' }]), []],
    ['container renamed', (s) => (s.spec.containers![0]!.name = 'renamed'), ['spec.containers.name: Invalid value: "renamed": container renamed is not found']],
    ['container added', (s) => s.spec.containers!.push({ name: 'extra', image: 'x' }), ['spec.containers.name: Invalid value: "extra": container extra is not found']],
    ['container removed', (s) => (s.spec.containers = []), []],
    ['upgradeType changed', (s) => (s.spec.containers![0]!.upgradeStrategy = { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e' }), ['spec.containers.upgradeStrategy.upgradeType: Invalid value: "log-agent-main": container log-agent-main upgradeType is immutable']],
    ['create rules still apply', (s) => (s.spec.selector = {}), ['spec.selector: Invalid value: {}: empty selector is not valid for sidecarset.']],
  ])('%s', (_name, mutate, want) => expect(changed(mutate)).toEqual(want));

  it('the canary base annotation is immutable', () => {
    const canary = (base: string) => {
      const s = validSidecarSet('canary', { updateStrategy: { type: 'NotUpdate' } });
      s.metadata!.annotations = { 'apps.kruise.io/sidecarset-canary': 'true', 'apps.kruise.io/sidecarset-base': base };
      return s;
    };
    const others = [validSidecarSet('a', { patchPodMetadata: [] }), validSidecarSet('b', { patchPodMetadata: [] })];
    expect(validateSidecarSetUpdate(canary('a'), canary('a'), { ...ALLOW_ALL, others }).map(formatFieldError)).toEqual([]);
    expect(validateSidecarSetUpdate(canary('b'), canary('a'), { ...ALLOW_ALL, others }).map(formatFieldError)).toEqual([
      expect.stringMatching(/^metadata: Invalid value: .*annotations\[apps\.kruise\.io\/sidecarset-base\] is immutable$/) as unknown as string,
    ]);
  });
});
