import { describe, expect, it } from 'vitest';
import { mergeSidecarContainers } from './merge.js';
import { jsonMergePatch, patchPodMetadata } from './patch-metadata.js';
import type { SidecarContainer } from './types.js';

const sidecar = (
  name: string,
  podInjectPolicy: 'BeforeAppContainer' | 'AfterAppContainer',
): SidecarContainer => ({
  name,
  image: `${name}:v1`,
  podInjectPolicy,
});
const c = (name: string) => ({ name, image: 'app:v1' });
const s1 = sidecar('sidecar-1', 'AfterAppContainer');
const s2 = sidecar('sidecar-2', 'AfterAppContainer');
const n1 = sidecar('new-sidecar-1', 'BeforeAppContainer');
const all = [n1, s1, s2]; // sorted by name before merging

// OpenKruise pkg/webhook/pod/mutating/sidecarset_test.go TestMergeSidecarContainers
describe('mergeSidecarContainers', () => {
  it.each([
    { origins: ['app'], injected: all, result: ['new-sidecar-1', 'app', 'sidecar-1', 'sidecar-2'] },
    { origins: ['app'], injected: [n1], result: ['new-sidecar-1', 'app'] },
    { origins: ['app'], injected: [s1, s2], result: ['app', 'sidecar-1', 'sidecar-2'] },
    {
      origins: ['sidecar-1', 'app', 'sidecar-2'],
      injected: [s1, s2],
      result: ['sidecar-1', 'app', 'sidecar-2'],
    },
    {
      origins: ['sidecar-1', 'app', 'sidecar-2'],
      injected: all,
      result: ['new-sidecar-1', 'sidecar-1', 'app', 'sidecar-2'],
    },
    { origins: [], injected: all, result: ['new-sidecar-1', 'sidecar-1', 'sidecar-2'] },
  ])('$origins + $injected.length sidecars → $result', ({ origins, injected, result }) => {
    const merged = mergeSidecarContainers(origins.map(c), injected);
    expect(merged.map((m) => m.name)).toEqual(result);
    // a sidecar replacing a pod container takes its place with the sidecar's definition, without sidecar fields
    const replaced = merged.find((m) => m.name === 'sidecar-1');
    if (replaced) expect(replaced).toEqual({ name: 'sidecar-1', image: 'sidecar-1:v1' });
  });
});

// OpenKruise pkg/control/sidecarcontrol/util_test.go TestPatchPodMetadata
describe('patchPodMetadata', () => {
  it('Retain keeps existing values and adds missing keys', () => {
    const a = { 'oom-score': '1' };
    const { skip } = patchPodMetadata(a, [{ annotations: { 'oom-score': '9', cpu: '2' } }]);
    expect(a).toEqual({ 'oom-score': '1', cpu: '2' });
    expect(skip).toBe(false);
  });
  it('Overwrite replaces', () => {
    const a = { 'oom-score': '1' };
    patchPodMetadata(a, [{ annotations: { 'oom-score': '9' }, patchPolicy: 'Overwrite' }]);
    expect(a).toEqual({ 'oom-score': '9' });
  });
  it('MergePatchJson merges {"log-agent":1} + {"envoy":2} → {"envoy":2,"log-agent":1}', () => {
    const a = { 'cookie.sidecar': '{"log-agent":1}' };
    patchPodMetadata(a, [
      { annotations: { 'cookie.sidecar': '{"envoy":2}' }, patchPolicy: 'MergePatchJson' },
    ]);
    expect(a).toEqual({ 'cookie.sidecar': '{"envoy":2,"log-agent":1}' });
  });
  it('MergePatchJson sets a missing key to the patch', () => {
    const a: Record<string, string> = {};
    patchPodMetadata(a, [{ annotations: { k: '{"envoy":2}' }, patchPolicy: 'MergePatchJson' }]);
    expect(a).toEqual({ k: '{"envoy":2}' });
  });
  it('skip when no patch changes anything (identical JSON merged)', () => {
    const a = { k: '{"envoy":2,"log-agent":1}' };
    expect(
      patchPodMetadata(a, [{ annotations: { k: '{"envoy":2}' }, patchPolicy: 'MergePatchJson' }]).skip,
    ).toBe(true);
  });
  it('jsonMergePatch removes null members (RFC 7386)', () => {
    expect(jsonMergePatch({ a: 1, b: { c: 2, d: 3 } }, { b: { c: null }, e: 4 })).toEqual({
      a: 1,
      b: { d: 3 },
      e: 4,
    });
  });
});
