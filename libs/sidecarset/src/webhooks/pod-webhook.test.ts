import { describe, expect, it } from 'vitest';
import type { AdmissionInput } from '@regatta/runtime';
import type { AnySidecarSet, Pod } from '../injection/types.js';
import { SpecGuard } from '@regatta/kube';
import { podDefaulter, validSidecarSets } from './pod-webhook.js';

const sidecarSet: AnySidecarSet = {
  metadata: {
    name: 'mesh',
    annotations: { 'kruise.io/sidecarset-hash': 'h', 'kruise.io/sidecarset-hash-without-image': 'w' },
  },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    containers: [
      {
        name: 'envoy',
        image: 'envoy',
        podInjectPolicy: 'BeforeAppContainer',
        env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '1' }],
      },
    ],
  },
};
const input = (pod: Pod, operation: 'CREATE' | 'UPDATE' = 'CREATE'): AdmissionInput<Pod> =>
  ({
    operation,
    object: pod,
    oldObject: null,
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'ns',
    userInfo: {},
    dryRun: false,
    uid: 'u',
  }) as AdmissionInput<Pod>;
const handler = podDefaulter({
  sidecarSets: () => [sidecarSet],
  namespaceLabels: () => ({}),
  revisions: () => [],
  now: () => new Date('2026-12-03T07:00:00.123Z'),
});

describe('podDefaulter (§5.2: injection, then launch priority)', () => {
  it('an injected sidecar with KRUISE_CONTAINER_PRIORITY gets its barrier, as every container', async () => {
    const pod: Pod = {
      metadata: { name: 'p', labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image: 'a' }] },
    };
    const out = (await handler(input(pod))) as Pod;
    expect(out.spec!.containers!.map((c) => c.name)).toEqual(['envoy', 'app']);
    expect(out.spec!.containers!.map((c) => JSON.stringify(c.env))).toEqual([
      expect.stringContaining('"key":"p_1"'),
      expect.stringContaining('"key":"p_0"'),
    ]);
    expect(out.metadata!.annotations!['kruise.io/sidecarset-hash']).toContain(
      '"updateTimestamp":"2026-12-03T07:00:00Z"',
    );
    expect(out.metadata!.namespace).toBeUndefined();
  });
  it('UPDATE and unselected pods are left alone', async () => {
    const pod: Pod = {
      metadata: { name: 'p', labels: { app: 'other' } },
      spec: { containers: [{ name: 'app', image: 'a' }] },
    };
    expect(await handler(input(pod))).toBeUndefined();
    expect(
      await handler(input({ ...pod, metadata: { name: 'p', labels: { app: 'web' } } }, 'UPDATE')),
    ).toBeUndefined();
  });
});

describe('podDefaulter with a SidecarSet stored invalid (webhooks off; docs/reliability-checks.md R2)', () => {
  const invalid = (name: string, spec: Partial<AnySidecarSet['spec']>): AnySidecarSet => ({
    ...sidecarSet,
    metadata: { ...sidecarSet.metadata, name, uid: `uid-${name}`, generation: 1 },
    spec: {
      ...sidecarSet.spec,
      containers: [{ name: `${name}-c`, image: 'busybox' }],
      ...spec,
    } as AnySidecarSet['spec'],
  });
  const pod: Pod = {
    metadata: { name: 'p', labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image: 'a' }] },
  };
  it.each([
    ['an unparsable maxUnavailable', { updateStrategy: { type: 'RollingUpdate', maxUnavailable: 'lots' } }],
    ['two sidecars of one name', { containers: [{ name: 'x', image: 'a' }, { name: 'x', image: 'b' }] }],
    ['an unknown update type', { updateStrategy: { type: 'Sometimes' } }],
  ])('is not injected (%s); the valid one is', async (_, spec) => {
    const h = podDefaulter({
      sidecarSets: () => [sidecarSet, invalid('bad', spec as Partial<AnySidecarSet['spec']>)],
      namespaceLabels: () => ({}),
      revisions: () => [],
    });
    const out = (await h(input(pod))) as Pod;
    expect(out.spec!.containers!.map((c) => c.name)).toEqual(['envoy', 'app']);
    expect(out.metadata!.annotations!['kruise.io/sidecarset-injected-list']).toBe('mesh');
  });
  it('is injected once fixed (a new generation)', async () => {
    let bad = invalid('bad', { updateStrategy: { type: 'RollingUpdate', maxUnavailable: 'lots' } } as never);
    const h = podDefaulter({
      sidecarSets: () => [bad],
      namespaceLabels: () => ({}),
      revisions: () => [],
    });
    expect(await h(input(pod))).toBeUndefined();
    bad = { ...bad, metadata: { ...bad.metadata, generation: 2 }, spec: { ...bad.spec, updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 } } } as AnySidecarSet;
    const out = (await h(input(pod))) as Pod;
    expect(out.spec!.containers!.map((c) => c.name)).toEqual(['app', 'bad-c']);
  });
});

describe('validSidecarSets', () => {
  const named = (name: string): AnySidecarSet => ({
    ...sidecarSet,
    metadata: { ...sidecarSet.metadata, name, uid: `uid-${name}`, generation: 1 },
  });
  it('forgets the verdict of a SidecarSet that was deleted', () => {
    const guard = new SpecGuard<AnySidecarSet>(() => undefined);
    const all = ['a', 'b', 'c'].map(named);
    expect(validSidecarSets(all, guard)).toHaveLength(3);
    expect(guard.size).toBe(3);
    expect(validSidecarSets([all[1]!], guard).map((s) => s.metadata?.name)).toEqual(['b']);
    expect(guard.size).toBe(1);
  });
});
